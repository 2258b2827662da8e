"""How the main screen is laid out as the user chose last time (``preferences``):
how the panes and the detail view share the height, and each pane's sort order.

The split is a class on the screen (``app.tcss`` says what each looks like); the size
classes are Textual's breakpoints (``amem_tui.tui.sizes``), set by the screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amem_tui.tui.preferences import LAYOUT_LABELS, LAYOUTS, PANES
from amem_tui.tui.widgets.listing_view import Order
from amem_tui.tui.widgets.note_pane import NotePane

if TYPE_CHECKING:
    from textual.widget import Widget

    from amem_tui.tui.preferences import PreferenceStore


class ScreenLayout:
    """The layout of ``screen``, as the user's ``preferences`` say."""

    def __init__(self, screen: Widget, preferences: PreferenceStore) -> None:
        self.screen, self.preferences = screen, preferences

    def restore(self) -> None:
        """The split and the sort orders chosen last time."""
        chosen = self.preferences.current
        self._show(chosen.layout)
        for which in PANES:
            order = Order.from_text(chosen.sort.get(which))
            if order is not None:
                self.screen.query_one(f"#{which}", NotePane).order = order

    def _show(self, layout: str) -> None:
        for name in LAYOUTS:
            self.screen.set_class(name == layout and name != "even", f"-layout-{name}")

    def cycle(self) -> None:
        """Give the panes or the detail view more of the height (remembered)."""
        now = self.preferences.current.layout
        layout = LAYOUTS[(LAYOUTS.index(now) + 1) % len(LAYOUTS)] if now in LAYOUTS else "panes"
        self._show(layout)
        self.preferences.update(layout=layout)
        self.screen.app.notify(f"Layout: {LAYOUT_LABELS[layout]}.", markup=False, timeout=2)
