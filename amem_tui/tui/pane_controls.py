"""What the user does to a pane's rows rather than to a note: mark rows for a bulk
action, filter them by plain text, sort them, list the get-only notes in the Shared
pane instead of the shared scope, and clear what was set (Escape: the filter, else the
marks, else the query).

Nothing here writes or reads the store: each control changes what a pane shows (the
pane re-lists what it has loaded) and says, in a notification, only what the pane
itself cannot show. The sort chosen is remembered in the user's preferences.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amem_tui.tui.widgets.browser import NoteBrowser
from amem_tui.tui.widgets.listing_view import SORT_MEANINGS
from amem_tui.tui.widgets.search_box import SearchBox

if TYPE_CHECKING:
    from textual.widget import Widget

    from amem_tui.tui.preferences import PreferenceStore
    from amem_tui.tui.widgets.listing_view import Order
    from amem_tui.tui.widgets.note_pane import NotePane
    from amem_tui.tui.widgets.panes import Panes


class PaneControls:
    """The pane controls of the screen ``host`` (which holds the browser)."""

    def __init__(self, host: Widget, preferences: PreferenceStore) -> None:
        self.host = host
        self.preferences = preferences

    @property
    def panes(self) -> Panes:
        return self.host.query_one(NoteBrowser).panes

    def _say(self, text: str, timeout: float | None = None) -> None:
        self.host.app.notify(text, markup=False, timeout=timeout)  # None: the app's default

    def clear(self) -> None:
        """Clear the focused pane's filter, else its marks, else the query (the listings
        come back)."""
        panes = self.panes
        pane = panes.focused_pane
        if pane is not None and pane.view.filtering:
            pane.clear_filter()
            return
        if pane is not None and pane.marked:
            pane.drop_marks()
            panes.arrange_panes()  # as tabs, the strip carries the count
            return
        self.host.query_one(SearchBox).clear_query()
        panes.focus_tab(panes.working)

    # ------------------------------------------------------------ marks
    def toggle_mark(self) -> None:
        """Mark the highlighted note, or unmark it (p, u, d and r then act on the marked)."""
        panes = self.panes
        pane = panes.focused_pane
        if pane is None:
            self._say("Marks are set in a pane: Tab to one first.")
            return
        pane.toggle_mark()
        panes.arrange_panes()  # as tabs, the strip carries the count

    def mark_shown(self) -> None:
        """Mark every row the pane shows (what its filter kept), or unmark them."""
        panes = self.panes
        pane = panes.focused_pane
        if pane is not None:
            pane.mark_shown()
            panes.arrange_panes()

    # ------------------------------------------------------- filter, sort
    def filter(self) -> None:
        """Type a plain-text filter for the rows of the pane worked in."""
        panes = self.panes
        pane = panes.pane(panes.working)
        if pane.disabled_view:
            self._say("This pane has no rows to filter.")
            return
        panes.focus_tab(panes.working)
        pane.open_filter()

    def sort(self) -> None:
        """Sort the pane worked in by its next column (created, updated, owner, recalls,
        last recalled)."""
        pane = self.panes.pane(self.panes.working)
        self._sorted(pane, pane.order.following())

    def invert_sort(self) -> None:
        """Reverse the sort order of the pane worked in."""
        pane = self.panes.pane(self.panes.working)
        self._sorted(pane, pane.order.inverted())

    def _sorted(self, pane: NotePane, order: Order) -> None:
        # The column header says the order; only what it cannot say is notified.
        if pane.disabled_view:
            self._say("This pane has no rows to sort.")
            return
        pane.sort_by(order)
        self.preferences.update(sort={pane.which: order.to_text()})
        if pane.searching:
            self._say(
                f"{pane.own_title} is sorted by {SORT_MEANINGS[order.key]} ({order.label}) once "
                "the search is cleared: search hits keep the agent's ranking.",
                timeout=4,
            )

    def close_filter(self, cleared: bool) -> None:
        """Close the focused pane's filter box (Enter: the filter kept; Escape: cleared)."""
        pane = self.panes.focused_pane
        if pane is not None:
            pane.close_filter(cleared)

    # ------------------------------------------------------------ listing
    def toggle_get_only(self) -> None:
        """The Shared pane lists the notes this agent reads only by id (its readers name
        it), or the shared scope again: the two are never mixed."""
        browser = self.host.query_one(NoteBrowser)
        panes = browser.panes
        if not panes.shares:
            self._say("This agent has no shared scope: nothing is read by id apart.")
            return
        pane = panes.shared
        pane.list_kind("shared" if pane.kind == "get_only" else "get_only")
        panes.work_in("shared")
        browser.show_subject()
