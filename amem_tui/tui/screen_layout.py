"""How the main screen is laid out: the size classes for the terminal's size
(``amem_tui.tui.sizes``), and what the user chose last time (``preferences``):
how the panes and the detail view share the height, and each pane's sort order.

Each is a class on the screen or an attribute of a widget; ``app.tcss`` says what each
class looks like.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amem_tui.tui import sizes
from amem_tui.tui.preferences import LAYOUT_LABELS, LAYOUTS, PANES
from amem_tui.tui.widgets.listing_view import Order
from amem_tui.tui.widgets.note_pane import NotePane
from amem_tui.tui.widgets.panes import Panes
from amem_tui.tui.widgets.search_box import SearchBox

if TYPE_CHECKING:
    from textual.widget import Widget

    from amem_tui.tui.preferences import PreferenceStore


class ScreenLayout:
    """The layout of ``screen``, as the terminal's size and the user's ``preferences`` say."""

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

    def fit(self, width: int, height: int) -> None:
        """Set the size classes for ``width`` × ``height`` (see ``amem_tui.tui.sizes``)."""
        classes = sizes.size_classes(width, height)
        for name, on in classes.items():
            self.screen.set_class(on, name)
        self.screen.query_one(SearchBox).compact = classes[sizes.SHORT]
        panes = self.screen.query_one(Panes)
        panes.narrow = classes[sizes.NARROW]
        panes.arrange_panes()
