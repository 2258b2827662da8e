"""One health problem opened from the overview: its whole ``why`` (the table cuts it),
the side file or collection it names, and the notes behind it, one row each (id, owner,
first words): Enter on a row answers its id, and the overview shows that note as the
problem's agent. A problem with no note behind it (a silent agent, an owed merge, a
side file) says so.

It is given the rows to show; it never touches the store.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from amem_tui.tui.dialogs.base import Dialog, DialogBody
from amem_tui.tui.render import add_field
from amem_tui.tui.text import cell, literal, table_widths
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine.for_apps import Problem

#: (title, widest cells) of the notes' columns (cut to fit the dialog).
COLUMNS: tuple[tuple[str, int], ...] = (("id", 36), ("owner", 16), ("first words", 120))
#: The dialog's widest, in cells (narrower on a narrow terminal).
WIDTH = 110


@dataclass(frozen=True)
class NoteRow:
    """One note behind a problem as the dialog lists it (``words``: the start of its
    text, or why it could not be read)."""

    id: str
    owner: str
    words: str


def problem_text(problem: Problem) -> Text:
    """What the problem is, in full: why, and the file or collection it names."""
    text = literal(problem.why)
    text.append("\n")
    if problem.path or problem.collection:
        text.append("\n")
    if problem.path:
        add_field(text, "file", problem.path, width=12)
    if problem.collection:
        add_field(text, "collection", problem.collection, width=12)
    return text


class ProblemNotes(Dialog[str | None]):
    """A problem and the notes behind it; answers the id chosen (Enter), or None."""

    DEFAULT_CSS = f"""
    ProblemNotes {{ align: center middle; }}
    ProblemNotes > Vertical {{
        width: {WIDTH}; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }}
    ProblemNotes .title {{ text-style: bold; }}
    ProblemNotes DialogBody {{ height: auto; max-height: 8; }}
    ProblemNotes DataTable {{ height: auto; max-height: 12; }}
    ProblemNotes .hint {{ color: $text-muted; }}
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Back", id="problem-notes.cancel"),
    ]

    def __init__(self, problem: Problem, rows: Sequence[NoteRow]) -> None:
        super().__init__()
        self.problem = problem
        self.rows = list(rows)

    def compose(self) -> ComposeResult:
        problem = self.problem
        with Vertical():
            whose = problem.agent or "the store"
            title = f"{problem.severity} · {problem.kind} · {whose}"
            yield Static(Text(title), classes="title")
            with DialogBody():
                yield Static(problem_text(problem))
            if self.rows:
                yield DataTable(id="problem-notes", cursor_type="row", zebra_stripes=True)
            yield Static(Text(self._hint()), classes="hint")

    def _hint(self) -> str:
        problem = self.problem
        if not self.rows:
            return "No note behind this problem: nothing to open. Escape goes back."
        count = max(problem.count, len(self.rows))
        listed = (
            plural(count, "note")
            if count == len(self.rows)
            else (f"the first {len(self.rows)} of {count} notes")
        )
        who = f"as {problem.agent}" if problem.agent else "as an agent that reads it"
        return f"{listed}. Enter shows one in the main screen {who}; Escape goes back."

    def on_mount(self) -> None:
        """Fill the notes' table, fitted to the dialog, and focus it."""
        super().on_mount()
        if not self.rows:
            return
        table = self.query_one("#problem-notes", DataTable)
        titles = [title for title, _ in COLUMNS]
        values = [(row.id, row.owner, row.words) for row in self.rows]
        # The dialog's border and padding take four cells, the table's scrollbar two.
        room = min(WIDTH, self.app.size.width) - 6 - 2 * table.cell_padding * len(titles)
        widest = [most for _, most in COLUMNS]
        if room < sum(widest[:2]) + 40:  # narrow: the first words matter more than an id's end
            widest[0] = 13
        widths = table_widths(titles, values, room, widest)
        for title, width in zip(titles, widths, strict=True):
            table.add_column(title, width=width)
        for row in values:
            table.add_row(*(cell(v, w) for v, w in zip(row, widths, strict=True)))
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a note: answer its id."""
        event.stop()
        if 0 <= event.cursor_row < len(self.rows):
            self.dismiss(self.rows[event.cursor_row].id)

    def action_cancel(self) -> None:
        """Back to the overview."""
        self.dismiss(None)
