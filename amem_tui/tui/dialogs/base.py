"""What every dialog shares: it fits the terminal, and no notification covers it."""

from __future__ import annotations

from typing import TypeVar

from textual.containers import VerticalScroll
from textual.screen import ModalScreen

from amem_tui.tui.sizes import SHORT_HEIGHT

ResultType = TypeVar("ResultType")


class Dialog(ModalScreen[ResultType]):
    """A modal dialog: its buttons are one row on a short terminal, and the
    notifications on screen when it opens are cleared (a toast drawn over its
    buttons would hide them; every notification stays in the app's notice log)."""

    @property
    def compact(self) -> bool:
        """True on a short terminal: buttons without borders, one row each."""
        return self.app.size.height < SHORT_HEIGHT

    def on_mount(self) -> None:
        """Clear the notifications (a subclass's own ``on_mount`` runs as well)."""
        self.app.clear_notifications()


class DialogBody(VerticalScroll):
    """A dialog's text: a focus stop only when it has more than it shows (then the keys
    scroll it, and its shade says it has the focus); else Tab goes button to button."""

    DEFAULT_CSS = """
    DialogBody:focus { background: $boost; }
    """

    def allow_focus(self) -> bool:
        """Focusable only while there is something to scroll to."""
        return self.max_scroll_y > 0 or self.max_scroll_x > 0
