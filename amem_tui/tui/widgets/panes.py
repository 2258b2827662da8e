"""The main screen's three panes (Private, Shared, the consolidation history), and the
note the user works on.

- Side by side, the note panes share the width and the history pane is as wide as
  its rows need; while search hits are shown it steps aside on a medium terminal
  (``app.tcss``), so the hits keep their columns.
- Narrow: one pane at a time, as tabs. The pane on show lists every pane in its border
  title. Tab into the panes (from the search box; Shift+Tab from below) goes to the
  pane on show, and Tab and Shift+Tab then go round the others, in order, from that
  one: every pane is reached before the focus goes on as usual (``enter_tabs``,
  ``step_tab``).

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
from typing import TYPE_CHECKING, ClassVar, Concatenate, Literal, ParamSpec, TypeVar

from rich.text import Text
from textual import getters, on
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable, Input

from amem_tui.tui.early import pane_hits
from amem_tui.tui.messages import Watched
from amem_tui.tui.scope_loader import listing_of, no_shared_reason, private_title
from amem_tui.tui.sizes import MEDIUM
from amem_tui.tui.widgets.history_pane import HistoryPane
from amem_tui.tui.widgets.note_pane import NotePane
from amem_tui.tui.widgets.pane_filter import PaneFilter

if TYPE_CHECKING:
    from textual.events import DescendantFocus
    from textual.widget import Widget

    from amem_tui.engine import MemoryNote, SearchHit, SearchResult
    from amem_tui.engine.for_apps import EarlyAnswer
    from amem_tui.tui.messages import FollowUpdate, PaneName, ScopeData
    from amem_tui.tui.widgets.tabbed_pane import TabbedPane

TabName = Literal["private", "shared", "history"]
TAB_ORDER: tuple[TabName, ...] = ("private", "shared", "history")
TAB_HINT = "Tab: next pane"


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


class Panes(Horizontal):
    """The note panes and the history pane, side by side or as tabs; the subject."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "step_tab(1)", "Next pane", show=False),
        Binding("shift+tab", "step_tab(-1)", "Previous pane", show=False),
    ]

    @dataclass
    class SubjectChanged(Message):
        """The subject is another note (``note_id``; None: no row is highlighted), found
        by the search when ``hit`` is given."""

        note_id: str | None
        hit: SearchHit | None

    private = getters.child_by_id("private", NotePane)
    shared = getters.child_by_id("shared", NotePane)
    history = getters.child_by_id("history", HistoryPane)

    #: One pane at a time, as tabs (a narrow terminal).
    narrow: reactive[bool] = reactive(False, init=False)
    #: The pane on show while the panes are tabs.
    current_tab: reactive[TabName] = reactive[TabName]("private", init=False)
    #: The agent has a shared scope to show (Mode A, not mem0); set with each agent.
    shares: reactive[bool | None] = reactive[bool | None](None, init=False)

    def __init__(self, *children: Widget, id: str | None = None) -> None:
        super().__init__(*children, id=id)
        #: The note pane the user works in: its highlighted row is the subject.
        self.working: PaneName = "private"
        #: As tabs, the round Tab makes of the panes: from the pane the focus came in at.
        self.tab_round: tuple[TabName, ...] = TAB_ORDER

    def on_mount(self) -> None:
        # The panes are arranged again as their titles change (a strip of tabs shows
        # them all; the history's width follows its runs) and as hits come and go.
        for pane in (self.private, self.shared, self.history):
            self.watch(pane, "title_text", self.arrange_panes, init=False)
        self.watch(self.history, "subtitle_text", self.arrange_panes, init=False)
        self.watch(self.private, "searching", self.arrange_panes, init=False)
        self.watch(self.screen, "focused", self._focus_moved, init=False)

    def watch_narrow(self) -> None:
        self.arrange_panes()

    def watch_current_tab(self) -> None:
        self.arrange_panes()

    def watch_shares(self) -> None:
        self.arrange_panes()

    # ---------------------------------------------------------------- the subject
    def pane(self, which: PaneName) -> NotePane:
        """A note pane by name."""
        return self.private if which == "private" else self.shared

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
            self.post_message(self.SubjectChanged(message.note_id, message.hit))

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        """A focused note pane is the working pane; as tabs, the focused pane is shown."""
        tab = self.tab_of(event.widget)
        if tab is not None:
            self.current_tab = tab
        pane = self._note_pane_of(event.widget)
        if pane is not None:
            self.working = pane.which
            current = pane.current_id
            self.post_message(self.SubjectChanged(current, pane.hits.get(current or "")))

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
    def tab_pane(self, name: TabName) -> TabbedPane:
        """The pane behind a tab."""
        if name == "history":
            return self.history
        return self.pane(name)

    def tab_of(self, widget: Widget | None) -> TabName | None:
        """The tab whose pane holds ``widget``, if one does."""
        for name in TAB_ORDER:
            pane = self.tab_pane(name)
            if widget is pane or (widget is not None and pane in widget.ancestors):
                return name
        return None

    @placed_by_caller
    def focus_tab(self, name: TabName) -> None:
        """Show a pane (as the current tab when narrow) and put the focus in it."""
        self._focus_tab(name)

    def _focus_tab(self, name: TabName) -> None:
        self.current_tab = name
        pane = self.tab_pane(name)
        table = self.history.table if name == "history" else self.pane(name).table
        # At once, not after this message: keys typed in the same burst follow the focus.
        self.screen.set_focus(table if table.display else pane)

    def _focus_moved(self, before: Widget | None, now: Widget | None) -> None:
        """The focus came into the panes (a click, a search's hits, a key): Tab's round
        starts from the pane it came in at."""
        came_in = self.tab_of(now)
        if came_in is not None and self.tab_of(before) is None:
            self.tab_round = self._round_from(came_in)

    @staticmethod
    def _round_from(first: TabName) -> tuple[TabName, ...]:
        at = TAB_ORDER.index(first)
        return TAB_ORDER[at:] + TAB_ORDER[:at]

    def action_step_tab(self, step: int) -> None:
        """Tab: while the panes are tabs, on to the next pane of the round, then on as
        usual once every pane was reached."""
        current = self.tab_of(self.screen.focused)
        if not self.narrow or current is None:
            raise SkipAction()  # the screen's own Tab moves the focus on
        index = self.tab_round.index(current) + step
        if not 0 <= index < len(self.tab_round):
            raise SkipAction()
        self._focus_tab(self.tab_round[index])  # the user's move: the subject changes

    def enter_tabs(self, step: int) -> bool:
        """Tab from outside the panes while they are tabs: into the pane on show, the
        first of Tab's round (Shift+Tab: the last of it, the round going back). False
        when the focus goes on as usual (the panes side by side, or not next in the
        chain)."""
        focused = self.screen.focused
        chain = self.screen.focus_chain
        if not self.narrow or focused not in chain or self.tab_of(focused) is not None:
            return False
        after = chain[(chain.index(focused) + step) % len(chain)]
        if self.tab_of(after) is None:
            return False
        shown = self.current_tab
        self._focus_tab(shown)  # the user's move
        round_ = self._round_from(shown)
        self.tab_round = round_ if step > 0 else (*round_[1:], shown)
        return True

    def arrange_panes(self) -> None:
        """Show the panes as tabs or side by side, at their widths (again as titles and
        counts change: the strip of tabs shows them)."""
        narrow = self.narrow
        history = self.history
        # On the history pane, not on the panes: a class that changes restyles the
        # node's whole subtree, and this one changes with every query and every clear.
        # So only at the medium width, the one where it hides the pane (app.tcss).
        stepping_aside = self.screen.has_class(MEDIUM)
        history.set_class(stepping_aside and self.private.searching, "-searching")
        self.shared.set_class(self.shares is False, "-no-shared-scope")
        history.styles.width = "1fr" if narrow else history.natural_width()
        tabs = self._tab_strip() if narrow else None
        for name in TAB_ORDER:
            pane = self.tab_pane(name)
            pane.set_class(narrow and name != self.current_tab, "-tab-hidden")
            pane.show_as_tab(tabs, TAB_HINT if narrow else "")

    def _tab_strip(self) -> Text:
        strip = Text()
        for index, name in enumerate(TAB_ORDER):
            if index:
                strip.append(" │ ", style="dim")
            pane = self.tab_pane(name)
            if name == self.current_tab:
                strip.append(f" {pane.title_text} ", style="bold reverse")
            else:
                strip.append(pane.tab_label, style="dim")
        return strip
