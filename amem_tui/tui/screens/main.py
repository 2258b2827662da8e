"""The main screen: header, search box, the three panes, the detail view, the footer.

This screen owns every worker: workers call the engine in threads and post
messages back; the widgets only display what they are given.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.events import DescendantFocus, Key
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, ProgressBar, Static
from textual.worker import get_current_worker

from amem_tui.engine.errors import (
    AmemError,
    InvalidInput,
    ModelUnavailable,
    NotFound,
    PermissionDenied,
    ReadOnlyStore,
    StoreUnavailable,
)
from amem_tui.engine.models import MemoryNote, SearchHit, SearchResult
from amem_tui.engine.scope import AgentScope, agent_from_session_key, can_write
from amem_tui.tui.messages import (
    ActionDone,
    ActionRefused,
    AgentsLoaded,
    AuditReady,
    ConsolidationProgress,
    HiddenFound,
    ModelState,
    NoteData,
    NoteLoaded,
    PageLoaded,
    PreviewReady,
    ScopeData,
    ScopeLoaded,
    SearchDone,
)
from amem_tui.tui.text import one_line
from amem_tui.tui.widgets.detail import NoteDetail
from amem_tui.tui.widgets.header import HeaderBar
from amem_tui.tui.widgets.history_pane import HistoryPane
from amem_tui.tui.widgets.note_pane import NotePane

if TYPE_CHECKING:
    from amem_tui.tui.dialogs.note_editor import NoteDraft

# Dialogs and the audit screen are imported where they open, not here: the first
# frame needs none of them, and the audit screen pulls in the audit and
# consolidation modules (numpy, pydantic models), which cost start-up time.

PAGE_SIZE = 200
#: The longest the screen waits for its widgets before showing an agent switch.
SWITCH_HOLD_LIMIT = 1.0
SEARCH_LIMIT = 40
WRITE_ACTIONS = frozenset(
    {
        "add",
        "edit",
        "publish",
        "unpublish",
        "delete",
        "restore",
        "consolidate",
        "undo",
        "undo_merge",
    }
)
CONSOLIDATION_MISSING = "Consolidation is not available in this version of the engine."


def newest_first(notes: Iterable[MemoryNote]) -> list[MemoryNote]:
    """Notes by creation time, newest first; notes without a readable time go last.

    The engine lists in store order and has no order option, so each loaded page is
    sorted here: pages after the first are sorted among themselves, not globally.
    """

    def when(note: MemoryNote) -> tuple[bool, float]:
        created = note.created_at()
        return (created is not None, created.timestamp() if created is not None else 0.0)

    return sorted(notes, key=when, reverse=True)


def refusal_title(exc: BaseException) -> str:
    """A short title naming the kind of refusal."""
    if isinstance(exc, PermissionDenied):
        return "Permission denied (write rule)"
    if isinstance(exc, ReadOnlyStore):
        return "Read-only store"
    if isinstance(exc, NotFound):
        return "Not found or not visible (read rule)"
    if isinstance(exc, InvalidInput):
        return "Rejected"
    if isinstance(exc, StoreUnavailable):
        return "Store unavailable"
    if isinstance(exc, ModelUnavailable):
        return "Embedding model unavailable"
    return "Error"


def has_consolidation(engine: Any) -> bool:
    """True when the engine offers consolidate(), history() and undo()."""
    return all(hasattr(engine, name) for name in ("consolidate", "history", "undo"))


class MainScreen(Screen[None]):
    """Everything about one agent at a time."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_search", "Search", id="search", key_display="/"),
        Binding("s", "switch_agent", "Agent", id="switch_agent"),
        Binding("a", "add", "Add", id="add"),
        Binding("e", "edit", "Edit", id="edit"),
        Binding("p", "publish", "Publish", id="publish"),
        Binding("u", "unpublish", "Unpublish", id="unpublish"),
        Binding("d", "delete", "Delete", id="delete"),
        Binding("r", "restore", "Restore", id="restore"),
        Binding("c", "consolidate", "Consolidate", id="consolidate"),
        Binding("z", "undo", "Undo run", id="undo", show=False),
        Binding("m", "undo_merge", "Undo merge", id="undo_merge", show=False),
        Binding("x", "toggle_deleted", "Deleted", id="toggle_deleted"),
        # h would be typed into the search box, so ctrl+t (a priority binding: it works
        # while the box has focus; Input does not use it) toggles from anywhere.
        Binding("h", "toggle_hidden", "Hidden", id="toggle_hidden", show=False),
        Binding(
            "ctrl+t",
            "toggle_hidden",
            "Hidden",
            id="toggle_hidden_anywhere",
            show=False,
            priority=True,
        ),
        Binding("ctrl+r", "reload", "Reload", id="reload", show=False),
        Binding("A", "audit", "Audit", id="audit", key_display="A", show=False),
        Binding("escape", "clear_search", "Clear", id="clear_search", show=False),
    ]

    AUTO_FOCUS = "#private DataTable"

    def __init__(self) -> None:
        super().__init__()
        self.scope: AgentScope | None = None
        self.agents: list[AgentScope] = []
        self.generation = 0
        self.counts: dict[str, int] | None = None
        self.listing: dict[str, tuple[list[MemoryNote], int]] = {}
        self.query_text = ""
        self.search_result: SearchResult | None = None
        self.show_deleted = False
        self.show_hidden = False
        self.selected_id: str | None = None
        self.selected_hit: SearchHit | None = None
        self.note_data: NoteData | None = None
        self.busy_consolidating = False
        self._searching = False  # a search thread is running
        self._search_wanted = False  # the query changed while it ran: search again after
        self._shown_search: tuple[int, str] | None = None  # (generation, query) on screen
        self._pending_select: str | None = None
        self._last_pane = "private"
        self._focus_results = False
        self.switch_hold_limit = SWITCH_HOLD_LIMIT

    @property
    def engine(self) -> Any:
        """The engine the app was opened with."""
        return self.app.engine  # type: ignore[attr-defined]

    @property
    def read_only(self) -> bool:
        """True when writes are off."""
        return bool(self.engine.read_only)

    # ----------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        yield HeaderBar(self.engine.settings.store_label, self.read_only, id="header")
        yield Static("", id="store-banner", markup=False)
        yield Input(placeholder="Search as this agent…  ( / )", id="search")
        yield Static("", id="search-status", markup=False)
        with Horizontal(id="panes"):
            yield NotePane("private", "Private", show_owner=False, id="private")
            yield NotePane("shared", "Shared", show_owner=True, id="shared")
            yield HistoryPane(id="history")
        yield NoteDetail(id="detail")
        yield ProgressBar(id="progress", show_eta=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Start loading; the first frame never waits for the store or the model."""
        if self.app.is_headless:
            self.query_one("#search", Input).cursor_blink = False
        self.query_one("#progress", ProgressBar).display = False
        self.query_one("#search-status", Static).display = False
        self.query_one(HeaderBar).show(None, None)
        self.query_one(NoteDetail).show_message("Loading…")
        # Workers start once this frame is painted: a worker reading a big store
        # holds the GIL for long stretches, and the first frame must not wait for it.
        self.call_after_refresh(self._start_loading)

    def _start_loading(self) -> None:
        self.load_agents()
        self.load_scope(self.app.initial_agent)  # type: ignore[attr-defined]

    # ------------------------------------------------------------- messages
    def _refuse(self, exc: BaseException) -> None:
        message = str(exc) if isinstance(exc, AmemError) else f"{type(exc).__name__}: {exc}"
        self.post_message(ActionRefused(refusal_title(exc), message))

    def _store_status(self, problem: str | None) -> None:
        """Show the store banner for ``problem``, or clear it (the store answered again)."""
        banner = self.query_one("#store-banner", Static)
        if problem is None:
            banner.display = False
            return
        banner.update(
            Text(
                f"Store unavailable: {one_line(problem, 200)}. Nothing was half-written; "
                "reload (ctrl+r) once it is back.",
                no_wrap=True,
                overflow="ellipsis",
            )
        )
        banner.display = True

    def on_action_refused(self, message: ActionRefused) -> None:
        """Show a refusal as a notification (markup off: messages may quote user text)."""
        if message.title == refusal_title(StoreUnavailable("")):
            self._store_status(message.message)
        self.app.notify(
            one_line(message.message, 400),
            title=message.title,
            severity="error",
            timeout=8,
            markup=False,
        )

    def on_action_done(self, message: ActionDone) -> None:
        """Say what changed and reload every pane of the current agent."""
        self._store_status(None)
        self.app.notify(one_line(message.message, 300), title="Done", markup=False)
        if self.scope is not None:
            self.load_scope(self.scope.agent, select=message.select)

    # ---------------------------------------------------------------- agents
    @work(thread=True, exit_on_error=False, group="agents")
    def load_agents(self) -> None:
        """Agents from the configuration plus any agent_id found in the store."""
        try:
            self.post_message(AgentsLoaded(self.engine.agents()))
        except Exception as exc:
            self._refuse(exc)

    def on_agents_loaded(self, message: AgentsLoaded) -> None:
        """Remember the agents for the switcher and the palette."""
        self.agents = message.agents
        if self.scope is not None and all(a.agent != self.scope.agent for a in self.agents):
            self.agents.append(self.scope)

    @work(thread=True, exclusive=True, exit_on_error=False, group="scope")
    def load_scope(self, agent: str | None, select: str | None = None) -> None:
        """Load every pane of an agent together, so a switch changes them all at once."""
        self.generation += 1
        generation = self.generation
        try:
            scope = self.engine.scope(agent) if agent else self.engine.scope()
            engine = self.engine
            inactive = self.show_deleted
            private = engine.list_notes(
                scope, "private", limit=PAGE_SIZE, include_inactive=inactive
            )
            shared = (
                engine.list_notes(scope, "shared", limit=PAGE_SIZE, include_inactive=inactive)
                if scope.has_shared_scope
                else None
            )
            history: list[Any] | None = None
            history_error: str | None = None
            if has_consolidation(engine):
                try:
                    history = list(engine.history(scope.agent))
                except AmemError as exc:
                    history_error = str(exc)
            counts = {
                "private": engine.count(scope, "private"),
                "shared": engine.count(scope, "shared") if scope.has_shared_scope else 0,
                "visible": engine.count(scope, "visible"),
            }
            data = ScopeData(
                next_run=_next_run(engine),
                scope=scope,
                private=private,
                shared=shared,
                history=history,
                counts=counts,
                collection_exists=engine.collection_info(scope) is not None,
                history_error=history_error,
            )
        except Exception as exc:
            self._refuse(exc)
            return
        if not get_current_worker().is_cancelled:
            self._pending_select = select
            self.post_message(ScopeLoaded(generation, data))

    def on_scope_loaded(self, message: ScopeLoaded) -> None:
        """Show an agent's panes (all of them in one go)."""
        if message.generation != self.generation:
            return
        self.in_one_frame(lambda: (self._store_status(None), self._apply_scope(message.data)))
        self.warm_search(message.data.scope)

    def in_one_frame(self, change: Callable[[], object]) -> None:
        """Make ``change`` to many widgets and show the result in one frame.

        ``batch_update()`` alone is not enough: a widget tells the screen it needs a
        repaint from its own message queue, when it next goes idle, so on a busy
        machine the screen drew the Shared pane's new message under the old header
        and Private pane. Here screen updates stay suspended until every widget of
        the screen has gone idle once after the change (its repaint request is then
        queued at the screen), and the screen is repainted as a whole.
        """
        batch = self.app.batch_update()
        batch.__enter__()
        released = False

        def release() -> None:
            nonlocal released
            if released:
                return
            released = True
            batch.__exit__(None, None, None)
            self.refresh()

        try:
            change()
        except BaseException:
            release()
            raise
        widgets = [w for w in self.walk_children(with_self=False) if w.is_running]
        waiting = set(widgets)

        def idle(widget: Any) -> None:
            waiting.discard(widget)
            if not waiting:
                self.call_later(release)  # after the repaint requests queued here

        for widget in widgets:
            widget.call_next(idle, widget)  # runs after the widget's idle refresh
        if not waiting:
            self.call_later(release)
        # Never hold the screen for long, whatever happens to a widget meanwhile.
        self.set_timer(self.switch_hold_limit, release)

    @work(thread=True, exclusive=True, exit_on_error=False, group="warm")
    def warm_search(self, scope: AgentScope) -> None:
        """Read and index the agent's notes in the background, so its first search is quick.

        A search typed meanwhile waits for this read rather than starting another.
        """
        # The model first: reading a big store holds the GIL for seconds, and the
        # first search needs the model more than it needs the warmed cache.
        with contextlib.suppress(Exception):
            self.engine.embedder.load()
        try:
            self.engine.warm_up(scope)
        except Exception:  # a failing store shows up in the next load or search
            return

    def _apply_scope(self, data: ScopeData) -> None:
        switched = self.scope is None or self.scope.agent != data.scope.agent
        self.scope = data.scope
        self.counts = data.counts
        self.query_one(HeaderBar).show(data.scope, data.counts)
        self.listing = {"private": (newest_first(data.private.notes), data.private.total)}
        private = self.query_one("#private", NotePane)
        shared = self.query_one("#shared", NotePane)
        private.base_title = f"Private · {data.scope.agent}"
        if data.scope.mode == "B":
            private.base_title = f"Collection · {data.scope.agent} (Mode B)"
        if data.shared is not None:
            self.listing["shared"] = (newest_first(data.shared.notes), data.shared.total)
        history = self.query_one(HistoryPane)
        history.next_run = data.next_run
        if data.history is not None:
            history.show_runs(data.history)
        elif data.history_error:
            history.show_unavailable(data.history_error)
        else:
            history.show_unavailable(CONSOLIDATION_MISSING)
        # On a switch the new agent's listings replace the old agent's rows at once;
        # a running query then re-searches as the new agent.
        if switched or not self.query_text:
            self._show_listings()
        if self.query_text:
            self.start_search()
        if data.scope.mode == "B":
            shared.show_disabled(
                f"{data.scope.agent} is a Mode B agent: it has its own collection "
                f"({data.scope.collection}) and no shared scope. It neither reads nor "
                "publishes shared notes."
            )
        self.query_one("#search", Input).placeholder = f"Search as {data.scope.agent}…  ( / )"
        self.refresh_bindings()
        if not data.collection_exists:
            self.query_one(NoteDetail).show_message(
                f"The collection {data.scope.collection} does not exist yet: "
                f"{data.scope.agent} has written nothing. Press a to add a note."
            )
        if switched:
            self.selected_id = None
            if data.collection_exists:
                self.query_one(NoteDetail).show_message("Loading…")
        self.note_data = None  # the note may have changed: load it again
        self._restore_selection()

    def _show_listings(self) -> None:
        private = self.query_one("#private", NotePane)
        notes, total = self.listing.get("private", ([], 0))
        private.show_listing(notes, total)
        if self.scope is not None and self.scope.has_shared_scope:
            notes, total = self.listing.get("shared", ([], 0))
            self.query_one("#shared", NotePane).show_listing(notes, total)
        self._status("")

    def _restore_selection(self) -> None:
        wanted = self._pending_select or self.selected_id
        self._pending_select = None
        for pane_id in (self._last_pane, "private", "shared"):
            pane = self.query_one(f"#{pane_id}", NotePane)
            if wanted and pane.select(wanted):
                self._select_from(pane)
                return
        for pane_id in ("private", "shared"):
            pane = self.query_one(f"#{pane_id}", NotePane)
            if pane.current_id:
                self._select_from(pane)
                return
        if self.scope is not None:
            self.selected_id = None
            self.note_data = None
            self.query_one(NoteDetail).show_message(
                "No note selected. Use Tab to move between panes, arrows to move, "
                "a to add a note, F1 for help."
            )

    def _select_from(self, pane: NotePane) -> None:
        note_id = pane.current_id
        if note_id is None:
            return
        self._last_pane = pane.which
        self.selected_hit = pane.hits.get(note_id)
        if note_id != self.selected_id or self.note_data is None or self.selected_hit:
            self.selected_id = note_id
            self.load_note(note_id, self.selected_hit)

    # ----------------------------------------------------------------- paging
    @on(NotePane.NeedMore)
    def _more(self, message: NotePane.NeedMore) -> None:
        if self.scope is not None:
            self.load_page(message.pane.which, message.offset)

    @work(thread=True, exit_on_error=False, group="page")
    def load_page(self, which: str, offset: int) -> None:
        """The next page of a listing."""
        generation = self.generation
        try:
            page = self.engine.list_notes(
                self.scope,
                which,
                limit=PAGE_SIZE,
                offset=offset,
                include_inactive=self.show_deleted,
            )
        except Exception as exc:
            self._refuse(exc)
            return
        self.post_message(PageLoaded(generation, which, page))

    def on_page_loaded(self, message: PageLoaded) -> None:
        """Append a page, unless the agent changed or a search is shown."""
        if message.generation != self.generation or message.which not in self.listing:
            return
        notes, _ = self.listing[message.which]
        page = newest_first(message.page.notes)
        notes.extend(page)
        self.listing[message.which] = (notes, message.page.total)
        if not self.query_text:
            pane = self.query_one(f"#{message.which}", NotePane)
            pane.total = message.page.total
            pane.append_page(page)

    # ---------------------------------------------------------------- search
    # Latest wins, no debounce: a change starts a search at once when none is running;
    # otherwise only the newest text is remembered and searched when the running one
    # ends. So at most one search thread runs, the final text is always searched, and
    # a fast typist costs at most one extra search.
    @on(Input.Changed, "#search")
    def _query_changed(self, event: Input.Changed) -> None:
        self.query_text = event.value.strip()
        if not self.query_text:
            # The running search (if any) finishes in its thread; its result no
            # longer matches the query and is dropped.
            self._search_wanted = False
            self.search_result = None
            self._show_listings()
            self._restore_selection()
            return
        self._status(f"searching for {one_line(self.query_text, 60)!r}…")
        self.start_search()

    @on(Input.Submitted, "#search")
    def _query_submitted(self) -> None:
        if not self.query_text:
            self.query_one(f"#{self._last_pane}", NotePane).table.focus()
            return
        self._focus_results = True
        if (
            not self._searching
            and self.search_result is not None
            and self._shown_search == (self.generation, self.query_text)
        ):
            # The results on screen are already this query's: just go to them.
            self._focus_results = False
            self.query_one(f"#{self._last_pane}", NotePane).table.focus()
            return
        self.start_search()

    def start_search(self) -> None:
        """Search for the current query now, or as soon as the running search ends."""
        if self.scope is None or not self.query_text:
            return
        if self._searching:
            self._search_wanted = True
            return
        self._searching = True
        self._search_wanted = False
        self.run_search(self.scope, self.query_text, self.generation)

    @work(exclusive=True, thread=True, exit_on_error=False, group="search")
    def run_search(self, scope: AgentScope, query: str, generation: int) -> None:
        """Search as the agent; always posts SearchDone, which frees the search slot.

        The hits go out first; the hidden matches (about as much work again) follow
        in a HiddenFound, unless a newer query came meanwhile.
        """
        try:
            # Approximate (HNSW) on big collections, as the agent's own Qdrant searches.
            result = self.engine.search(scope, query, limit=SEARCH_LIMIT, exact=False)
        except Exception as exc:
            self._refuse(exc)
            result = SearchResult(
                agent=scope.agent,
                mode=scope.mode,
                collection=scope.collection,
                query=query,
                hits=[],
                notice=f"search failed: {exc}",
            )
            self.post_message(SearchDone(generation, query, result))
            return
        self.post_message(SearchDone(generation, query, result))
        stale = generation != self.generation or query != self.query_text
        if stale or get_current_worker().is_cancelled:
            return
        try:
            hidden, notice = self.engine.hidden_matches(
                scope, query, limit=SEARCH_LIMIT, exact=False
            )
        except Exception:  # the hits are shown; a failing store shows on the next load
            return
        self.post_message(HiddenFound(generation, query, hidden, notice))

    def on_hidden_found(self, message: HiddenFound) -> None:
        """Add the hidden matches to the result on screen (if it is still this query's)."""
        result = self.search_result
        if message.generation != self.generation or result is None:
            return
        if result.query != message.query:
            return
        result.hidden = message.hidden
        if message.notice and message.notice not in (result.notice or ""):
            result.notice = " ".join(filter(None, [result.notice, message.notice]))
        self._search_status(result)
        if self.show_hidden:
            self.query_one(NoteDetail).show_hidden(result)

    def on_search_done(self, message: SearchDone) -> None:
        """Show hits in the panes they belong to (only if still the current query)."""
        self._searching = False
        current = message.generation == self.generation and message.query == self.query_text
        if current:
            self._search_wanted = False  # this result already answers the newest text
        elif self._search_wanted:
            self.start_search()  # the newest text, typed while this one ran
        # A stale result (older text, or another agent or reload) is never shown.
        if not current:
            return
        result = message.result
        self._shown_search = (message.generation, message.query)
        if not (result.notice or "").startswith("search failed"):
            self._store_status(None)
        self.search_result = result
        private_hits = [h for h in result.hits if h.because in ("private", "collection")]
        shared_hits = [h for h in result.hits if h.because in ("shared", "reader")]
        self.query_one("#private", NotePane).show_hits(private_hits, result.query)
        if self.scope is not None and self.scope.has_shared_scope:
            self.query_one("#shared", NotePane).show_hits(shared_hits, result.query)
        self._search_status(result)
        if result.hits:
            best = result.hits[0]
            self._last_pane = "private" if best in private_hits else "shared"
            self._pending_select = best.note.id
        if self._focus_results:
            self._focus_results = False
            self.query_one(f"#{self._last_pane}", NotePane).table.focus()
        if self.show_hidden:
            self.query_one(NoteDetail).show_hidden(result)
        else:
            self.selected_id = None
            self._restore_selection()

    def _search_status(self, result: SearchResult) -> None:
        hidden = list(getattr(result, "hidden", []) or [])
        parts = [
            f"{len(result.hits)} hits for {one_line(result.query, 50)!r} as {result.agent}",
            f"{getattr(result, 'search_mode', 'dense')} search",
        ]
        if hidden:
            verb = "hide" if self.show_hidden else "show"
            key = self.key_for("toggle_hidden_anywhere", "toggle_hidden")
            parts.append(f"{len(hidden)} hidden matches ({key} to {verb})")
        if getattr(result, "notice", None):
            parts.append(str(result.notice))
        parts.append("Esc clears")
        self._status(" · ".join(parts))

    def key_for(self, *binding_ids: str) -> str:
        """The key that runs the first of these bindings now (keymap.toml may rebind it)."""
        for binding_id in binding_ids:
            for active in self.active_bindings.values():
                if active.binding.id == binding_id:
                    return self.app.get_key_display(active.binding)
        return "?"

    def _status(self, text: str) -> None:
        status = self.query_one("#search-status", Static)
        status.update(Text(text, no_wrap=True, overflow="ellipsis"))
        status.display = bool(text)

    def action_focus_search(self) -> None:
        """Put the cursor in the search box."""
        self.query_one("#search", Input).focus()

    def action_clear_search(self) -> None:
        """Clear the query and bring back the full lists."""
        search = self.query_one("#search", Input)
        if search.value:
            search.value = ""
        self.query_one("#private", NotePane).table.focus()

    def action_toggle_hidden(self) -> None:
        """Show or hide the close matches this agent cannot see."""
        self.show_hidden = not self.show_hidden
        if self.search_result is None:
            self.app.notify("Hidden matches belong to a search: type a query first.", markup=False)
            return
        self._search_status(self.search_result)  # the hint says what the key does now
        if self.show_hidden:
            self.query_one(NoteDetail).show_hidden(self.search_result)
        else:
            self.selected_id = None
            self._restore_selection()

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

    # ---------------------------------------------------------------- detail
    @on(NotePane.Highlighted)
    def _note_highlighted(self, message: NotePane.Highlighted) -> None:
        # Only the pane the user works in drives the detail view; rows rebuilt in
        # the other pane (a new search, a reload) also move their cursors.
        pane = message.pane
        if message.note_id is None or pane.which != self._last_pane:
            return
        if pane.current_id == message.note_id:
            self._select_from(pane)

    @on(HistoryPane.Highlighted)
    def _run_highlighted(self, message: HistoryPane.Highlighted) -> None:
        if message.run is not None and self.query_one(HistoryPane).table.has_focus:
            self._show_run(message.run)

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

    def _show_run(self, run: Any) -> None:
        hint = (
            f"{self.key_for('undo')} undoes this run; {self.key_for('undo_merge')} (or Enter "
            "in the list on the right) undoes only the merge chosen there."
        )
        self.query_one(NoteDetail).show_run(run, hint)

    @on(NoteDetail.MergeChosen)
    def _merge_chosen(self, message: NoteDetail.MergeChosen) -> None:
        self._undo_merge(message.keeper)

    @on(NoteDetail.FollowLink)
    def _follow(self, message: NoteDetail.FollowLink) -> None:
        for pane_id in ("private", "shared"):
            pane = self.query_one(f"#{pane_id}", NotePane)
            if pane.select(message.note_id):
                pane.table.focus()
                return
        self.selected_id = message.note_id
        self.load_note(message.note_id, None)

    @work(thread=True, exclusive=True, exit_on_error=False, group="note")
    def load_note(self, note_id: str, hit: SearchHit | None) -> None:
        """Load a note, its links and conflicts with the read rule applied."""
        generation = self.generation
        scope = self.scope
        if scope is None:
            return
        try:
            note = self.engine.get(scope, note_id)
            links = self.engine.linked(scope, note)
            conflicts: list[tuple[str, MemoryNote | None]] = []
            for other in note.conflicts_with[:20]:
                try:
                    conflicts.append((other, self.engine.get(scope, other)))
                except AmemError:
                    conflicts.append((other, None))
        except NotFound as exc:
            self.post_message(
                NoteLoaded(
                    generation,
                    NoteData(
                        note=MemoryNote(id=note_id, content=""),
                        links=[],
                        conflicts=[],
                        notes=[str(exc)],
                    ),
                )
            )
            return
        except Exception as exc:
            self._refuse(exc)
            return
        data = NoteData(
            note=note,
            links=links,
            conflicts=conflicts,
            hit=hit,
            writable=can_write(scope.agent, note),
        )
        if not get_current_worker().is_cancelled:
            self.post_message(NoteLoaded(generation, data))

    def on_note_loaded(self, message: NoteLoaded) -> None:
        """Show the loaded note."""
        if message.generation != self.generation or self.scope is None:
            return
        if message.data.note.id != self.selected_id:
            return
        self.note_data = message.data
        if self.show_hidden and self.search_result is not None:
            return
        self.query_one(NoteDetail).show_note(message.data, self.scope.agent)

    # --------------------------------------------------------------- agents
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
        self.note_data = None
        self.selected_id = None
        self.search_result = None
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

    # --------------------------------------------------------------- actions
    def disabled_reason(self, action: str) -> str | None:
        """Why an action is off right now, or None when it may run."""
        if action in WRITE_ACTIONS and self.read_only:
            return "The store is opened read-only (--read-only): writes are off."
        if action == "publish" and self.scope is not None and not self.scope.has_shared_scope:
            return (
                f"{self.scope.agent} is a Mode B agent: it has no shared scope, "
                "so it cannot publish."
            )
        if action in ("consolidate", "undo", "undo_merge") and not has_consolidation(self.engine):
            return CONSOLIDATION_MISSING
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Dim actions that cannot run (the reason is shown when they are tried)."""
        if action in WRITE_ACTIONS and self.disabled_reason(action):
            return None
        return True

    def on_key(self, event: Key) -> None:
        """A key bound to a dimmed action says why it is off instead of doing nothing."""
        if isinstance(self.focused, Input):
            return
        active = self.active_bindings.get(event.key)
        if active is None or active.enabled or active.node is not self:
            return
        reason = self.disabled_reason(active.binding.action)
        if reason:
            event.stop()
            self.app.notify(reason, title="Not available", severity="warning", markup=False)

    def _needs_note(self) -> MemoryNote | None:
        if self.note_data is None or self.note_data.note.id != self.selected_id:
            self.app.notify("Select a note first (arrows in a pane).", markup=False)
            return None
        return self.note_data.note

    def _refused_now(self, action: str) -> bool:
        reason = self.disabled_reason(action)
        if reason:
            self.app.notify(reason, title="Not available", severity="warning", markup=False)
        return reason is not None

    @work(thread=True, exit_on_error=False, group="write")
    def run_write(self, label: str, call: Callable[[], MemoryNote], select: bool = True) -> None:
        """Run one engine write in a thread; report success or the rule that refused it."""
        try:
            note = call()
        except Exception as exc:
            self._refuse(exc)
            return
        self.post_message(ActionDone(f"{label} {note.id}", note.id if select else None))

    def action_add(self) -> None:
        """Write a new note (private by default)."""
        if self._refused_now("add") or self.scope is None:
            return
        scope = self.scope
        reason = None
        if not scope.has_shared_scope:
            reason = f"{scope.agent} is Mode B: it has no shared scope, so notes stay private."

        def save(draft: NoteDraft | None) -> None:
            if draft is None:
                return
            kind = "shared" if draft.shared else "private"
            self.run_write(
                f"Added {kind} note",
                lambda: self.engine.add(scope, draft.content, shared=draft.shared, tags=draft.tags),
            )

        from amem_tui.tui.dialogs.note_editor import NoteEditor

        self.app.push_screen(
            NoteEditor(f"New note as {scope.agent}", scope.agent, shared_reason=reason), save
        )

    def action_edit(self) -> None:
        """Change the selected note's content and tags."""
        if self._refused_now("edit") or self.scope is None:
            return
        note = self._needs_note()
        if note is None:
            return
        scope = self.scope
        if not can_write(scope.agent, note):
            self.post_message(
                ActionRefused(
                    "Permission denied (write rule)",
                    f"PERMISSION_DENIED: agent '{scope.agent}' may not update note {note.id}: "
                    f"only its owner ({note.effective_owner}) or its writers "
                    f"({', '.join(note.effective_writers) or 'none'}) may modify it",
                )
            )
            return

        def save(draft: NoteDraft | None) -> None:
            if draft is None:
                return
            content = draft.content if draft.content != note.content else None
            tags = draft.tags if draft.tags != note.tags else None
            if content is None and tags is None:
                self.app.notify("Nothing changed.", markup=False)
                return
            self.run_write(
                "Updated note",
                lambda: self.engine.update(
                    scope, note.id, content=content, tags=tags, expected_hash=note.hash or None
                ),
            )

        from amem_tui.tui.dialogs.note_editor import NoteEditor

        self.app.push_screen(
            NoteEditor(
                f"Edit note {note.id}",
                scope.agent,
                content=note.content,
                tags=list(note.tags),
                allow_scope=False,
            ),
            save,
        )

    def _confirmed(self, title: str, body: str, label: str, then: Callable[[], None]) -> None:
        def answer(yes: bool | None) -> None:
            if yes:
                then()

        from amem_tui.tui.dialogs.confirm import ConfirmDialog

        self.app.push_screen(ConfirmDialog(title, Text(body), label), answer)

    def _note_action(self, action: str, title: str, body: str, label: str, done: str) -> None:
        if self._refused_now(action) or self.scope is None:
            return
        note = self._needs_note()
        if note is None:
            return
        scope = self.scope
        method = getattr(self.engine, action)
        preview = one_line(note.content, 70)
        self._confirmed(
            title,
            f"{body}\n\n{note.id}\n{preview}",
            label,
            lambda: self.run_write(done, lambda: method(scope, note.id)),
        )

    def action_publish(self) -> None:
        """Share the selected private note (owner only; Mode A only)."""
        self._note_action(
            "publish",
            "Publish this note?",
            "It moves to the shared scope: every Mode A agent will be able to read it. "
            "It keeps its owner, and only the owner may change it.",
            "Publish",
            "Published note",
        )

    def action_unpublish(self) -> None:
        """Make the selected shared note private to its owner again."""
        self._note_action(
            "unpublish",
            "Unpublish this note?",
            "It leaves the shared scope and becomes private to its owner again.",
            "Unpublish",
            "Unpublished note",
        )

    def action_delete(self) -> None:
        """Soft-delete the selected note."""
        self._note_action(
            "delete",
            "Soft-delete this note?",
            "It is marked is_active=false and disappears from searches. Nothing is "
            "hard-deleted: press x to show deleted notes and r to restore it.",
            "Delete",
            "Soft-deleted note",
        )

    def action_restore(self) -> None:
        """Restore the selected soft-deleted note."""
        note = self.note_data.note if self.note_data else None
        if note is not None and note.active and not self.disabled_reason("restore"):
            self.app.notify(
                "This note is not deleted. Press x to show deleted notes.", markup=False
            )
            return
        self._note_action(
            "restore",
            "Restore this note?",
            "It becomes active again (is_active=true).",
            "Restore",
            "Restored note",
        )

    # ------------------------------------------------------------ consolidate
    def action_consolidate(self) -> None:
        """Preview a consolidation of the current agent (dry run), then maybe apply it."""
        if self._refused_now("consolidate") or self.scope is None:
            return
        if self.busy_consolidating:
            self.app.notify("A consolidation is already running.", markup=False)
            return
        # No notification here: the preview dialog follows at once, and a toast that
        # fades after a few seconds would make snapshots depend on the machine's speed.
        self.preview_consolidation(self.scope)

    @work(thread=True, exclusive=True, exit_on_error=False, group="consolidate")
    def preview_consolidation(self, scope: AgentScope) -> None:
        """The dry run: what would be merged, nothing changed."""
        try:
            run = self.engine.consolidate(scope.agent, dry_run=True)
        except Exception as exc:
            self._refuse(exc)
            return
        self.post_message(PreviewReady(run))

    def on_preview_ready(self, message: PreviewReady) -> None:
        """Show the preview; apply when the user says so."""
        run = message.run
        scope = self.scope
        if scope is None or run.agent != scope.agent:
            return

        def answer(apply: bool | None) -> None:
            if apply:
                self.busy_consolidating = True
                bar = self.query_one("#progress", ProgressBar)
                bar.update(total=max(len(run.merges), 1), progress=0)
                bar.display = True
                self.apply_consolidation(scope, run.threshold)

        from amem_tui.tui.dialogs.consolidation import ConsolidationPreview

        self.app.push_screen(ConsolidationPreview(run, read_only=self.read_only), answer)

    @work(thread=True, exclusive=True, exit_on_error=False, group="consolidate")
    def apply_consolidation(self, scope: AgentScope, threshold: float) -> None:
        """Apply the merges, reporting progress as they go."""

        def progress(done: int, total: int) -> None:
            self.post_message(ConsolidationProgress(done, total))

        try:
            run = self.engine.consolidate(
                scope.agent, dry_run=False, threshold=threshold, progress=progress
            )
        except Exception as exc:
            self._refuse(exc)
            self.post_message(ConsolidationProgress(-1, -1))
            return
        self.post_message(ConsolidationProgress(-1, -1))
        self.post_message(
            ActionDone(f"Consolidated {scope.agent}: {len(run.merges)} merges in run", None)
        )

    def on_consolidation_progress(self, message: ConsolidationProgress) -> None:
        """Move the progress bar; hide it at the end."""
        bar = self.query_one("#progress", ProgressBar)
        if message.total < 0:
            self.busy_consolidating = False
            bar.display = False
            return
        bar.update(total=max(message.total, 1), progress=message.done)
        if self.scope is not None and message.done and has_consolidation(self.engine):
            self.refresh_history(self.scope)

    @work(thread=True, exclusive=True, exit_on_error=False, group="history")
    def refresh_history(self, scope: AgentScope) -> None:
        """Reload the history pane while a run is going (it updates live)."""
        try:
            runs = list(self.engine.history(scope.agent))
        except Exception:
            return
        self.app.call_from_thread(self._show_runs, scope.agent, runs)

    def _show_runs(self, agent: str, runs: list[Any]) -> None:
        if self.scope is not None and self.scope.agent == agent:
            self.query_one(HistoryPane).show_runs(runs)

    def action_undo(self) -> None:
        """Undo the consolidation run under the cursor in the history pane."""
        if self._refused_now("undo") or self.scope is None:
            return
        run = self.query_one(HistoryPane).current_run
        if run is None:
            self.app.notify("Select a run in the consolidation history first.", markup=False)
            return
        if run.dry_run:
            self.app.notify("A dry run changed nothing: there is nothing to undo.", markup=False)
            return
        scope = self.scope
        self._confirmed(
            "Undo this consolidation run?",
            f"Run {run.id} merged {len(run.merges)} groups. Undo restores the dropped notes "
            "and gives each keeper its content, tags, keywords and links from before.",
            "Undo",
            lambda: self.run_write(
                "Undid consolidation run",
                lambda: _undo_note(self.engine, scope, run.id),
                select=False,
            ),
        )

    def action_undo_merge(self) -> None:
        """Undo one merge of the run shown in the detail view (the one chosen there)."""
        detail = self.query_one(NoteDetail)
        keeper = detail.chosen_merge
        if detail.run is not None and keeper is None and not self.disabled_reason("undo_merge"):
            self.app.notify(
                "This run has several merges: choose one in the list on the right "
                "(Tab to it, arrows), then press Enter.",
                markup=False,
            )
            return
        self._undo_merge(keeper)

    def _undo_merge(self, keeper: str | None) -> None:
        if self._refused_now("undo_merge") or self.scope is None:
            return
        run = self.query_one(NoteDetail).run
        if run is None or keeper is None:
            self.app.notify(
                "Select a run in the consolidation history first (its merges are listed "
                "in the detail view).",
                markup=False,
            )
            return
        if run.dry_run:
            self.app.notify("A dry run changed nothing: there is nothing to undo.", markup=False)
            return
        merge = next((m for m in run.merges if m.keeper == keeper), None)
        if merge is None:
            return
        scope = self.scope
        self._confirmed(
            "Undo this merge?",
            f"Run {run.id}, merge into {merge.keeper}: the {len(merge.dropped)} dropped "
            "notes are restored and the keeper gets back its content, tags, keywords and "
            "links from before. The run's other merges stay. Refused if the keeper "
            f"changed since.\n\nkeeper: {one_line(merge.content_before, 70)}",
            "Undo merge",
            lambda: self.run_write(
                "Undid the merge into",
                lambda: _undo_merge_note(self.engine, scope, run.id, merge.keeper),
            ),
        )

    # ---------------------------------------------------------------- audit
    def action_audit(self) -> None:
        """Open the audit report of the whole store (built in a worker)."""
        self.app.notify("Building the audit report…", markup=False, timeout=3)
        self.load_audit()

    @work(thread=True, exclusive=True, exit_on_error=False, group="audit")
    def load_audit(self) -> None:
        """Run engine.audit() off the UI thread."""
        try:
            report = self.engine.audit()
        except Exception as exc:
            self._refuse(exc)
            return
        self.post_message(AuditReady(report))

    def on_audit_ready(self, message: AuditReady) -> None:
        """Show the finished report."""
        from amem_tui.tui.screens.audit import AuditScreen

        self.app.push_screen(AuditScreen(message.report))

    # ---------------------------------------------------------------- model
    def on_model_state(self, message: ModelState) -> None:
        """Say in the header whether the model is ready."""
        note = "" if message.ready else message.detail
        header = self.query_one(HeaderBar)
        header.model_note = note
        header.show(self.scope, self.counts)

    def new_session_key(self, agent: str) -> str:
        """A fresh session key for an agent (for the palette's examples)."""
        return f"agent:{agent}:{uuid.uuid4()}"


def _undo_note(engine: Any, scope: AgentScope, run_id: str) -> MemoryNote:
    """Undo a run; returns a stand-in note so the write path can report it."""
    run = engine.undo(scope.agent, run_id)
    return MemoryNote(id=str(run.id), content="")


def _undo_merge_note(engine: Any, scope: AgentScope, run_id: str, keeper: str) -> MemoryNote:
    """Undo one merge; returns the keeper's id as a note so the write path reports it."""
    engine.undo(scope.agent, run_id, keeper)
    return MemoryNote(id=keeper, content="")


def _next_run(engine: Any) -> Any:
    """When the nightly consolidation runs next (the scheduler is only asked, never started)."""
    scheduler = getattr(engine, "scheduler", None)
    if scheduler is None:
        return None
    try:
        return scheduler.next_run_time()
    except Exception:  # an optional line in a pane title must never break a load
        return None
