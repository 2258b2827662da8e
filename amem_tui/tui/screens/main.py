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
from textual.events import DescendantFocus
from textual.widgets import DataTable, Footer, ProgressBar
from textual.worker import get_current_worker

from amem_tui.engine.errors import AmemError
from amem_tui.engine.scope import agent_from_session_key
from amem_tui.tui.actions import MAIN_ACTIONS, bindings, key_for
from amem_tui.tui.messages import (
    ActionDone,
    ActionRefused,
    AgentsLoaded,
    AuditReady,
    ConsolidationFinished,
    ConsolidationProgress,
    ModelState,
    NoteLoaded,
    PaneName,
    ScopeData,
    ScopeLoaded,
)
from amem_tui.tui.screens.follow_actions import FollowActions
from amem_tui.tui.screens.one_frame import in_one_frame
from amem_tui.tui.screens.write_actions import WriteActionsScreen
from amem_tui.tui.text import one_line
from amem_tui.tui.widgets.detail import NoteDetail
from amem_tui.tui.widgets.follow_bar import FollowBar
from amem_tui.tui.widgets.header import HeaderBar
from amem_tui.tui.widgets.history_pane import HistoryPane
from amem_tui.tui.widgets.note_pane import PAGE_SIZE, NotePane
from amem_tui.tui.widgets.search_box import SearchBox
from amem_tui.tui.widgets.store_banner import StoreBanner

if TYPE_CHECKING:
    from datetime import datetime

    from amem_tui.engine.engine import MemoryEngine
    from amem_tui.engine.models import ConsolidationRun, SearchHit, SearchResult
    from amem_tui.engine.scope import AgentScope
    from amem_tui.tui.messages import NoteData

# Dialogs and the audit screen are imported where they open, not here: the first
# frame needs none of them, and the audit screen pulls in the audit and
# consolidation modules (numpy, pydantic models), which cost start-up time.

#: The longest the screen waits for its widgets before showing an agent switch.
SWITCH_HOLD_LIMIT = 1.0


class MainScreen(FollowActions, WriteActionsScreen):
    """Everything about one agent at a time."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(MAIN_ACTIONS)

    AUTO_FOCUS = "#private DataTable"

    header_bar = getters.query_one(HeaderBar)
    store_banner = getters.query_one(StoreBanner)
    search_box = getters.query_one(SearchBox)
    private_pane = getters.query_one("#private", NotePane)
    shared_pane = getters.query_one("#shared", NotePane)
    progress_bar = getters.query_one("#progress", ProgressBar)

    def __init__(self, engine: MemoryEngine, agent: str | None = None) -> None:
        super().__init__(engine)
        #: The agent to open with (None: the configured default).
        self.initial_agent = agent
        self.agents: list[AgentScope] = []
        #: Counts agent loads; a load overtaken by a newer one is never shown.
        self.generation = 0
        self.counts: dict[str, int] | None = None
        self.show_deleted = False
        self.switch_hold_limit = SWITCH_HOLD_LIMIT
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
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Start loading; the first frame never waits for the store or the model."""
        self.progress_bar.display = False
        self.header_bar.show(None, None)
        self.detail_view.show_message("Loading…")
        # Workers start once this frame is painted: a worker reading a big store
        # holds the GIL for long stretches, and the first frame must not wait for it.
        self.call_after_refresh(self._start_loading)

    def _start_loading(self) -> None:
        self.load_agents()
        self.load_scope(self.initial_agent)

    def _pane(self, which: PaneName) -> NotePane:
        return self.private_pane if which == "private" else self.shared_pane

    def _focus_last_pane(self) -> None:
        self._pane(self._last_pane).table.focus()

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
        if self.scope is not None:
            self.load_scope(self.scope.agent, select=message.select)

    # ---------------------------------------------------------------- agents
    @work(thread=True, exit_on_error=False, group="agents")
    def load_agents(self) -> None:
        """Agents from the configuration plus any agent_id found in the store."""
        self.post_message(AgentsLoaded(self.engine.agents()))

    def on_agents_loaded(self, message: AgentsLoaded) -> None:
        """Remember the agents for the switcher and the palette."""
        self.agents = message.agents
        if self.scope is not None and all(a.agent != self.scope.agent for a in self.agents):
            self.agents.append(self.scope)

    def action_switch_agent(self) -> None:
        """Choose another agent from a list."""
        if not self.agents:
            self.load_agents()
            self.app.notify("Agents are still loading; try again.", markup=False)
            return

        def chosen(agent: str | None) -> None:
            if agent:
                self.switch_agent(agent)

        from amem_tui.tui.dialogs.agent_picker import AgentPicker

        current = self.scope.agent if self.scope else None
        self.app.push_screen(AgentPicker(self.agents, current), chosen)

    def switch_agent(self, agent: str) -> None:
        """Act as ``agent``: every pane, the header and the search follow."""
        self.detail_view.forget_note()
        self.search_box.forget_result()
        self.load_scope(agent)

    def switch_to_session_key(self, session_key: str) -> None:
        """Act as the agent a session key ``agent:<id>:<rest>`` names."""
        agent = agent_from_session_key(session_key)
        if agent is None:
            self.post_message(
                ActionRefused("Rejected", f"not a session key (agent:<id>:<rest>): {session_key}")
            )
            return
        self.switch_agent(agent)

    # ----------------------------------------------------------------- scope
    def load_scope(self, agent: str | None, select: str | None = None) -> None:
        """Load every pane of an agent together, so a switch changes them all at once."""
        self.generation += 1
        self._load_scope(agent, select, self.generation)

    @work(thread=True, exclusive=True, exit_on_error=False, group="scope")
    def _load_scope(self, agent: str | None, select: str | None, generation: int) -> None:
        engine = self.engine
        scope = engine.scope(agent) if agent else engine.scope()
        inactive = self.show_deleted
        private = engine.list_notes(scope, "private", limit=PAGE_SIZE, include_inactive=inactive)
        shared = (
            engine.list_notes(scope, "shared", limit=PAGE_SIZE, include_inactive=inactive)
            if scope.has_shared_scope
            else None
        )
        history: list[ConsolidationRun] | None = None
        history_error: str | None = None
        try:
            history = engine.history(scope.agent)
        except AmemError as exc:  # the panes still show; the history pane says why
            history_error = str(exc)
        counts = {
            "private": engine.count(scope, "private"),
            "shared": engine.count(scope, "shared") if scope.has_shared_scope else 0,
            "visible": engine.count(scope, "visible"),
        }
        data = ScopeData(
            next_run=self._next_run(),
            scope=scope,
            private=private,
            shared=shared,
            history=history,
            counts=counts,
            collection_exists=engine.collection_info(scope) is not None,
            history_error=history_error,
        )
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

    def _apply_scope(self, data: ScopeData) -> None:
        scope = data.scope
        switched = self.scope is None or self.scope.agent != scope.agent
        self.scope = scope
        self.counts = data.counts
        self.header_bar.show(scope, data.counts)
        private, shared = self.private_pane, self.shared_pane
        private.keep_listing(scope, data.private.notes, data.private.total, self.show_deleted)
        private.base_title = f"Private · {scope.agent}"
        if scope.mode == "B":
            private.base_title = f"Collection · {scope.agent} (Mode B)"
        if data.shared is not None:
            shared.keep_listing(scope, data.shared.notes, data.shared.total, self.show_deleted)
        self.history_pane.show_history(scope.agent, data.history, data.history_error, data.next_run)
        # On a switch the new agent's listings replace the old agent's rows at once;
        # a query in the box is then searched again as the new agent.
        if switched or not self.search_box.query_text:
            self._show_listings()
        self.search_box.set_scope(scope)
        if scope.mode == "B":
            shared.show_disabled(
                f"{scope.agent} is a Mode B agent: it has its own collection "
                f"({scope.collection}) and no shared scope. It neither reads nor "
                "publishes shared notes."
            )
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
        self._restore_selection()

    def _show_listings(self) -> None:
        self.private_pane.show_kept_listing()
        if self.scope is not None and self.scope.has_shared_scope:
            self.shared_pane.show_kept_listing()
        self.search_box.show_status("")

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
            self.load_scope(self.scope.agent)
            self.load_agents()

    # ------------------------------------------------------------- selection
    def _restore_selection(self) -> None:
        wanted = self._pending_select or self.detail_view.note_id
        self._pending_select = None
        for pane in (self._pane(self._last_pane), self.private_pane, self.shared_pane):
            if wanted and pane.select(wanted):
                self._select_from(pane)
                return
        for pane in (self.private_pane, self.shared_pane):
            if pane.current_id:
                self._select_from(pane)
                return
        if self.scope is not None:
            self.detail_view.forget_note()
            self.detail_view.show_message(
                "No note selected. Use Tab to move between panes, arrows to move, "
                "a to add a note, F1 for help."
            )

    def _select_from(self, pane: NotePane) -> None:
        note_id = pane.current_id
        if note_id is None:
            return
        self._last_pane = pane.which
        hit: SearchHit | None = pane.hits.get(note_id)
        detail = self.detail_view
        stale = note_id != detail.note_id or detail.note_data is None
        if (stale or hit) and self.scope is not None:
            detail.load_note(self.scope, note_id, hit)

    @on(NotePane.Highlighted)
    def _note_highlighted(self, message: NotePane.Highlighted) -> None:
        # Only the pane the user works in drives the detail view; rows rebuilt in
        # the other pane (a new search, a reload) also move their cursors.
        pane = message.pane
        if message.note_id is None or pane.which != self._last_pane:
            return
        if pane.current_id == message.note_id:
            self._select_from(pane)

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        """Show what the focused pane has under its cursor."""
        widget = event.widget
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
                pane.table.focus()
                return
        if self.scope is not None:
            self.detail_view.load_note(self.scope, message.note_id, None)

    # ---------------------------------------------------------------- search
    def action_focus_search(self) -> None:
        """Put the cursor in the search box."""
        self.search_box.query_input.focus()

    def action_clear_search(self) -> None:
        """Clear the query and bring back the full lists."""
        self.search_box.clear_query()
        self.private_pane.table.focus()

    def action_toggle_hidden(self) -> None:
        """Show or hide the close matches this agent cannot see."""
        self.search_box.toggle_hidden()

    def on_search_box_cleared(self) -> None:
        """The query is gone: the listings come back."""
        self._show_listings()
        self._restore_selection()

    def on_search_box_results(self, message: SearchBox.Results) -> None:
        """Show hits in the panes they belong to, best first."""
        self.store_banner.show_problem(None)
        result = message.result
        private_hits = [h for h in result.hits if h.because in ("private", "collection")]
        shared_hits = [h for h in result.hits if h.because in ("shared", "reader")]
        self.private_pane.show_hits(private_hits, result.query)
        if self.scope is not None and self.scope.has_shared_scope:
            self.shared_pane.show_hits(shared_hits, result.query)
        if result.hits:
            best = result.hits[0]
            self._last_pane = "private" if best in private_hits else "shared"
            self._pending_select = best.note.id
        self._after_search(message.focus, result if message.show_hidden else None)

    def on_search_box_failed(self, message: SearchBox.Failed) -> None:
        """A failed search shows no hits (the failure itself is notified)."""
        self.private_pane.show_hits([], message.query)
        if self.scope is not None and self.scope.has_shared_scope:
            self.shared_pane.show_hits([], message.query)
        self._after_search(message.focus, None)

    def _after_search(self, focus: bool, hidden_of: SearchResult | None) -> None:
        if focus:
            self._focus_last_pane()
        if hidden_of is not None:
            self.detail_view.show_hidden(hidden_of)
        else:
            self.detail_view.forget_note()
            self._restore_selection()

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
            f"{undo} undoes this run; {undo_merge} (or Enter in the list on the right) "
            "undoes only the merge chosen there."
        )
        self.detail_view.show_run(run, hint)

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
