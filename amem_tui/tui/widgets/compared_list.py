"""A titled list of compared notes (one group of a comparison, or one agent's hits).

Each row is a note from ``amem_tui.engine.compare``; the cursor's row is reported
with ``ComparedList.Chosen`` so the screen can explain both sides' access to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static
from textual.widgets.data_table import ColumnKey

from amem_tui.engine.for_apps import ComparedHit, ComparedNote
from amem_tui.tui.text import cell, one_line

if TYPE_CHECKING:
    from amem_tui.engine.for_apps import SideAccess

#: The narrowest the note column gets, and its width before the list has a size.
NOTE_MIN = 10
NOTE_FALLBACK = 30
#: Below this width a list leaves out its rule column (the panel below explains).
RULE_MIN_WIDTH = 36
#: The words for each rule that lets a side see a note.
RULE_WORDS = {"private": "private", "shared": "shared", "collection": "Mode B"}


def rule_of(access: SideAccess) -> str:
    """The rule that shows a note to one side, in a word ("-" when it does not; "get"
    when it reads the note only by id, never by search)."""
    if access.because is None and access.kind == "get_only":
        return "get"
    return RULE_WORDS.get(access.because or "", "-")


def group_rule(note: ComparedNote) -> str:
    """The rules for a note both sides see: one word when they agree, else both."""
    first, second = rule_of(note.a), rule_of(note.b)
    return first if first == second else f"{first}/{second}"


class ComparedList(Vertical):
    """A title and a table of compared notes or hits."""

    DEFAULT_CSS = """
    ComparedList { height: 1fr; border: round $panel-lighten-2; }
    ComparedList:focus-within { border: round $accent; }
    ComparedList > DataTable { height: 1fr; background: transparent; scrollbar-size-horizontal: 0; }
    ComparedList > .list-empty { color: $text-muted; padding: 0 1; height: auto; }
    """

    @dataclass
    class Chosen(Message):
        """The cursor is on ``entry`` (a ComparedNote or a ComparedHit) of ``source``."""

        source: ComparedList
        entry: ComparedNote | ComparedHit

    @dataclass
    class Opened(Message):
        """Enter on ``entry`` of ``source``: the user wants to see the note itself."""

        source: ComparedList
        entry: ComparedNote | ComparedHit

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entries: list[ComparedNote | ComparedHit] = []
        #: The first column's title (the rule, or the other agent's rank for hits).
        self.first_column = "rule"
        #: Whether a narrow list may leave out the first column.
        self.optional_first = True
        self._shown: tuple[str, list[tuple[str, ComparedNote | ComparedHit]], str] | None = None
        self._with_first = True

    def compose(self) -> ComposeResult:
        yield Static("", classes="list-empty", markup=False)
        yield DataTable(cursor_type="row")

    @property
    def table(self) -> DataTable[Text]:
        """The table inside."""
        return self.query_one(DataTable)

    @property
    def current(self) -> ComparedNote | ComparedHit | None:
        """The entry under the cursor, if any."""
        row = self.table.cursor_row
        return self.entries[row] if 0 <= row < len(self.entries) else None

    def show(
        self,
        title: str,
        rows: list[tuple[str, ComparedNote | ComparedHit]],
        empty: str,
    ) -> None:
        """Replace the rows: (first column, entry) each; ``empty`` says why there are none."""
        self._shown = (title, rows, empty)
        self.border_title = one_line(title, 60)
        table = self.table
        row = table.cursor_row
        table.clear(columns=True)
        self.entries = [entry for _, entry in rows]
        self._with_first = self._wide_enough()
        if self._with_first:
            first_width = max([len(self.first_column), *(len(first) for first, _ in rows)])
            table.add_column(self.first_column, key="first", width=min(first_width, 16))
        table.add_column("note", key="note", width=self._note_width())
        for first, entry in rows:
            note = entry.note if isinstance(entry, ComparedHit) else entry
            weak = isinstance(entry, ComparedHit) and entry.weak
            content = cell(
                note.content, 200, "strike" if not note.active else "dim" if weak else ""
            )
            table.add_row(*((cell(first, 16, "dim"), content) if self._with_first else (content,)))
        if 0 < row < len(rows):
            table.move_cursor(row=row, animate=False)
        message = self.query_one(".list-empty", Static)
        message.update(empty if not rows else "")
        message.display = not rows
        table.display = bool(rows)

    def _wide_enough(self) -> bool:
        return not self.optional_first or (self.size.width or 80) >= RULE_MIN_WIDTH

    def _note_width(self) -> int:
        table = self.table
        available = table.size.width or self.size.width or NOTE_FALLBACK
        first = table.columns.get(ColumnKey("first"))
        fixed = first.get_render_width(table) if first is not None else 0
        return max(NOTE_MIN, available - fixed - 2 * table.cell_padding)

    def on_resize(self) -> None:
        """Keep the note column as wide as the list (and the rule column where it fits)."""
        if self._shown is not None and self._wide_enough() != self._with_first:
            self.show(*self._shown)
            return
        column = self.table.columns.get(ColumnKey("note"))
        if column is None:
            return
        width = self._note_width()
        if width != column.width:
            column.width = width
            self.table.refresh()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a row: ask for its note."""
        event.stop()
        entry = self.current
        if entry is not None:
            self.post_message(self.Opened(self, entry))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Report the entry under the cursor."""
        event.stop()
        entry = self.current
        if entry is not None:
            self.post_message(self.Chosen(self, entry))
