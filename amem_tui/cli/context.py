"""What a subcommand runs with: the settings from the command line and the engine,
opened only when a handler first asks for it (``--help`` and the TUI start never do)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from amem_tui.config import Settings, load_settings
from amem_tui.paths import data_dir

if TYPE_CHECKING:
    from amem_tui.engine.engine import MemoryEngine


class Context:
    """The settings and a lazily opened engine."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._engine: MemoryEngine | None = None

    @property
    def engine(self) -> MemoryEngine:
        """The engine, opened on first use."""
        if self._engine is None:
            from amem_tui.engine.engine import MemoryEngine  # heavy: only when a command runs

            self._engine = MemoryEngine(self.settings)
        return self._engine

    def acting_agent(self) -> str:
        """The agent the command acts as (``--agent``, ``--session-key`` or the default)."""
        return self.engine.scope().agent

    def names_an_agent(self) -> bool:
        """Whether the command line (or environment) named the acting agent."""
        return bool(self.settings.agent or self.settings.session_key)

    def close(self) -> None:
        """Close the engine if it was opened."""
        if self._engine is not None:
            self._engine.close()


def settings_from_args(args: argparse.Namespace) -> Settings:
    """Settings from the parsed command line (flags beat environment and file)."""
    command = getattr(args, "command", None)
    store = getattr(args, "store", None)
    if store is None and command == "demo" and not getattr(args, "url", None):
        store = str(data_dir() / "demo")
    config = getattr(args, "config", None)
    flags = {
        "store_path": store,
        "url": getattr(args, "url", None),
        "config_file": Path(config).expanduser() if config else None,
        "collection": getattr(args, "collection", None),
        "agent": getattr(args, "agent", None),
        "session_key": getattr(args, "session_key", None),
        "model": getattr(args, "model", None),
        "read_only": getattr(args, "read_only", None),
    }
    settings = load_settings(flags)
    if command == "demo":
        from amem_tui.demo import demo_settings  # the demo's notes: only for this command

        settings = demo_settings(settings)
    return settings
