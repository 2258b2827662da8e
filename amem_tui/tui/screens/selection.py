"""Which note is selected: the pane the user works in, its cursor, and the detail view.

Only the pane the user works in drives the detail view. After a reload the selected
note is looked up again; when it is gone (deleted, merged away) the row it was on
keeps the cursor, so the next note is selected rather than the top of a pane.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.events import DescendantFocus
from textual.widgets import DataTable

from amem_tui.tui.screens.layout import AdaptiveLayout
from amem_tui.tui.widgets.detail import NoteDetail
from amem_tui.tui.widgets.history_pane import HistoryPane
from amem_tui.tui.widgets.note_pane import NotePane

if TYPE_CHECKING:
    from amem_tui.engine import ConsolidationRun, MemoryEngine, SearchHit, SearchResult
    from amem_tui.tui.messages import NoteData, NoteLoaded, PaneName

#: Seconds the detail view waits after a search or a cleared search before it loads the
#: selected note: the hits (or the listing) come first, and keys typed meanwhile are
#: not slowed by drawing a note that a newer search would replace at once.
DETAIL_AFTER_SEARCH = 0.12


class SelectionScreen(AdaptiveLayout):
    """The main screen's selection: which pane, which note, what the detail view shows."""

    def __init__(self, engine: MemoryEngine) -> None:
        super().__init__(engine)
        self._pending_select: str | None = None
        self._last_pane: PaneName = "private"

    # ------------------------------------------------------- what tests read
    @property
    def search_result(self) -> SearchResult | None:
        """The search result on screen, if a query has one."""
        return self.search_box.result

    @property
    def selected_id(self) -> str | None:
        """The id of the selected note (the one the detail view shows or loads)."""
        return self.detail_view.note_id

    @property
    def note_data(self) -> NoteData | None:
        """The selected note as loaded, once it is."""
        return self.detail_view.note_data

    def _pane(self, which: PaneName) -> NotePane:
        return self.private_pane if which == "private" else self.shared_pane

    def _focus_last_pane(self) -> None:
        self.focus_tab(self._last_pane)

    def _work_in(self, which: PaneName) -> None:
        """The user works in this pane now (while the panes are tabs: it is the one shown)."""
        self._last_pane = which
        self.show_tab(which)

    # ------------------------------------------------------------- selection
    def _restore_selection(self, after: float = 0.0) -> None:
        """Select the note wanted (or the one selected before) again; its detail loads
        ``after`` seconds later (see :data:`DETAIL_AFTER_SEARCH`)."""
        wanted = self._pending_select or self.detail_view.note_id
        self._pending_select = None
        for pane in (self._pane(self._last_pane), self.private_pane, self.shared_pane):
            if wanted and pane.select(wanted):
                self._select_from(pane, after)
                return
        # The note is gone (deleted, merged): the row it was on in the pane the user
        # works in, which now holds the next note, rather than the top of another pane.
        for pane in (self._pane(self._last_pane), self.private_pane, self.shared_pane):
            if pane.current_id:
                self._select_from(pane, after)
                return
        if self.scope is not None:
            self.detail_view.forget_note()
            self.detail_view.show_message(
                "No note selected. Use Tab to move between panes, arrows to move, "
                "a to add a note, F1 for help."
            )

    def _select_from(self, pane: NotePane, after: float = 0.0) -> None:
        note_id = pane.current_id
        if note_id is None:
            return
        self._last_pane = pane.which
        if self.current_tab != "history":
            self.show_tab(pane.which)
        hit: SearchHit | None = pane.hits.get(note_id)
        detail = self.detail_view
        stale = note_id != detail.note_id or detail.note_data is None
        if (stale or hit) and self.scope is not None:
            detail.load_note(self.scope, note_id, hit, after)

    @on(NotePane.Highlighted)
    def _note_highlighted(self, message: NotePane.Highlighted) -> None:
        # Only the pane the user works in drives the detail view; rows rebuilt in
        # the other pane (a new search, a reload) also move their cursors.
        pane = message.pane
        if message.note_id is None or pane.which != self._last_pane:
            return
        if self.tab_of(self.focused) == "history":  # the detail shows the user's run
            return
        if pane.current_id == message.note_id:
            self._select_from(pane)

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        """Show what the focused pane has under its cursor (and, as tabs, that pane)."""
        widget = event.widget
        tab = self.tab_of(widget)
        if tab is not None:
            self.show_tab(tab)
        if not isinstance(widget, DataTable):
            return
        parent = widget.parent
        if isinstance(parent, NotePane):
            self._last_pane = parent.which
            if parent.current_id:
                self._select_from(parent)
        elif isinstance(parent, HistoryPane) and parent.current_run is not None:
            self._show_run(parent.current_run)

    def on_note_loaded(self, message: NoteLoaded) -> None:
        """Show the selected note, unless the detail view shows hidden matches."""
        if self.scope is None or self.search_box.showing_hidden:
            return
        self.detail_view.show_note(message.data, self.scope.agent)

    @on(NoteDetail.FollowLink)
    def _follow(self, message: NoteDetail.FollowLink) -> None:
        for pane in (self.private_pane, self.shared_pane):
            if pane.select(message.note_id):
                self.focus_tab(pane.which)
                return
        if self.scope is not None:
            self.detail_view.load_note(self.scope, message.note_id, None)

    def _show_run(self, run: ConsolidationRun) -> None:
        """Show a consolidation run in the detail view (the main screen adds its key hints)."""
        self.detail_view.show_run(run)
