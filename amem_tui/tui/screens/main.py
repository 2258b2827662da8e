"""The main screen: the header, the store banner, the browser (search box, panes and
detail view), the follow bar and the footer, and the agent loader, which draws nothing.

The screen shows what the loader read (every pane of an agent in one frame), and runs
the actions of the action table. The widgets own their work: the search box searches
and says what it found, the browser keeps the detail view on the subject (the
highlighted row of the pane the user works in), a note pane loads its next page, the
history pane consolidates and undoes, the follow bar polls and the screen merges what
it found. Helpers own a concept each, and read the screen only through a Protocol:
``NoteActions`` acts on the subject,
``Outcomes`` says how work ended and
``ScreenLayout`` lays the screen out. Whether an action
may run now is answered once, by ``MainScreen.verdict``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import getters
from textual.binding import BindingType
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Input, TextArea

from amem_tui.tui.actions import Action, Situation, Verdict, bindings_of, footer_entries, said_off
from amem_tui.tui.actions import verdict as verdict_of
from amem_tui.tui.jumping import Jumps
from amem_tui.tui.other_screens import OtherScreens
from amem_tui.tui.outcomes import Outcomes
from amem_tui.tui.preferences import PreferenceStore
from amem_tui.tui.screen_layout import ScreenLayout
from amem_tui.tui.sizes import HORIZONTAL_BREAKPOINTS, NARROW, SHORT, VERTICAL_BREAKPOINTS
from amem_tui.tui.widgets.agent_loader import AgentLoader
from amem_tui.tui.widgets.browser import NoteBrowser
from amem_tui.tui.widgets.detail import NoteDetail
from amem_tui.tui.widgets.follow_bar import FollowBar, FollowTarget
from amem_tui.tui.widgets.footer import KeyFooter
from amem_tui.tui.widgets.header import HeaderBar
from amem_tui.tui.widgets.history_pane import HistoryPane
from amem_tui.tui.widgets.note_pane import NotePane
from amem_tui.tui.widgets.panes import Panes
from amem_tui.tui.widgets.search_box import SearchBox
from amem_tui.tui.widgets.store_banner import StoreBanner

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.app import ComposeResult
    from textual.binding import Binding
    from textual.events import Key
    from textual.widget import Widget
    from textual.worker import Worker

    from amem_tui.engine import AgentScope, MemoryEngine, MemoryNote
    from amem_tui.engine.for_apps import EarlyAnswer
    from amem_tui.tui.jump import JumpTarget
    from amem_tui.tui.messages import (
        ActionDone,
        ActionRefused,
        AgentsLoaded,
        BulkDone,
        FollowFailed,
        FollowUpdate,
        JumpFound,
        ScopeData,
        ScopeLoaded,
    )


def on_other_screens(act: Callable[[OtherScreens], None]) -> Callable[[MainScreen], None]:
    """The screen's action for opening another screen over it."""

    def action(screen: MainScreen) -> None:
        act(screen.screens)

    action.__doc__ = act.__doc__
    return action


class MainScreen(Screen[None]):
    """Everything about one agent at a time."""

    BINDINGS: ClassVar[list[BindingType]] = bindings_of("screen")
    # The size classes (-narrow, -medium, -wide; -short, -tall): app.tcss follows them.
    HORIZONTAL_BREAKPOINTS = HORIZONTAL_BREAKPOINTS
    VERTICAL_BREAKPOINTS = VERTICAL_BREAKPOINTS
    AUTO_FOCUS = "#private DataTable"

    header_bar = getters.child_by_id("header", HeaderBar)
    store_banner = getters.child_by_id("store-banner", StoreBanner)
    browser = getters.child_by_id("browser", NoteBrowser)
    search_box = getters.query_one("#search-box", SearchBox)
    panes = getters.query_one("#panes", Panes)
    private_pane = getters.query_one("#private", NotePane)
    shared_pane = getters.query_one("#shared", NotePane)
    history_pane = getters.query_one("#history", HistoryPane)
    detail_view = getters.query_one("#detail", NoteDetail)
    follow_bar = getters.child_by_id("follow-bar", FollowBar)
    loader = getters.child_by_id("loader", AgentLoader)

    #: Soft-deleted notes are listed (struck through).
    show_deleted: reactive[bool] = reactive(False, init=False)

    def __init__(
        self,
        engine: MemoryEngine,
        agent: str | None = None,
        draft: tuple[str, bool] = ("", False),
        *,
        early: EarlyAnswer | None = None,
        follow: bool = False,
        preferences: PreferenceStore | None = None,
    ) -> None:
        super().__init__()
        #: The user's remembered choices: the layout and each pane's sort order.
        self.preferences = preferences or PreferenceStore(None)
        self.engine, self.initial_agent, self.follow_on_start = engine, agent, follow
        self.draft = draft  # a query typed before the screen showed; was its box focused
        #: The draft's answer from the saved index, shown until its own search answers.
        self.early = early
        self.agents: list[AgentScope] = []
        self.scope: AgentScope | None = None  # the agent acted as, once loaded
        self.mem0 = False  # the agent's collection is a mem0 one (read, never written)
        self.collection_refusal: str | None = None  # why it cannot be written, if so
        self.jumps = Jumps(self, self, engine)
        self.screens = OtherScreens(self, self, engine)
        self.outcomes = Outcomes(self, self)
        self.screen_layout = ScreenLayout(self, self.preferences)

    def compose(self) -> ComposeResult:
        yield HeaderBar(self.engine.settings.store_label, self.engine.read_only, id="header")
        yield StoreBanner("", id="store-banner", markup=False)
        yield NoteBrowser(self.engine, id="browser").data_bind(MainScreen.show_deleted)
        watched = lambda: self.panes.watched(self.selected_id)  # noqa: E731
        yield FollowBar(self.engine, watched, follow=self.follow_on_start, id="follow-bar")
        yield KeyFooter()
        yield AgentLoader(self.engine, id="loader")

    def on_mount(self) -> None:
        """Start loading; the first frame never waits for the store or the model."""
        self.screen_layout.restore()
        query, focused = self.draft
        self.search_box.query_input.value = query  # searched once the agent is loaded
        if self.early is not None and self.early.query == query.strip():
            self.browser.show_early(self.early)
        if focused:
            self.set_focus(self.search_box.query_input)
        self.watch(self.app, "model_note", self._model_noted)
        # Workers start once this frame is painted: a worker reading a big store holds
        # the GIL for long stretches, and the first frame must not wait for it.
        self.call_after_refresh(self._start_loading)

    def _start_loading(self) -> None:
        self.loader.load_agents()
        self.load_scope(self.initial_agent)

    def on_resize(self) -> None:
        # Textual sets the size classes after this handler (in Screen's own), so the
        # widgets that are drawn otherwise by them follow once it has.
        self.call_next(self._follow_size_classes)

    def _follow_size_classes(self) -> None:
        self.search_box.compact = self.has_class(SHORT)
        self.panes.narrow = self.has_class(NARROW)
        self.panes.arrange_panes()

    def action_cycle_layout(self) -> None:
        """Give the panes or the detail view more of the height (remembered)."""
        self.screen_layout.cycle()

    # ------------------------------------------------------------ may it run
    def verdict(self, action: str) -> Verdict:
        """May ``action`` run now, and if not, why: for bindings, keys, palette, footer."""
        typing = isinstance(self.focused, (Input, TextArea))
        now = Situation(self.engine.read_only, self.scope, self.collection_refusal, typing)
        return verdict_of(action, now)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.verdict(action).binding_state

    def on_key(self, event: Key) -> None:
        """A key bound to a dimmed action says why it is off instead of doing nothing."""
        active = self.active_bindings.get(event.key)
        typing = isinstance(self.focused, Input)
        # The node: the screen, or a widget of it holding an action of the table.
        ours = active is not None and active.node is not self.app
        if active is not None and ours and not active.enabled and not typing:
            event.stop()
            said_off(self, active.binding.action)

    async def attempt(self, action: Action) -> None:
        """Run ``action`` as its key would, or say why it is off (the palette's way in)."""
        if not said_off(self, action.action):
            await self.app.run_action(action.action, self._target(action))

    def _target(self, action: Action) -> Widget:
        """The widget that runs ``action`` asked for from the palette: a pane's action
        acts on the pane worked in (the get-only listing is the Shared pane's)."""
        if action.target == "pane":
            return self.panes.pane(
                "shared" if action.id == "toggle_get_only" else self.panes.working
            )
        return self.browser if action.target == "browser" else self

    def footer_bindings(self, width: int) -> list[tuple[Binding, bool, str]]:
        """The footer's keys for the focus and the width (see ``KeyFooter``)."""
        area = self.browser.focus_area(self.focused)
        return footer_entries(self.active_bindings, self.app.get_key_display, area, width)

    # --------------------------------------------------------------- outcome
    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        self.outcomes.worker_failed(event)

    def on_action_refused(self, message: ActionRefused) -> None:
        self.outcomes.refused(message)

    def on_action_done(self, message: ActionDone) -> None:
        self.outcomes.done(message)

    def on_bulk_done(self, message: BulkDone) -> None:
        self.outcomes.bulk_done(message)

    def on_follow_failed(self, message: FollowFailed) -> None:
        self.outcomes.follow_failed(message)

    def on_search_box_results(self) -> None:
        self.outcomes.store_answered()

    # ---------------------------------------------------------------- agents
    def on_agents_loaded(self, message: AgentsLoaded) -> None:
        self.agents = message.agents
        if self.scope is not None and self.scope not in self.agents:
            self.agents.append(self.scope)

    def switch_agent(self, agent: AgentScope | str) -> None:
        """Act as ``agent`` (a name, or exactly this scope): every pane follows."""
        self.browser.forget()
        self.app.clear_notifications()  # what was said was about the other agent
        self.load_scope(agent)

    def load_scope(self, agent: AgentScope | str | None, select: str | None = None) -> None:
        """Load every pane of an agent together, so a switch changes them all at once."""
        self.follow_bar.target = None  # no poll while the panes load
        self.loader.load(agent, select, self.show_deleted)

    def reload_scope(self, select: str | None = None) -> None:
        """Load the current agent again (its exact scope: user and namespace too)."""
        if self.scope is not None:
            self.load_scope(self.scope, select)

    @property
    def generation(self) -> int:
        """Agent loads started; one overtaken by a newer one is never shown."""
        return self.loader.generation

    def on_scope_loaded(self, message: ScopeLoaded) -> None:
        """Show an agent's panes, all of them in one frame."""
        if message.generation != self.generation:
            return
        self._apply_scope(message.data, message.select)
        if message.data.notice:
            self.app.notify(message.data.notice, title="Choose a user", markup=False, timeout=12)

    def _apply_scope(self, data: ScopeData, select: str | None) -> None:
        scope = data.scope
        self.scope, self.mem0, self.collection_refusal = scope, data.mem0, data.collection_refusal
        if self.agents and scope not in self.agents:
            self.agents.append(scope)
        self.store_banner.problem = None
        self.header_bar.show(scope, data.counts, mem0=data.mem0)
        self.header_bar.search_note = data.search_note
        self.follow_bar.target = FollowTarget(scope, self.generation, self.show_deleted)
        self.browser.show_agent(data, self.show_deleted, select)
        self.jumps.arrived(select)
        self.refresh_bindings()

    def watch_show_deleted(self, shown: bool) -> None:
        state = "shown (struck through)" if shown else "hidden"
        self.app.notify(f"Soft-deleted notes are {state}.", markup=False)
        self.action_reload()

    # ------------------------------------------------------------ the subject
    @property
    def selected_id(self) -> str | None:
        """The subject: the note the detail shows and every note action acts on."""
        return self.browser.selected_id

    def subject(self) -> MemoryNote | None:
        """The note the note actions act on (see ``NoteBrowser``)."""
        return self.browser.subject()

    def on_search_box_cleared(self) -> None:
        self.jumps.listings_back()

    # ---------------------------------------------------------- other writers
    def on_follow_update(self, message: FollowUpdate) -> None:
        """Merge what another writer changed into the panes (the subject kept)."""
        if message.resync:
            self.outcomes.store_answered()
        if message.stale or self.scope is None:
            return
        if message.resync:
            self.load_scope(message.agent)
            return
        self.browser.merge(message)
        self.header_bar.counts = message.counts
        if message.runs is not None:
            self.panes.history.show_runs(message.runs)

    # --------------------------------------------------------------- actions
    action_switch_agent = on_other_screens(OtherScreens.switch_agent)
    action_overview = on_other_screens(OtherScreens.overview)
    action_graph = on_other_screens(OtherScreens.graph)
    action_audit = on_other_screens(OtherScreens.audit)
    action_leaks = on_other_screens(OtherScreens.leaks)
    action_conflicts = on_other_screens(OtherScreens.conflicts)
    action_compare = on_other_screens(OtherScreens.compare)
    action_activity_log = on_other_screens(OtherScreens.activity_log)

    def on_note_pane_sorted(self, message: NotePane.Sorted) -> None:
        """Remember the order a pane was sorted in for the next start."""
        self.preferences.update(sort={message.pane.which: message.order.to_text()})

    def action_toggle_deleted(self) -> None:
        """Include or leave out soft-deleted notes in the listings."""
        self.show_deleted = not self.show_deleted

    def action_reload(self) -> None:
        """Read every pane again from the store (while following, look at once too)."""
        if self.scope is not None:
            self.reload_scope()
            self.loader.load_agents()
            self.follow_bar.check_now()

    def action_toggle_follow(self) -> None:
        """Follow the agent live (the panes keep up with other writers), or stop."""
        said = "Following: the panes keep up with changes made elsewhere."
        on_ = self.follow_bar.toggle()
        self.app.notify(said if on_ else "Stopped following.", markup=False, timeout=3)

    def jump_to(self, target: JumpTarget | None) -> None:
        """Show a note another screen chose (see ``Jumps``)."""
        self.jumps.to(target)

    def on_jump_found(self, message: JumpFound) -> None:
        self.jumps.found(message)

    def _model_noted(self, note: str | None) -> None:
        """Say in the header whether the model is ready (see ``AmemApp.model_note``)."""
        self.header_bar.model_note = note or ""
        if note is None:
            self.search_box.complete_partial()
