"""The main screen: header, search box, the three panes, the detail view, the footer.

The screen loads an agent (every pane at once, so a switch shows in one frame),
keeps the selection, and passes what one widget reports on to the others. The
widgets own the rest of their work: the search box searches, a note pane loads its
next page, the detail view loads the selected note, the history pane consolidates
and undoes. The actions that change data (and the checks of which actions may run)
are in :mod:`amem_tui.tui.screens.write_actions`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.widgets import ProgressBar
from textual.worker import get_current_worker

from amem_tui.engine import AgentScope, AmemError
from amem_tui.tui.actions import MAIN_ACTIONS, bindings, key_for
from amem_tui.tui.messages import (
    ActionDone,
    ActionRefused,
    AgentsLoaded,
    AuditReady,
    ConsolidationFinished,
    ConsolidationProgress,
    ModelState,
    ScopeData,
    ScopeLoaded,
)
from amem_tui.tui.scope_loader import (
    listing_of,
    load_scope_data,
    no_shared_reason,
    private_title,
    resolve_scope,
)
from amem_tui.tui.screens.follow_actions import FollowActions
from amem_tui.tui.screens.one_frame import in_one_frame
from amem_tui.tui.screens.selection import DETAIL_AFTER_SEARCH, SelectionScreen
from amem_tui.tui.screens.store_views import StoreViews
from amem_tui.tui.text import one_line
from amem_tui.tui.widgets.detail import NoteDetail
from amem_tui.tui.widgets.follow_bar import FollowBar
from amem_tui.tui.widgets.footer import KeyFooter
from amem_tui.tui.widgets.header import HeaderBar
from amem_tui.tui.widgets.history_pane import HistoryPane
from amem_tui.tui.widgets.note_pane import NotePane
from amem_tui.tui.widgets.search_box import SearchBox
from amem_tui.tui.widgets.store_banner import StoreBanner

if TYPE_CHECKING:
    from datetime import datetime

    from amem_tui.engine import ConsolidationRun, MemoryEngine, SearchResult

# Dialogs and the audit screen are imported where they open, not here: the first
# frame needs none of them, and the audit screen pulls in the audit and
# consolidation modules (numpy, pydantic models), which cost start-up time.

#: The longest the screen waits for its widgets before showing an agent switch.
SWITCH_HOLD_LIMIT = 1.0


class MainScreen(FollowActions, StoreViews, SelectionScreen):
    """Everything about one agent at a time."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(MAIN_ACTIONS)

    AUTO_FOCUS = "#private DataTable"

    header_bar = getters.query_one(HeaderBar)
    store_banner = getters.query_one(StoreBanner)
    progress_bar = getters.query_one("#progress", ProgressBar)

    def __init__(
        self, engine: MemoryEngine, agent: str | None = None, draft: tuple[str, bool] = ("", False)
    ) -> None:
        super().__init__(engine)
        #: The agent to open with (None: the configured default).
        self.initial_agent = agent
        #: A query typed before the screen showed, and whether its box had the focus.
        self.draft = draft
        self.agents: list[AgentScope] = []
        #: Counts agent loads; a load overtaken by a newer one is never shown.
        self.generation = 0
        self.counts: dict[str, int] | None = None
        self.switch_hold_limit = SWITCH_HOLD_LIMIT

    # ----------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        yield HeaderBar(self.engine.settings.store_label, self.read_only, id="header")
        yield StoreBanner("", id="store-banner", markup=False)
        yield SearchBox(self.engine, id="search-box")
        with Horizontal(id="panes"):
            yield NotePane(self.engine, "private", "Private", show_owner=False, id="private")
            yield NotePane(self.engine, "shared", "Shared", show_owner=True, id="shared")
            yield HistoryPane(self.engine, id="history")
        yield NoteDetail(self.engine, id="detail")
        yield ProgressBar(id="progress", show_eta=False)
        yield FollowBar(self.engine, id="follow-bar")
        yield KeyFooter()

    def on_mount(self) -> None:
        """Start loading; the first frame never waits for the store or the model."""
        self.fit_to(self.app.size.width, self.app.size.height)
        self.progress_bar.display = False
        self.header_bar.show(None, None)
        self.detail_view.show_message("Loading…")
        query, focused = self.draft
        if query:  # searched once the agent is loaded
            self.search_box.query_input.value = query
        if focused:
            self.set_focus(self.search_box.query_input)
        # Workers start once this frame is painted: a worker reading a big store
        # holds the GIL for long stretches, and the first frame must not wait for it.
        self.call_after_refresh(self._start_loading)

    def _start_loading(self) -> None:
        self.load_agents()
        self.load_scope(self.initial_agent)

    # --------------------------------------------------------------- outcome
    def on_action_refused(self, message: ActionRefused) -> None:
        """Show a refusal as a notification (markup off: messages may quote user text)."""
        if message.store_unavailable:
            self.store_banner.show_problem(message.message)
        self.app.notify(
            one_line(message.message, 400),
            title=message.title,
            severity="error",
            timeout=8,
            markup=False,
        )

    def on_action_done(self, message: ActionDone) -> None:
        """Say what changed and reload every pane of the current agent."""
        self.store_banner.show_problem(None)
        self.app.notify(one_line(message.message, 300), title="Done", markup=False)
        if message.run is not None:
            self.history_pane.select_next = message.run
        self.reload_scope(select=message.select)

    # ---------------------------------------------------------------- agents
    @work(thread=True, exit_on_error=False, group="agents")
    def load_agents(self) -> None:
        """Agents from the configuration plus any agent_id found in the store (mem0: every
        user and agent pair)."""
        self.post_message(AgentsLoaded(self.engine.agents()))

    def on_agents_loaded(self, message: AgentsLoaded) -> None:
        """Remember the agents for the switcher and the palette."""
        self.agents = message.agents
        if self.scope is not None and self.scope not in self.agents:
            self.agents.append(self.scope)

    def action_switch_agent(self) -> None:
        """Choose another agent (mem0: another user and agent) from a list."""
        if not self.agents:
            self.load_agents()
            self.app.notify("Agents are still loading; try again.", markup=False)
            return

        def chosen(scope: AgentScope | None) -> None:
            if scope is not None:
                self.switch_agent(scope)

        from amem_tui.tui.dialogs.agent_picker import AgentPicker

        self.app.push_screen(AgentPicker(self.agents, self.scope, mem0=self.mem0), chosen)

    def switch_agent(self, agent: AgentScope | str) -> None:
        """Act as ``agent`` (a name, or exactly this scope): every pane, the header and the
        search follow."""
        self.detail_view.forget_note()
        self.search_box.forget_result()
        # What was said about the agent before (a refusal, a result) is not about this one.
        self.app.clear_notifications()
        self.load_scope(agent)

    def switch_to_session_key(self, session_key: str, view: AgentScope | None = None) -> None:
        """Act as the agent a session key names (``view``: one of the views it reads)."""
        if view is not None:
            self.switch_agent(view)
            return
        try:
            views = self.engine.session_views(session_key, self.scope)
        except AmemError as exc:
            self.post_message(ActionRefused("Rejected", str(exc)))
            return
        self.switch_agent(views[0])

    # ----------------------------------------------------------------- scope
    def load_scope(self, agent: AgentScope | str | None, select: str | None = None) -> None:
        """Load every pane of an agent together, so a switch changes them all at once."""
        self.generation += 1
        self._load_scope(agent, select, self.generation)

    def reload_scope(self, select: str | None = None) -> None:
        """Load the current agent again (its exact scope: user and namespace too)."""
        if self.scope is not None:
            self.load_scope(self.scope, select)

    @work(thread=True, exclusive=True, exit_on_error=False, group="scope")
    def _load_scope(
        self, agent: AgentScope | str | None, select: str | None, generation: int
    ) -> None:
        scope, notice = resolve_scope(self.engine, agent)
        data = load_scope_data(self.engine, scope, self.show_deleted, self._next_run(), notice)
        if not get_current_worker().is_cancelled:
            self.post_message(ScopeLoaded(generation, data, select))

    def _next_run(self) -> datetime | None:
        """When the nightly consolidation runs next (the scheduler is only asked, never started)."""
        try:
            return self.engine.scheduler.next_run_time()
        except AmemError:  # a bad configured time: an optional line must never break a load
            return None

    def on_scope_loaded(self, message: ScopeLoaded) -> None:
        """Show an agent's panes (all of them in one go)."""
        if message.generation != self.generation:
            return
        self._pending_select = message.select

        def change() -> None:
            self.store_banner.show_problem(None)
            self._apply_scope(message.data)

        in_one_frame(self, change, self.switch_hold_limit)
        if message.data.notice:
            self.app.notify(message.data.notice, title="Choose a user", markup=False, timeout=12)

    def _apply_scope(self, data: ScopeData) -> None:
        scope = data.scope
        switched = self.scope != scope
        self.scope = scope
        self.mem0 = data.mem0
        self.collection_refusal = data.collection_refusal
        self.counts = data.counts
        if self.agents and scope not in self.agents:
            self.agents.append(scope)
        self.header_bar.show(scope, data.counts, mem0=data.mem0)
        private, shared = self.private_pane, self.shared_pane
        private.keep_listing(
            scope,
            data.private.notes,
            data.private.total,
            self.show_deleted,
            data.deleted.get("private", 0),
            kind=listing_of(scope, data.mem0),
        )
        private.base_title = private_title(scope, data.mem0)
        if data.shared is not None:
            shared.keep_listing(
                scope,
                data.shared.notes,
                data.shared.total,
                self.show_deleted,
                data.deleted.get("shared", 0),
            )
        self.history_pane.show_history(scope.agent, data.history, data.history_error, data.next_run)
        # On a switch the new agent's listings replace the old agent's rows at once;
        # a query in the box is then searched again as the new agent.
        if switched or not self.search_box.query_text:
            self._show_listings()
        self.search_box.set_scope(scope)
        if data.shared is None:
            shared.show_disabled(no_shared_reason(scope, data.mem0))
            if self._last_pane == "shared":
                self._work_in("private")
        self.arrange_panes()
        self.refresh_bindings()
        detail = self.detail_view
        if not data.collection_exists:
            detail.show_message(
                f"The collection {scope.collection} does not exist yet: "
                f"{scope.agent} has written nothing. Press a to add a note."
            )
        if switched:
            detail.forget_note()
            if data.collection_exists:
                detail.show_message("Loading…")
        detail.note_data = None  # the note may have changed: load it again
        history = self.history_pane
        if self.tab_of(self.focused) == "history" and history.current_run is not None:
            # The user works in the history: it keeps the detail (a run just applied or undone).
            if not history.table.has_focus:
                history.table.focus()  # the pane held the focus while it had no runs
            self._show_run(history.current_run)
            return
        self._restore_selection()

    def _show_listings(self) -> None:
        self.private_pane.show_kept_listing()
        if self.shares:
            self.shared_pane.show_kept_listing()
        self.search_box.show_status("")
        self.arrange_panes()

    def action_toggle_deleted(self) -> None:
        """Include or leave out soft-deleted notes in the listings."""
        self.show_deleted = not self.show_deleted
        self.app.notify(
            "Soft-deleted notes are shown (struck through)."
            if self.show_deleted
            else "Soft-deleted notes are hidden.",
            markup=False,
        )
        self.action_reload()

    def action_reload(self) -> None:
        """Reload every pane."""
        if self.scope is not None:
            self.reload_scope()
            self.load_agents()

    # ---------------------------------------------------------------- search
    def action_focus_search(self) -> None:
        """Put the cursor in the search box."""
        # At once, not after this message: keys typed in the same burst go to the box.
        self.set_focus(self.search_box.query_input)

    def action_clear_search(self) -> None:
        """Clear the query and bring back the full lists."""
        self.search_box.clear_query()
        self._focus_last_pane()

    def action_toggle_hidden(self) -> None:
        """Show or hide the close matches this agent cannot see."""
        self.search_box.toggle_hidden()

    def on_search_box_typed(self) -> None:
        """A query is being typed: a note waiting to load into the detail view would be
        replaced by the hits' at once, so it is not loaded (nor drawn) meanwhile."""
        self.detail_view.drop_waiting_load()

    def on_search_box_cleared(self) -> None:
        """The query is gone: the listings come back."""
        self._show_listings()
        self._restore_selection(DETAIL_AFTER_SEARCH)

    def on_search_box_results(self, message: SearchBox.Results) -> None:
        """Show hits in the panes they belong to, best first."""
        result = message.result
        private_hits = [h for h in result.hits if h.because in ("private", "collection")]
        shared_hits = [h for h in result.hits if h.because in ("shared", "reader")]
        with self.app.batch_update():  # the hits, titles and status line in one frame
            self.store_banner.show_problem(None)
            self.search_box.report(result)
            self.private_pane.show_hits(private_hits, result.query)
            if self.shares:
                self.shared_pane.show_hits(shared_hits, result.query)
            if result.hits:
                best = result.hits[0]
                self._work_in("private" if best in private_hits else "shared")
                self._pending_select = best.note.id
            self.arrange_panes()
            self._after_search(message.focus, result if message.show_hidden else None)

    def on_search_box_failed(self, message: SearchBox.Failed) -> None:
        """A failed search shows no hits (the failure itself is notified)."""
        self.private_pane.show_hits([], message.query)
        if self.shares:
            self.shared_pane.show_hits([], message.query)
        self.arrange_panes()
        self._after_search(message.focus, None)

    def _after_search(self, focus: bool, hidden_of: SearchResult | None) -> None:
        if focus:
            self._focus_last_pane()
        if hidden_of is not None:
            self.detail_view.show_hidden(hidden_of)
        else:
            self.detail_view.forget_note()
            self._restore_selection(DETAIL_AFTER_SEARCH)

    def on_search_box_hidden_matches(self, message: SearchBox.HiddenMatches) -> None:
        """Show the hidden matches in the detail view, or the selected note again."""
        if message.shown:
            self.detail_view.show_hidden(message.result)
        else:
            self.detail_view.forget_note()
            self._restore_selection()

    def on_search_box_go_to_results(self) -> None:
        """Enter in the search box: to the results (or the listing)."""
        self._focus_last_pane()

    # --------------------------------------------------------- consolidation
    def on_consolidation_progress(self, message: ConsolidationProgress) -> None:
        """Move the progress bar."""
        bar = self.progress_bar
        bar.update(total=max(message.total, 1), progress=message.done)
        bar.display = True

    def on_consolidation_finished(self, message: ConsolidationFinished) -> None:
        """Hide the progress bar."""
        self.progress_bar.display = False

    @on(HistoryPane.Highlighted)
    def _run_highlighted(self, message: HistoryPane.Highlighted) -> None:
        if message.run is not None and self.history_pane.table.has_focus:
            self._show_run(message.run)

    def _show_run(self, run: ConsolidationRun) -> None:
        undo, undo_merge = (
            key_for(self.active_bindings, self.app.get_key_display, binding_id)
            for binding_id in ("undo", "undo_merge")
        )
        hint = (
            f"{undo} undoes this run; {undo_merge} (or Enter in the list of merges) "
            "undoes only the merge chosen there."
        )
        self.detail_view.show_run(run, hint)
        self.refresh_bindings()  # the footer offers the undo keys

    # ------------------------------------------------------------ audit, model
    def action_audit(self) -> None:
        """Open the audit report of the whole store (built in a worker)."""
        self.app.notify("Building the audit report…", markup=False, timeout=3)
        self.load_audit()

    @work(thread=True, exclusive=True, exit_on_error=False, group="audit")
    def load_audit(self) -> None:
        """Run engine.audit() off the UI thread."""
        self.post_message(AuditReady(self.engine.audit()))

    def on_audit_ready(self, message: AuditReady) -> None:
        """Show the finished report."""
        from amem_tui.tui.screens.audit import AuditScreen

        self.app.push_screen(AuditScreen(message.report))

    def on_model_state(self, message: ModelState) -> None:
        """Say in the header whether the model is ready."""
        header = self.header_bar
        header.model_note = "" if message.ready else message.detail
        header.show(self.scope, self.counts)
        if message.ready:
            self.search_box.complete_partial()
