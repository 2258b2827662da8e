"""The activity log: what follow mode saw happen, newest first, growing while it is open."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from amem_tui.tui.text import cell

if TYPE_CHECKING:
    from amem_tui.tui.widgets.follow_bar import ActivityEntry

#: How each kind of change is coloured in the log.
KIND_STYLES = {
    "added": "green",
    "published": "cyan",
    "unpublished": "cyan",
    "deleted": "red",
    "gone": "red",
    "restored": "green",
    "consolidated": "magenta",
    "undone": "magenta",
    "merged": "magenta",
    "recalled": "dim",
}


class ActivityScreen(ModalScreen[None]):
    """Every change follow mode has seen in this session; Escape (or l) closes it."""

    DEFAULT_CSS = """
    ActivityScreen { align: center middle; }
    ActivityScreen > Vertical {
        width: 90%; height: 80%; border: round $accent; background: $surface; padding: 0 1;
    }
    ActivityScreen #activity-hint { color: $text-muted; height: auto; }
    ActivityScreen DataTable { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("l", "close", "Close", show=False),
    ]

    def __init__(self, entries: Iterable[ActivityEntry], following: bool) -> None:
        super().__init__()
        self.entries = list(entries)
        self.following = following

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Activity"
            hint = (
                "What follow mode saw change, newest first; it grows while this is open."
                if self.following
                else "Follow mode is off (f turns it on): nothing new is seen."
            )
            yield Static(hint, id="activity-hint", markup=False)
            table: DataTable[Text] = DataTable(cursor_type="row", zebra_stripes=True)
            yield table

    def on_mount(self) -> None:
        """Fill the table, newest first."""
        table = self.query_one(DataTable)
        table.add_column("time", key="time", width=8)
        table.add_column("seen as", key="agent", width=10)
        table.add_column("what happened", key="what")
        self.add(self.entries, fresh=True)
        if not self.entries:
            self.query_one("#activity-hint", Static).update(
                "Nothing seen yet. "
                + ("Changes show here as follow mode sees them." if self.following else "")
            )
        table.focus()

    def add(self, entries: Iterable[ActivityEntry], fresh: bool = False) -> None:
        """Put entries at the top (the newest first)."""
        table = self.query_one(DataTable)
        rows = [
            (
                Text(entry.at),
                cell(entry.agent, 10),
                cell(entry.activity.text, 300, style=KIND_STYLES.get(entry.activity.kind, "")),
            )
            for entry in entries
        ]
        if not fresh:
            self.entries.extend(entries)
        existing = [table.get_row_at(i) for i in range(table.row_count)]
        table.clear()
        for row in [*reversed(rows), *existing]:
            table.add_row(*row)

    def action_close(self) -> None:
        """Back to the main screen."""
        self.dismiss(None)
