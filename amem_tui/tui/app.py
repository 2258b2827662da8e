"""The Textual inspector app and its entry point ``run(settings)``."""

from __future__ import annotations

import sys
import tomllib
from collections import deque
from typing import TYPE_CHECKING, ClassVar

from textual.app import App
from textual.binding import BindingType
from textual.notifications import SeverityLevel

from amem_tui.engine.errors import AmemError, ModelUnavailable, StoreUnavailable
from amem_tui.paths import config_dir
from amem_tui.tui.actions import APP_ACTIONS, bindings, help_rows
from amem_tui.tui.commands import AmemCommands
from amem_tui.tui.messages import ModelState
from amem_tui.tui.screens.main import MainScreen
from amem_tui.tui.themes import bundled_theme_dir, load_themes, user_theme_dir

if TYPE_CHECKING:
    from amem_tui.config import Settings
    from amem_tui.engine.engine import MemoryEngine

DEFAULT_THEME = "amem-dark"


class AmemApp(App[int]):
    """The inspector: one engine, one agent at a time, every action through the engine."""

    CSS_PATH = "app.tcss"
    TITLE = "amem-tui"
    COMMANDS = App.COMMANDS | {AmemCommands}
    BINDINGS: ClassVar[list[BindingType]] = bindings(APP_ACTIONS)

    def __init__(
        self,
        engine: MemoryEngine,
        *,
        agent: str | None = None,
        theme: str | None = None,
        user_config: bool = True,
        follow: bool = False,
    ) -> None:
        super().__init__()
        self.engine = engine
        #: Start in follow mode (``--follow``): the panes keep up with other writers.
        self.follow_on_start = follow
        self.initial_agent = agent
        self.wanted_theme = theme or DEFAULT_THEME
        self.user_config = user_config
        self.startup_problems: list[str] = []
        #: The last notifications (title, message), kept after they fade from the screen.
        self.notice_log: deque[tuple[str, str]] = deque(maxlen=200)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show a notification and remember it in :attr:`notice_log`."""
        self.notice_log.append((title, message))
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

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
        if self.user_config:
            self._load_keymap()
        self.push_screen(MainScreen(self.engine, self.initial_agent))
        for problem in self.startup_problems:
            self.notify(problem, title="Configuration", severity="warning", markup=False)
        self.call_after_refresh(self._start_model_load)

    def _load_keymap(self) -> None:
        path = config_dir() / "keymap.toml"
        if not path.is_file():
            return
        try:
            keymap = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            self.startup_problems.append(f"{path.name}: {exc}")
            return
        self.set_keymap({str(k): str(v) for k, v in keymap.items() if isinstance(v, str)})

    def _start_model_load(self) -> None:
        if self.engine.embedder.loaded:
            return
        self._post_model(False, "loading model…")
        self.run_worker(self._load_model, thread=True, exit_on_error=False, group="model")

    def _load_model(self) -> None:
        try:
            self.engine.embedder.load()
        except AmemError as exc:
            self._post_model(False, f"model unavailable: {exc}")
            return
        except Exception as exc:
            self._post_model(False, f"model unavailable: {type(exc).__name__}")
            return
        self._post_model(True)

    def _post_model(self, ready: bool, detail: str = "") -> None:
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                screen.post_message(ModelState(ready, detail))

    def action_help(self) -> None:
        """Open the help screen (F1)."""
        from amem_tui.tui.screens.help import HelpScreen  # only when asked for

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
            return
        keymap: dict[str, str] = dict(getattr(self, "_keymap", {}) or {})
        rows = help_rows(keymap, self.get_key_display)
        rows.append(("tab", "next pane (the tabs, when narrow) or area; shift+tab back", ""))
        rows.append(("ctrl+p", "command palette", ""))
        self.push_screen(HelpScreen(rows))


def run(settings: Settings, follow: bool = False) -> int:
    """Open the store the settings name and run the inspector; the exit code is returned.

    A store that cannot be opened (held by another process, unreachable) ends
    with a clear message and exit code 5, never a traceback. ``follow`` starts in
    follow mode.
    """
    from amem_tui.engine.engine import MemoryEngine

    try:
        engine = MemoryEngine(settings)
    except (StoreUnavailable, ModelUnavailable) as exc:
        print(f"amem-tui: {exc}", file=sys.stderr)
        return exc.exit_code
    try:
        app = AmemApp(engine, follow=follow)
        app.run()
    finally:
        engine.close()
    return int(app.return_code or 0)
