"""The main screen's panes: what they show (an agent's listings or a search's hits, as
it loads them), and the note the user works on. Their layout, side by side or as tabs,
is ``PaneTabs`` (widgets/pane_tabs.py).

**The subject** is the note the detail view shows and every note action acts on: the
highlighted row of the note pane the user works in (``Panes.working``). That pane
is the focused one; with the focus elsewhere (the search box, the detail), it is the
note pane focused last. Only the working pane can change the subject: a cursor moved
in the other one (rows rebuilt by a search or a reload) changes nothing. When the
user changes the subject (a key, a click, the focus), ``Panes.SubjectChanged``
goes up. What the browser changes here (rows shown, a note selected, a merge) says
nothing back: the browser shows the subject itself (attributes down, messages up).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import update_wrapper
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

from textual import on
from textual.message import Message
from textual.widgets import DataTable, Input

from amem_tui.tui.early import pane_hits
from amem_tui.tui.messages import Watched
from amem_tui.tui.scope_loader import listing_of, no_shared_reason, private_title
from amem_tui.tui.widgets.note_pane import NotePane
from amem_tui.tui.widgets.pane_filter import PaneFilter
from amem_tui.tui.widgets.pane_tabs import PaneTabs, TabName

if TYPE_CHECKING:
    from textual.events import DescendantFocus
    from textual.widget import Widget

    from amem_tui.engine import MemoryNote, SearchHit, SearchResult
    from amem_tui.engine.for_apps import EarlyAnswer
    from amem_tui.tui.messages import FollowUpdate, PaneName, ScopeData

_P = ParamSpec("_P")
_R = TypeVar("_R")


def placed_by_caller(
    method: Callable[Concatenate[Panes, _P], _R],
) -> Callable[Concatenate[Panes, _P], _R]:
    """Rows and cursors that ``method`` moves are its caller's doing: the cursors say
    nothing back (the caller knows the subject it made, and shows it)."""

    def placing(self: Panes, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with self.prevent(DataTable.RowHighlighted, Panes.SubjectChanged):
            return method(self, *args, **kwargs)

    update_wrapper(placing, method)
    return placing


class Panes(PaneTabs):
    """The note panes and the history pane: what they show, and the subject."""

    @dataclass
    class SubjectChanged(Message):
        """The subject is another note (``note_id``; None: no row is highlighted), found
        by the search when ``hit`` is given."""

        note_id: str | None
        hit: SearchHit | None
        #: ``Panes.reloads`` when it was sent: one sent before a reload is stale.
        reloads: int

    def __init__(self, *children: Widget, id: str | None = None) -> None:
        super().__init__(*children, id=id)
        #: The note pane the user works in: its highlighted row is the subject.
        self.working: PaneName = "private"
        #: How many times the rows were replaced from the store (``show_scope``, ``merge``);
        #: whoever replaces them shows the subject after, so a ``SubjectChanged`` sent
        #: before (the cursor on a row a write then took away) is stale when it comes.
        self.reloads = 0

    # ---------------------------------------------------------------- the subject
    @property
    def subject_id(self) -> str | None:
        """The id of the highlighted row of the working pane."""
        return self.pane(self.working).current_id

    @property
    def subject_hit(self) -> SearchHit | None:
        """The search hit behind the subject, when hits are shown."""
        subject = self.subject_id
        return self.pane(self.working).hits.get(subject) if subject else None

    def subject_note(self) -> MemoryNote | None:
        """The subject as its pane lists it (a hit's note while hits are shown)."""
        pane, subject = self.pane(self.working), self.subject_id
        if subject is None:
            return None
        hit = pane.hits.get(subject)
        if hit is not None:
            return hit.note
        return next((note for note in pane.listing if note.id == subject), None)

    def work_in(self, which: PaneName) -> None:
        """Make ``which`` the working pane. The focus goes with it when a note pane held
        it: the focused note pane is always the working one."""
        self.working = which
        if self._note_pane_of(self.screen.focused) is not None:
            self.focus_tab(which)
        elif self.current_tab != "history":
            self.current_tab = which

    @placed_by_caller
    def select(self, note_id: str) -> bool:
        """Highlight ``note_id``: in the working pane if it is there, else in the other
        (which becomes the working pane). False when no pane has its row."""
        for which in (self.working, "shared" if self.working == "private" else "private"):
            if self.pane(which).select(note_id):
                self.work_in(which)
                return True
        return False

    def on_note_pane_highlighted(self, message: NotePane.Highlighted) -> None:
        """A cursor moved: the subject changes when it moved in the working pane."""
        message.stop()
        if message.pane.which == self.working:
            self.post_message(self.SubjectChanged(message.note_id, message.hit, self.reloads))

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        """A focused note pane is the working pane; as tabs, the focused pane is shown."""
        tab = self.tab_of(event.widget)
        if tab is not None:
            self.current_tab = tab
        pane = self._note_pane_of(event.widget)
        if pane is not None:
            self.working = pane.which
            current = pane.current_id
            hit = pane.hits.get(current or "")
            self.post_message(self.SubjectChanged(current, hit, self.reloads))

    # A filter box's Enter, Down and Escape come up here: the rows take the focus from
    # above the pane, so nothing in the pane is asked about the focus it just gave.
    @on(Input.Submitted, "PaneFilter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._close_filter(cleared=False)

    def on_pane_filter_closed(self, message: PaneFilter.Closed) -> None:
        """Escape (the filter cleared) or Down in a filter box: back to the pane's rows."""
        message.stop()
        self._close_filter(message.cleared)

    def _close_filter(self, cleared: bool) -> None:
        pane = self.focused_pane
        if pane is not None:
            pane.close_filter(cleared)

    @property
    def focused_pane(self) -> NotePane | None:
        """The note pane that holds the focus (its rows or its filter box), if one does."""
        return self._note_pane_of(self.screen.focused)

    def _note_pane_of(self, widget: Widget | None) -> NotePane | None:
        for pane in (self.private, self.shared):
            if widget is pane or (widget is not None and pane in widget.ancestors):
                return pane
        return None

    # ---------------------------------------------------------------- contents
    @placed_by_caller
    def show_scope(self, data: ScopeData, include_inactive: bool, listings: bool) -> None:
        """An agent's listings and history as loaded; ``listings``: show the listings now
        (else the hits stay until the query in the box is searched as this agent)."""
        self.reloads += 1
        scope, deleted, private = data.scope, data.deleted, data.private
        kind = listing_of(scope, data.mem0)
        self.private.keep_listing(
            scope, private.notes, private.total, include_inactive, deleted.get("private", 0), kind
        )
        self.private.label = private_title(scope, data.mem0)
        if data.shared is not None:
            shared = data.shared
            self.shared.keep_listing(
                scope, shared.notes, shared.total, include_inactive, deleted.get("shared", 0)
            )
        self.history.show_history(scope.agent, data.history, data.history_error)
        self.shares = data.shares
        if listings:
            self.show_listings()
        if not data.shares:
            self.shared.show_disabled(no_shared_reason(scope, data.mem0))
            if self.working == "shared":
                self.work_in("private")

    @placed_by_caller
    def show_listings(self) -> None:
        """The agent's listings, as kept (a search was cleared, or another agent shown)."""
        self.private.show_kept_listing()
        if self.shares:
            self.shared.show_kept_listing()

    @placed_by_caller
    def show_hits(self, result: SearchResult) -> PaneName | None:
        """Each hit in the pane it belongs to, best first; the best hit's pane is returned."""
        private = [h for h in result.hits if h.because in ("private", "collection")]
        shared = [h for h in result.hits if h.because == "shared"]
        self.private.show_hits(private, result.query)
        if self.shares:
            self.shared.show_hits(shared, result.query)
        if not result.hits:
            return None
        return "private" if result.hits[0] in private else "shared"

    def show_early(self, answer: EarlyAnswer) -> None:
        """An early answer's hits (the saved index's, while the store opens), as text."""
        self.private.show_early(pane_hits(answer, shared=False))
        self.shared.show_early(pane_hits(answer, shared=True))

    def forget_early(self) -> None:
        """Another query is typed: the early answer's hits go (the agent still loads)."""
        for pane in (self.private, self.shared):
            pane.forget_early()

    @placed_by_caller
    def show_no_hits(self, query: str) -> None:
        """No hits at all (the search failed)."""
        self.private.show_hits([], query)
        if self.shares:
            self.shared.show_hits([], query)

    def toggle_get_only(self) -> None:
        """The Shared pane lists what the agent reads only by id, or its shared scope
        again, and is worked in (on show, as a tab); said why not without a shared scope."""
        if self.shared.toggle_get_only():
            self._focus_tab("shared")  # the user's move: the subject follows

    # ---------------------------------------------------------------- following
    def watched(self, subject: str | None) -> Watched:
        """What the note panes show, for follow mode's next poll."""
        panes = [self.private, self.shared] if self.shares else [self.private]
        shown = {pane.which: pane.shown_notes() for pane in panes}
        # The subject, and the rows on screen (and a screen around them): a row scrolled
        # into view is looked at by the next poll.
        watch = [subject] if subject else []
        for pane in panes:
            watch.extend(i for i in pane.ids_in_view() if i in shown[pane.which] and i not in watch)
        return Watched(shown, watch, list(self.history.runs.values()))

    @placed_by_caller
    def merge(self, update: FollowUpdate) -> bool:
        """Merge what follow mode found into the note panes (each cursor kept on its
        note); True when the subject itself changed."""
        self.reloads += 1
        touched: set[str] = set()
        for which, change in update.panes.items():
            pane = self.pane(which)
            total = update.totals.get(which, pane.listing_total)
            if not change and total == pane.listing_total:
                continue
            pane.merge_notes(change.changed, change.removed, total, change.marks)
            touched |= {note.id for note in change.changed} | set(change.removed)
        return self.subject_id in touched

    # ---------------------------------------------------------------- tabs
    @placed_by_caller
    def focus_tab(self, name: TabName) -> None:
        """Show a pane (as the current tab when narrow) and put the focus in it."""
        self._focus_tab(name)
