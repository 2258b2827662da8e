"""The Textual inspector app (``launch.run`` starts it)."""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App
from textual.binding import BindingType, Keymap
from textual.command import Provider
from textual.notifications import SeverityLevel
from textual.reactive import var
from textual.screen import Screen

from amem_tui.engine import AmemError
from amem_tui.paths import config_dir
from amem_tui.tui import tuning
from amem_tui.tui.actions import APP_ACTIONS, bindings, help_rows
from amem_tui.tui.keymap import key_list, read_keymap
from amem_tui.tui.preferences import FILE_NAME, PreferenceStore
from amem_tui.tui.screens.opening import OpeningScreen
from amem_tui.tui.text import one_line
from amem_tui.tui.themes import bundled_theme_dir, load_themes, user_theme_dir

if TYPE_CHECKING:
    from textual.theme import Theme

    from amem_tui.engine import MemoryEngine, SavedIndexSearch
    from amem_tui.tui.messages import ActionDone, BulkDone, JumpTarget
    from amem_tui.tui.screens.main import MainScreen
    from amem_tui.tui.widgets.note_pane import NotePane

# The first frame is drawn before the settings, pydantic, numpy, the store or the
# model are loaded: this module imports Textual and light project modules only. The
# main screen and the palette's commands (which read the engine's models) are
# imported where they are first needed.

DEFAULT_THEME = "amem-dark"


def palette_commands() -> type[Provider]:
    """The command palette's provider, imported when the palette first opens."""
    from amem_tui.tui.commands import AmemCommands

    return AmemCommands


class AmemApp(App[int]):
    """The inspector: one engine, one agent at a time, every action through the engine.

    Given an engine, the main screen is the first screen. Given an ``opener`` instead,
    the first frame is the layout, empty (``OpeningScreen``), while a worker
    thread opens the engine; a failure to open ends the app with
    ``start_error`` set.
    """

    CSS_PATH = "app.tcss"
    TITLE = "amem-tui"
    COMMANDS = App.COMMANDS | {palette_commands}
    BINDINGS: ClassVar[list[BindingType]] = bindings(APP_ACTIONS)

    #: What the header says of the embedding model while it is not ready (loading it,
    #: or why it is unavailable); None once it is ready, or when it was never asked for.
    model_note: var[str | None] = var[str | None](None, init=False)

    def __init__(
        self,
        engine: MemoryEngine | None = None,
        *,
        opener: Callable[[], MemoryEngine] | None = None,
        store_label: str = "",
        agent_hint: str | None = None,
        agent: str | None = None,
        theme: str | None = None,
        user_config: bool = True,
        follow: bool = False,
    ) -> None:
        if (engine is None) == (opener is None):
            raise ValueError("give an engine or an opener, not both")
        super().__init__()
        self._engine = engine
        self.opener = opener
        self.store_label = store_label
        #: The agent the opening screen names before the settings are read.
        self.agent_hint = agent_hint
        #: What stopped the engine from opening (the app has exited with its code).
        self.start_error: Exception | None = None
        #: Start in follow mode (``--follow``): the panes keep up with other writers.
        self.follow_on_start = follow
        self.initial_agent = agent
        self.user_config = user_config
        #: The choices remembered in the user config (theme, layout, sort orders); kept
        #: nowhere when the app leaves the user's configuration alone.
        self.preferences = PreferenceStore(config_dir() / FILE_NAME if user_config else None)
        remembered = self.preferences.load().theme
        self.wanted_theme = theme or remembered or DEFAULT_THEME
        self.startup_problems: list[str] = []
        #: The last notifications (title, message), kept after they fade from the screen.
        self.notice_log: deque[tuple[str, str]] = deque(maxlen=200)
        #: The keys rebound by binding id (keymap.toml), for the help screen to list.
        self.keymap: dict[str, str] = {}
        #: The main screen, once the store is open: the store-wide screens open over it.
        self.main_screen: MainScreen | None = None

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show a notification and remember it in ``notice_log``."""
        self.notice_log.append((title, message))
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    # -------------------------------------------------------- how work ended
    # A write's outcome bubbles up here once the main screen has logged it and started
    # the reload; the app says it.
    def on_action_done(self, message: ActionDone) -> None:
        """Say what changed."""
        self.notify(one_line(message.message, 300), title="Done", markup=False)

    def on_bulk_done(self, message: BulkDone) -> None:
        """Say what a bulk write did and left alone."""
        said = one_line(message.message, 600)
        if message.left:
            self.notify(said, title="Done, in part", severity="warning", timeout=12, markup=False)
        else:
            self.notify(said, title="Done", markup=False)

    def on_note_pane_sorted(self, message: NotePane.Sorted) -> None:
        """Remember the order a pane was sorted in for the next start."""
        self.preferences.update(sort={message.pane.which: message.order.to_text()})

    def set_keymap(self, keymap: Keymap) -> None:
        """Rebind keys by binding id (keymap.toml); remembered in ``keymap``."""
        self.keymap = {str(k): key_list(v) for k, v in keymap.items()}
        super().set_keymap(keymap)

    def update_keymap(self, keymap: Keymap) -> None:
        """Rebind more keys by binding id, over those rebound before."""
        self.keymap = {**self.keymap, **{str(k): key_list(v) for k, v in keymap.items()}}
        super().update_keymap(keymap)

    @property
    def engine(self) -> MemoryEngine:
        """The engine every screen acts through (open once the main screen shows)."""
        if self._engine is None:
            raise RuntimeError("the store is still opening")
        return self._engine

    @property
    def engine_open(self) -> bool:
        """True once the engine is open."""
        return self._engine is not None

    @property
    def read_only(self) -> bool:
        """True when writes are off."""
        return self.engine.read_only

    def on_mount(self) -> None:
        """Themes and keymap first, then the main screen; the model loads after the first frame."""
        folders = [bundled_theme_dir()]
        if self.user_config:
            folders.append(user_theme_dir())
        themes, problems = load_themes(*folders)
        for theme in themes:
            self.register_theme(theme)
        self.startup_problems += problems
        if self.wanted_theme in self.available_themes:
            self.theme = self.wanted_theme
        if self.preferences.problem:
            self.startup_problems.append(self.preferences.problem)
        # Subscribed once the theme is set: only a theme the user picks is remembered.
        self.theme_changed_signal.subscribe(self, self._theme_chosen)
        if self.user_config:
            keymap, problem = read_keymap(config_dir() / "keymap.toml")
            self.startup_problems += [problem] if problem else []
            if keymap:
                self.set_keymap(keymap)
        if self._engine is not None:
            self._show_main(self._engine)
            return
        # The worker starts once the empty layout is painted (imports hold the GIL).
        self.call_after_refresh(self._start_opening)

    def get_default_screen(self) -> Screen[Any]:
        """The opening screen, while the store opens: the first screen on the stack
        itself, so no empty default screen is laid out and drawn before it (a quarter
        of the first frame's own work)."""
        if self._engine is not None:
            return super().get_default_screen()
        agent = self.initial_agent or self.agent_hint
        return OpeningScreen(agent, self.store_label or "the store")

    def _theme_chosen(self, theme: Theme) -> None:
        self.preferences.update(theme=theme.name)

    def _show_main(self, engine: MemoryEngine) -> None:
        from amem_tui.tui.screens.main import MainScreen

        opening = self.screen if isinstance(self.screen, OpeningScreen) else None
        draft = opening.draft if opening is not None else ("", False)
        screen = MainScreen(
            engine,
            self.initial_agent,
            draft,
            early=opening.shown_answer if opening is not None else None,
            follow=self.follow_on_start,
            preferences=self.preferences,
        )
        # On top of the opening screen, which is the stack's first: Textual empties the
        # stack when its first screen is switched away.
        self.push_screen(screen)
        self.main_screen = screen
        if opening is not None:
            opening.retire()
        for problem in self.startup_problems:
            self.notify(problem, title="Configuration", severity="warning", markup=False)
        self.call_after_refresh(self._start_model_load)
        # Handed back at once too: the start (the store's load, the model, the keyword
        # index) is the peak otherwise.
        self._release_memory()
        self.set_interval(tuning.HAND_BACK_EVERY, self._release_memory, name="release-memory")

    def _release_memory(self) -> None:
        self.run_worker(
            self._engine_release, thread=True, exclusive=True, exit_on_error=False, group="release"
        )

    def _engine_release(self) -> None:
        if self._engine is not None:
            tuning.hand_back_pages(self._engine)

    def _start_opening(self) -> None:
        self.run_worker(self._open_engine, thread=True, exit_on_error=False, group="open")

    def _open_engine(self) -> None:
        """In a worker thread: settings, store and the main screen's modules."""
        assert self.opener is not None
        try:
            engine = self.opener()
            import amem_tui.tui.screens.main  # noqa: F401  (loaded here, off the UI thread)
        except Exception as exc:
            with contextlib.suppress(RuntimeError):  # the app already closed
                self.call_from_thread(self._open_failed, exc)
            return
        try:
            self.call_from_thread(self._opened, engine)
        except RuntimeError:  # the app closed while the store opened
            engine.close()

    def answer_early(self, searcher: SavedIndexSearch | None) -> None:
        """From the thread opening the store, before it loads: let the opening screen
        answer typed queries from ``searcher`` (the saved index), and return once the
        query in the box has its answer on screen and the typing has paused (see
        ``OpeningScreen.wait_for_answer``), or at once when there is nothing to answer
        with."""
        if searcher is None:
            return
        try:
            screen = self.call_from_thread(self._early_screen, searcher)
        except RuntimeError:  # the app closed meanwhile
            return
        if screen is not None:
            screen.wait_for_answer()

    def _early_screen(self, searcher: SavedIndexSearch) -> OpeningScreen | None:
        screen = self.screen
        if not isinstance(screen, OpeningScreen):
            return None
        screen.answer_early(searcher)
        return screen

    def _opened(self, engine: MemoryEngine) -> None:
        self._engine = engine
        self._show_main(engine)

    def _open_failed(self, error: Exception) -> None:
        self.start_error = error
        self.exit(return_code=error.exit_code if isinstance(error, AmemError) else 1)

    def _start_model_load(self) -> None:
        if self.engine.embedder.loaded:
            return
        self.model_note = "loading model…"
        self.run_worker(self._load_model, thread=True, exit_on_error=False, group="model")

    def _load_model(self) -> None:
        try:
            self.engine.embedder.load()
            # The agents' own models (an openclaw-amem collection's bge-m3), loaded here
            # too so a search never waits for them; one that fails says so on its search.
            self.engine.load_models()
        except AmemError as exc:
            self._model_noted(f"model unavailable: {exc}")
            return
        except Exception as exc:
            self._model_noted(f"model unavailable: {type(exc).__name__}")
            return
        tuning.settle(self.engine)
        self._model_noted(None)

    def _model_noted(self, note: str | None) -> None:
        """Set ``model_note`` from the model's worker thread."""
        self.call_from_thread(setattr, self, "model_note", note)

    def action_help(self) -> None:
        """Open the help screen (F1)."""
        from amem_tui.tui.screens.help import HelpScreen  # only when asked for

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
            return
        rows = help_rows(self.keymap, self.get_key_display)
        rows.append(("tab", "next pane (the tabs, when narrow) or area; shift+tab back", ""))
        rows.append(("ctrl+p", "command palette", ""))
        self.push_screen(HelpScreen(rows))

    # ---------------------------------------------------- store-wide screens
    # Opened by the main screen's keys, over it; each gives back the note chosen there,
    # if any, for the main screen to show (``MainScreen.jump_to``). Each is imported
    # where it opens: the first frame needs none of them.
    def _main(self) -> MainScreen:
        if self.main_screen is None:
            raise RuntimeError("the store is still opening")
        return self.main_screen

    def action_overview(self) -> None:
        """The overview of the whole store (built in a worker, with progress)."""
        from amem_tui.tui.screens.overview import OverviewScreen

        main = self._main()
        overview = OverviewScreen(self.engine, following=main.follow_bar.following)
        self.push_screen(overview, main.jump_to)

    def action_graph(self) -> None:
        """The subject's links, two out both ways, as the agent sees them."""
        from amem_tui.tui.screens.graph import GraphScreen

        main = self._main()
        if main.scope is None or (note := main.subject()) is None:
            self.notify("Highlight a note first: its links are shown.", markup=False)
            return
        self.push_screen(GraphScreen(self.engine, main.scope, note.id))

    def action_audit(self) -> None:
        """The audit report of the whole store (Enter on a row goes to its note)."""
        from amem_tui.tui.screens.audit import AuditScreen

        self.push_screen(AuditScreen(self.engine.audit), self._main().jump_to)

    def action_leaks(self) -> None:
        """The leak audit of the whole store (Enter on a finding goes to its note as the
        agent the leak reaches)."""
        from amem_tui.tui.screens.leaks import LeaksScreen

        self.push_screen(LeaksScreen(self.engine.leaks), self._main().jump_to)

    def action_conflicts(self) -> None:
        """The flagged pairs the agent can read, to settle (Enter goes to note A)."""
        from amem_tui.tui.screens.conflicts import ConflictsScreen

        main = self._main()
        screen = ConflictsScreen(self.engine, main.scope)

        def closed(target: JumpTarget | None) -> None:
            if target is None and screen.changed:
                main.reload_scope()  # a decision retired or changed notes listed there
            main.jump_to(target)

        self.push_screen(screen, closed)

    def action_compare(self) -> None:
        """Compare the agent's view with another agent's (Enter on a row goes to it)."""
        from amem_tui.tui.screens.compare import CompareScreen

        main = self._main()
        self.push_screen(CompareScreen(self.engine, main.scope), main.jump_to)

    def action_activity_log(self) -> None:
        """Show what follow mode has seen happen."""
        from amem_tui.tui.screens.activity import ActivityScreen

        bar = self._main().follow_bar
        self.push_screen(ActivityScreen(bar.activity, bar.following))
