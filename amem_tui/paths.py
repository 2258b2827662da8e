"""Where amem-tui keeps its files: the user's data, configuration and cache folders.

Kept apart from ``amem_tui.config`` (which validates settings with pydantic) so that
the TUI can find its themes and keymap before its first frame without loading it.
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_cache_dir, user_config_dir, user_data_dir

APP_NAME = "amem-tui"


def data_dir() -> Path:
    """Where the embedded store lives by default (``AMEM_DATA_DIR`` overrides)."""
    return Path(os.environ.get("AMEM_DATA_DIR") or user_data_dir(APP_NAME, appauthor=False))


def default_store_dir() -> Path:
    """The embedded store used when nothing names another."""
    return data_dir() / "store"


def demo_dir() -> Path:
    """Where ``amem-tui demo`` keeps its embedded store unless told otherwise."""
    return data_dir() / "demo"


def config_dir() -> Path:
    """Where user themes, the keymap and ``config.toml`` live (``AMEM_CONFIG_DIR``)."""
    return Path(os.environ.get("AMEM_CONFIG_DIR") or user_config_dir(APP_NAME, appauthor=False))


def cache_dir() -> Path:
    """Where the assembled model folder and saved indexes live (``AMEM_CACHE_DIR``)."""
    return Path(os.environ.get("AMEM_CACHE_DIR") or user_cache_dir(APP_NAME, appauthor=False))


def missing_folder(store_path: str | Path | None) -> Path | None:
    """The embedded store folder ``store_path`` names, if it does not exist yet (None:
    it exists, or names no folder: nothing, or ``:memory:``)."""
    if store_path is None or str(store_path) == ":memory:":
        return None
    folder = Path(store_path).expanduser()
    return None if folder.exists() else folder
