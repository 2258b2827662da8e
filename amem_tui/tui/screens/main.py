"""The main screen: the header, the store banner, the browser (search box, panes and
detail view), the follow bar and the footer, and the agent loader, which draws nothing.

The screen shows what the loader read (every pane of an agent in one frame), reloads
after each write (the app says how it ended), and holds the actions whose target is the
screen: the agent, the layout, reloads, follow mode; and the keys of the app's, which
opens the store-wide screens over it (they come back to ``jump_to``). The widgets own
the rest: the browser acts on the subject, a pane on its rows, the loader reads agents
and finds where a note is shown. ``MainScreen.verdict`` says if an action may run now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import getters
from textual.binding import BindingType
from textual.reactive import reactive, var
from textual.screen import Screen
from textual.widgets import Input, TextArea

from amem_tui.tui.actions import Situation, Verdict, bindings_of, footer_entries, said_off
from amem_tui.tui.actions import verdict as verdict_of
from amem_tui.tui.preferences import LAYOUT_LABELS, LAYOUTS, PANES, PreferenceStore
from amem_tui.tui.sizes import HORIZONTAL_BREAKPOINTS, NARROW, SHORT, VERTICAL_BREAKPOINTS
from amem_tui.tui.text import one_line
from amem_tui.tui.widgets.agent_loader import AgentLoader
from amem_tui.tui.widgets.browser import NoteBrowser
from amem_tui.tui.widgets.detail import NoteDetail
from amem_tui.tui.widgets.follow_bar import FollowBar, FollowTarget
from amem_tui.tui.widgets.footer import KeyFooter
from amem_tui.tui.widgets.header import HeaderBar
from amem_tui.tui.widgets.history_pane import HistoryPane
from amem_tui.tui.widgets.listing_view import Order
from amem_tui.tui.widgets.note_pane import NotePane
from amem_tui.tui.widgets.panes import Panes
from amem_tui.tui.widgets.search_box import SearchBox
from amem_tui.tui.widgets.store_banner import StoreBanner
from amem_tui.tui.workers import ReportsWorkerFailures

if TYPE_CHECKING:
    from textual.app import ComposeResult
    from textual.binding import Binding
    from textual.events import Key

    from amem_tui.engine import AgentScope, MemoryEngine, MemoryNote
    from amem_tui.engine.for_apps import Activity, EarlyAnswer
    from amem_tui.tui.messages import (
        ActionDone,
        ActionRefused,
        BulkDone,
        FollowFailed,
        FollowUpdate,
        JumpFound,
        JumpTarget,
        ScopeLoaded,
    )


class MainScreen(ReportsWorkerFailures, Screen[None]):
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
    #: The agent acted as, once loaded; which actions may run follows it.
    scope: var[AgentScope | None] = var(None, bindings=True)
    #: Why the agent's collection cannot be written (a mem0 one), if so.
    collection_refusal: var[str | None] = var(None, bindings=True)

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
        self.mem0 = False  # the agent's collection is a mem0 one (read, never written)

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
        chosen = self.preferences.current  # the split and the sort orders of last time
        self._show_layout(chosen.layout)
        for which in PANES:
            if (order := Order.from_text(chosen.sort.get(which))) is not None:
                self.query_one(f"#{which}", NotePane).order = order
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

    def _show_layout(self, layout: str) -> None:
        for name in LAYOUTS:  # a class each (app.tcss); "even" is none
            self.set_class(name == layout and name != "even", f"-layout-{name}")

    def action_cycle_layout(self) -> None:
        """Give the panes or the detail view more of the height (remembered)."""
        now = self.preferences.current.layout
        layout = LAYOUTS[(LAYOUTS.index(now) + 1) % len(LAYOUTS)] if now in LAYOUTS else "panes"
        self._show_layout(layout)
        self.preferences.update(layout=layout)
        self.app.notify(f"Layout: {LAYOUT_LABELS[layout]}.", markup=False, timeout=2)

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

    def footer_bindings(self, width: int) -> list[tuple[Binding, bool, str]]:
        """The footer's keys for the focus and the width (see ``KeyFooter``)."""
        area = self.browser.focus_area(self.focused)
        return footer_entries(self.active_bindings, self.app.get_key_display, area, width)

    # --------------------------------------------------------------- outcome
    def on_action_refused(self, message: ActionRefused) -> None:
        """A refusal is notified (markup off: messages may quote user text)."""
        if message.store_unavailable:
            self.store_banner.problem = message.message
        text = one_line(message.message, 400)
        self.app.notify(text, title=message.title, severity="error", timeout=8, markup=False)

    def on_follow_failed(self, message: FollowFailed) -> None:
        """A poll the store did not answer raises the banner (the bar says the rest)."""
        if message.store_unavailable:
            self.store_banner.problem = message.message

    def on_search_box_results(self) -> None:
        self.store_banner.problem = None  # the store answered

    def on_action_done(self, message: ActionDone) -> None:
        """Log what changed and read every pane of the agent again (the app says it)."""
        self.store_banner.problem = None
        self._record([message.activity] if message.activity is not None else [])
        if message.run is not None:
            self.panes.history.select_next = message.run
        self.reload_scope(select=message.select)

    def on_bulk_done(self, message: BulkDone) -> None:
        """Unmark what a bulk write wrote, log it and reload (the app says it)."""
        self.store_banner.problem = None
        self.panes.pane(message.pane).drop_marks(message.done)
        self._record(message.activities)
        self.reload_scope()

    def _record(self, activities: list[Activity]) -> None:
        if activities and self.scope is not None:
            self.follow_bar.record(self.scope.agent, activities)

    # ---------------------------------------------------------------- agents
    def action_switch_agent(self) -> None:
        """Choose another agent (mem0: another user and agent) from a list."""
        if not (agents := self.loader.agents):
            self.loader.load_agents()
            self.app.notify("Agents are still loading; try again.", markup=False)
            return
        from amem_tui.tui.dialogs.agent_picker import AgentPicker

        def chosen(scope: AgentScope | None) -> None:
            if scope is not None:
                self.switch_agent(scope)

        self.app.push_screen(AgentPicker(agents, self.scope, mem0=self.mem0), chosen)

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
        """Agent loads started; one overtaken by a newer one is never shown (the loader
        drops it)."""
        return self.loader.generation

    def on_scope_loaded(self, message: ScopeLoaded) -> None:
        """Show an agent's panes, all of them in one frame."""
        data, select = message.data, message.select
        self.scope, self.mem0 = data.scope, data.mem0
        self.collection_refusal = data.collection_refusal
        self.store_banner.problem = None
        self.header_bar.show(data.scope, data.counts, mem0=data.mem0)
        self.header_bar.search_note = data.search_note
        self.follow_bar.target = FollowTarget(data.scope, self.generation, self.show_deleted)
        self.browser.show_agent(data, self.show_deleted, select)
        if data.notice:
            self.app.notify(data.notice, title="Choose a user", markup=False, timeout=12)

    def watch_show_deleted(self, shown: bool) -> None:
        state = "shown (struck through)" if shown else "hidden"
        self.app.notify(f"Soft-deleted notes are {state}.", markup=False)
        self.action_reload()

    @property
    def selected_id(self) -> str | None:
        """The subject: the note the detail shows and every note action acts on."""
        return self.browser.selected_id

    def subject(self) -> MemoryNote | None:
        """The note the note actions act on (see ``NoteBrowser``)."""
        return self.browser.subject()

    def on_follow_update(self, message: FollowUpdate) -> None:
        """Merge what another writer changed into the panes (the subject kept)."""
        if message.resync:
            self.store_banner.problem = None
        if message.stale or self.scope is None:
            return
        if message.resync:
            self.load_scope(message.agent)
            return
        self.browser.merge(message)
        self.header_bar.counts = message.counts

    # --------------------------------------------------------------- actions
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
        self.follow_bar.toggle()

    # ------------------------------------------------------------ jumps
    def jump_to(self, target: JumpTarget | None) -> None:
        """Show a note a store-wide screen chose (they return here, see ``AmemApp``):
        highlighted in the pane that lists it, as the agent shown if its panes list it,
        else as an agent whose panes do (the agent switches), else in the detail view
        (the loader finds where)."""
        if target is not None:
            self.app.notify(f"Looking for note {target.note_id}…", markup=False, timeout=2)
            self.loader.find(target, self.scope)

    def on_jump_found(self, message: JumpFound) -> None:
        self.browser.jump(message)  # the loader found where: the browser goes there

    def on_note_browser_agent_wanted(self, message: NoteBrowser.AgentWanted) -> None:
        self.load_scope(message.scope, select=message.note_id)

    def _model_noted(self, note: str | None) -> None:
        """Say in the header whether the model is ready (see ``AmemApp.model_note``)."""
        self.header_bar.model_note = note or ""
        if note is None:
            self.search_box.complete_partial()
