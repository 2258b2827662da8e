"""The activity log: what follow mode saw happen and what the app itself wrote, oldest
first and the newest at the bottom, growing while it is open; long lines wrap, so it
reads at any width."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import RichLog, Static

from amem_tui.tui.text import clean

if TYPE_CHECKING:
    from amem_tui.tui.messages import ActivityEntry

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


def entry_line(entry: ActivityEntry) -> Text:
    """One log line: the time, what happened, and as which agent it was seen."""
    line = Text()
    line.append(entry.at, style="dim")
    line.append("  ")
    line.append(clean(entry.activity.text), style=KIND_STYLES.get(entry.activity.kind, ""))
    line.append(f"  (seen as {clean(entry.agent)})", style="dim")
    return line


class ActivityScreen(ModalScreen[None]):
    """Every change follow mode has seen in this session; Escape (or l) closes it."""

    DEFAULT_CSS = """
    ActivityScreen { align: center middle; }
    ActivityScreen > Vertical {
        width: 90%; height: 80%; border: round $accent; background: $surface; padding: 0 1;
    }
    ActivityScreen #activity-hint { color: $text-muted; height: auto; }
    ActivityScreen RichLog { height: 1fr; background: $surface; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("l", "close", "Close", show=False),
    ]

    def __init__(self, entries: Iterable[ActivityEntry], following: bool) -> None:
        super().__init__()
        #: The entries shown, oldest first.
        self.entries = list(entries)
        self.following = following

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Activity"
            if not self.following:
                hint = (
                    "Follow mode is off (f turns it on): only what you do here is logged, "
                    "nothing written elsewhere."
                )
            elif self.entries:
                hint = "What follow mode saw change; the newest at the bottom, as it comes."
            else:
                hint = "Nothing yet: changes show here as follow mode sees them, and yours."
            yield Static(hint, id="activity-hint", markup=False)
            # A narrow minimum: the default (78) would crop lines in an 80-column terminal.
            yield RichLog(wrap=True, markup=False, highlight=False, min_width=20)

    def on_mount(self) -> None:
        """Write what was seen so far."""
        log = self.query_one(RichLog)
        for entry in self.entries:
            log.write(entry_line(entry))
        log.focus()

    def add(self, entries: Iterable[ActivityEntry]) -> None:
        """Write more entries at the bottom."""
        log = self.query_one(RichLog)
        for entry in entries:
            self.entries.append(entry)
            log.write(entry_line(entry))

    def action_close(self) -> None:
        """Back to the main screen."""
        self.dismiss(None)
