"""The search box: live search as the current agent, and the status line under it.

Latest wins, no debounce: a change starts a search at once when none is running;
otherwise only the newest text is remembered and searched when the running one
ends. So at most one search thread runs, the final text is always searched, and a
fast typist costs at most one extra search. A result that no longer matches the
box (older text, another agent, a reload) is dropped, never shown.

A change whose text is already out of date (more keys of a burst are in the box)
starts nothing. Each search runs in a thread (``search_thread``: the hits, then the
hidden matches). The box keeps the result and whether hidden matches are shown, and
says on its status line (``SearchStatus``) what was found; the screen puts the hits
in the panes when told (``SearchBox.Results`` and the other messages below).

A query is kept in the agent's query history once its hits have stood on screen for a
moment, or on Enter (``SearchHistory``: Up and Down recall the kept ones).

An emptied box brings the listings back ``CLEAR_SETTLE`` later, unless text comes
first: Ctrl+U followed at once by a new query goes straight to the new hits, instead
of drawing the listings while the keys wait.

A query typed before the model is loaded or the keyword index read is answered from
what is there (by words, or by meaning alone), marked partial on the status line, and
searched again as soon as the rest is ready (``SearchBox.complete_partial``).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual import events, getters, on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Input

from amem_tui.tui import tuning
from amem_tui.tui.actions import bindings_of, key_for
from amem_tui.tui.early import early_status
from amem_tui.tui.messages import HiddenFound, SearchAbandoned, SearchDone, SearchFailed
from amem_tui.tui.query_syntax import parse_query
from amem_tui.tui.text import one_line
from amem_tui.tui.widgets.query_input import QueryInput
from amem_tui.tui.widgets.search_history import SearchHistory
from amem_tui.tui.widgets.search_status import SearchStatus, result_status
from amem_tui.tui.widgets.search_thread import search_in_thread
from amem_tui.tui.workers import ReportsWorkerFailures

if TYPE_CHECKING:
    from amem_tui.engine import AgentScope, MemoryEngine, SearchResult
    from amem_tui.engine.for_apps import EarlyAnswer

#: Seconds an emptied box waits before the listings come back: keys typed on at once
#: after Ctrl+U search the new text without the listings drawn in between.
CLEAR_SETTLE = 0.03


class SearchBox(SearchHistory, ReportsWorkerFailures, Vertical):
    """The query input and its status line; owns the search workers and their state."""

    DEFAULT_CSS = """
    SearchBox { height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = bindings_of("search")

    #: A short screen: a one-line input, and no line for the resting hint (the status
    #: line comes when there is a search to report). Short until the screen's size says.
    compact: reactive[bool] = reactive(True, init=False, always_update=True)

    #: The query input, and the status line under it.
    query_input = getters.child_by_id("search", Input)
    status_line = getters.child_by_id("search-status", SearchStatus)

    @dataclass
    class Results(Message):
        """The current query's hits are in: show them (and focus them if ``focus``), and
        ``status`` on the box's status line as they are shown.

        ``fresh``: the query differs from the one whose hits were shown before (its best
        hit becomes the subject); else the same query was searched again (the agent's
        panes were reloaded).
        """

        result: SearchResult
        focus: bool
        show_hidden: bool
        fresh: bool = True
        #: What the status line says of the hits (it counts them only once they show).
        status: str = ""

    @dataclass
    class Failed(Message):
        """The current query's search failed: no hits to show."""

        query: str
        focus: bool

    @dataclass
    class HiddenMatches(Message):
        """Show the hidden matches of ``result`` in the detail view, or stop showing them."""

        result: SearchResult
        shown: bool

    @dataclass
    class Typed(Message):
        """A new query is being searched: its hits will replace what the panes show."""

    @dataclass
    class Cleared(Message):
        """The query is empty again: the panes go back to their listings, and the status
        line rests in the same frame (the count never leaves before the hits)."""

    @dataclass
    class GoToResults(Message):
        """Enter with nothing new to search: the user wants the results (or the listing)."""

    def __init__(self, engine: MemoryEngine, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.engine = engine
        #: The agent searched as; set with ``set_scope`` each time its panes load.
        self.scope: AgentScope | None = None
        #: Counts the loads of an agent; a result from an earlier one is stale.
        self.generation = 0
        #: The query as typed (stripped).
        self.query_text = ""
        #: The result on screen, if the query has one.
        self.result: SearchResult | None = None
        #: The early answer on screen (the saved index's, from before the store was
        #: open) until the query's own result replaces it.
        self.early: EarlyAnswer | None = None
        #: The detail view shows the hidden matches instead of the selected note.
        self.show_hidden = False
        self._searching = False  # a search thread is running
        self._wanted = False  # the query changed while it ran: search again after
        self._shown: tuple[int, str] | None = None  # (generation, query) on screen
        self._focus_results = False  # Enter was pressed: go to the hits once they come
        self._clear_timer: Timer | None = None  # the emptied box's Cleared, if still to come
        self.init_history()

    def compose(self) -> ComposeResult:
        yield QueryInput(placeholder="Search as this agent…  ( / )", id="search")
        yield SearchStatus(id="search-status")

    def on_mount(self) -> None:
        """No blinking cursor headless (the snapshots stay the same)."""
        if self.app.is_headless:
            self.query_input.cursor_blink = False

    # ---------------------------------------------------------------- scope
    def set_scope(self, scope: AgentScope) -> None:
        """Search as ``scope`` from now on; a query in the box is searched again.

        Also reads and indexes the agent's notes in the background, so its first
        search is quick.
        """
        self.scope = scope
        self.generation += 1
        who = f"{scope.user} · {scope.agent}" if scope.user else scope.agent
        self.query_input.placeholder = f"Search as {who}…  ( / )"
        self.status_line.agent = scope.agent
        if self.query_text:
            self.start_search()
        else:
            self.status_line.show("")  # the hint names the agent
        self.warm_up(scope)

    @work(thread=True, exclusive=True, exit_on_error=False, group="warm")
    def warm_up(self, scope: AgentScope) -> None:
        """Index the agent's notes (the saved index, caught up); a search typed meanwhile
        waits for this. The app loads the model beside it, in its own worker."""
        with contextlib.suppress(Exception):  # a failing store shows in the next load
            self.engine.agent(scope).warm_up()
        tuning.settle(self.engine)
        with contextlib.suppress(RuntimeError):  # the app closed meanwhile
            self.app.call_from_thread(self.complete_partial)

    def complete_partial(self) -> None:
        """Search again for a query whose answer on screen is partial (the model or the
        keyword index has come meanwhile)."""
        if self.result is not None and self.result.partial and self.query_text:
            self.start_search()

    def show_early(self, answer: EarlyAnswer) -> None:
        """Say what the early answer on screen is, until the query's own result."""
        self.early = answer
        self.status_line.show(early_status(answer))

    # ---------------------------------------------------------------- typing
    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.status_line.box_focused = event.widget is self.query_input

    def on_descendant_blur(self) -> None:
        self.status_line.box_focused = False  # a focus that moves within comes back

    @on(Input.Changed, "#search")
    def _query_changed(self, event: Input.Changed) -> None:
        event.stop()
        if event.value != event.input.value:
            return  # more keys of a burst were typed: their own change follows
        self.query_text = event.value.strip()
        self._cancel_clear()
        self.typed_over()
        if self.early is not None and self.early.query == self.query_text:
            return  # the query typed before the screen showed: its early answer stays
        self.early = None
        if not self.query_text:
            # The running search (if any) finishes in its thread; its result no
            # longer matches the query and is dropped.
            self._wanted = False
            self.result = None
            self._clear_timer = self.set_timer(CLEAR_SETTLE, self._cleared, name="clear-settle")
            return
        self.status_line.show(f"searching for {one_line(self.query_text, 60)!r}…")
        self.post_message(self.Typed())
        self.start_search()

    def _cleared(self) -> None:
        self._clear_timer = None
        if not self.query_text:
            # The status line rests as the listings come back, in their frame (Cleared).
            self.post_message(self.Cleared())

    def _cancel_clear(self) -> None:
        if self._clear_timer is not None:
            self._clear_timer.stop()
            self._clear_timer = None

    @on(Input.Submitted, "#search")
    def _query_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if not self.query_text:
            self.post_message(self.GoToResults())
            return
        self._focus_results = True
        self.record_query()
        if (
            not self._searching
            and self.result is not None
            and self._shown == (self.generation, self.query_text)
        ):
            # The results on screen are already this query's: just go to them.
            self._focus_results = False
            self.post_message(self.GoToResults())
            return
        self.start_search()

    def clear_query(self) -> None:
        """Empty the box (the panes go back to their listings)."""
        if self.query_input.value:
            self.query_input.value = ""

    # ---------------------------------------------------------------- search
    def start_search(self) -> None:
        """Search for the current query now, or as soon as the running search ends."""
        if self.scope is None or not self.query_text:
            return
        if self._searching:
            self._wanted = True
            return
        self._searching = True
        self._wanted = False
        self.run_search(self.scope, self.query_text, self.generation)

    @work(exclusive=True, thread=True, exit_on_error=False, group="search")
    def run_search(self, scope: AgentScope, query: str, generation: int) -> None:
        """Search as the agent (see ``search_in_thread``)."""
        search_in_thread(
            self.engine,
            scope,
            query,
            generation,
            current=lambda: self._still_typed(generation, query),
            post=self.post_message,
        )

    def _is_current(self, generation: int, query: str) -> bool:
        return generation == self.generation and query == self.query_text

    def _still_typed(self, generation: int, query: str) -> bool:
        """The box holds ``query`` still, keys typed since counted: the first key of a
        burst starts a search before the rest are in, and that search stops at its
        next stage rather than when the burst's last change reaches the box."""
        return self._is_current(generation, query) and self.query_input.value.strip() == query

    def _finished(self, generation: int, query: str) -> bool:
        """Free the search slot; True when the search answers the box's query now."""
        self._searching = False
        if self._is_current(generation, query):
            self._wanted = False  # this result already answers the newest text
            return True
        if self._wanted:
            self.start_search()  # the newest text, typed while this one ran
        return False

    def on_search_done(self, message: SearchDone) -> None:
        """Keep a current result and tell the screen; a stale one is never shown."""
        message.stop()
        if not self._finished(message.generation, message.query):
            message.drawn.set()  # dropped: nothing of it to draw
            return
        fresh = self._shown is None or self._shown[1] != message.query
        self._shown = (message.generation, message.query)
        self.result = message.result
        self.early = None
        self.keep_when_settled()
        # The status line counts the hits as the panes take them: set here, it was often
        # drawn a frame before them, or long before them behind a busy browser.
        status = self._status_text(message.result)
        focus = self._take_focus()
        self.post_message(self.Results(message.result, focus, self.show_hidden, fresh, status))
        # Set once the screen has shown the hits (the panes fill on Results, just posted).
        self.call_after_refresh(self.call_after_refresh, message.drawn.set)

    def on_search_abandoned(self, message: SearchAbandoned) -> None:
        """A search typed over stopped early: search the newest text."""
        message.stop()
        if not self._finished(message.generation, message.query):
            return
        if self.query_input.value.strip() == self.query_text:
            self.start_search()  # the text came back to this query meanwhile: search it anew
        # Else keys typed since are on their way: their change starts the search.

    def on_search_failed(self, message: SearchFailed) -> None:
        """Say the current query's search failed (the error itself is notified)."""
        message.stop()
        if not self._finished(message.generation, message.query):
            return
        self._shown = None
        self.result = None
        agent = self.scope.agent if self.scope is not None else "?"
        self.status_line.show(
            f"search for {one_line(message.query, 50)!r} as {agent} failed: "
            f"{one_line(message.error, 200)} · Esc clears"
        )
        self.post_message(self.Failed(message.query, self._take_focus()))

    def on_hidden_found(self, message: HiddenFound) -> None:
        """Add the hidden matches to the result on screen (if it is still this query's)."""
        message.stop()
        result = self.result
        if message.generation != self.generation or result is None:
            return
        if result.query != parse_query(message.query).text:
            return
        result.hidden = message.hidden
        if message.notice and message.notice not in (result.notice or ""):
            result.notice = " ".join(filter(None, [result.notice, message.notice]))
        if self.status_line.counted is result:  # else said with the hits, as they show
            self._status_of(result)
        if self.show_hidden:
            self.post_message(self.HiddenMatches(result, shown=True))

    def forget_result(self) -> None:
        """Drop the result on screen (the agent is about to change)."""
        self.result = None
        self._shown = None

    def _take_focus(self) -> bool:
        focus, self._focus_results = self._focus_results, False
        return focus

    # ---------------------------------------------------------------- hidden
    def toggle_hidden(self) -> None:
        """Show or hide the close matches this agent cannot see."""
        self.show_hidden = not self.show_hidden
        if self.result is None:
            self.app.notify("Hidden matches belong to a search: type a query first.", markup=False)
            return
        self._status_of(self.result)  # the hint says what the key does now
        self.post_message(self.HiddenMatches(self.result, shown=self.show_hidden))

    # ---------------------------------------------------------------- status
    def _status_of(self, result: SearchResult) -> None:
        self.status_line.show(self._status_text(result), result)

    def _status_text(self, result: SearchResult) -> str:
        key = key_for(
            self.screen.active_bindings,
            self.app.get_key_display,
            "toggle_hidden_anywhere",
            "toggle_hidden",
        )
        typed = parse_query(self.query_text)
        return result_status(
            result,
            filters=typed.described(),
            hidden_key=key,
            show_hidden=self.show_hidden,
            limit_typed=typed.limit is not None,
        )

    def watch_compact(self, compact: bool) -> None:
        self.query_input.compact = compact
        self.status_line.compact = compact
