"""Textual themes from data files: ours in ``themes/``, the user's in the config folder."""

from __future__ import annotations

import tomllib
from dataclasses import fields
from pathlib import Path

from textual.theme import Theme

from amem_tui.config import config_dir

_FIELDS = {f.name for f in fields(Theme)}


def bundled_theme_dir() -> Path:
    """The ``themes/`` folder shipped with the project."""
    return Path(__file__).resolve().parents[2] / "themes"


def user_theme_dir() -> Path:
    """Where a user puts their own theme files."""
    return config_dir() / "themes"


def load_theme(path: Path) -> Theme:
    """One theme from a TOML file (keys as :class:`textual.theme.Theme` names them)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    unknown = set(data) - _FIELDS
    if unknown:
        raise ValueError(f"unknown keys {sorted(unknown)}")
    if "name" not in data or "primary" not in data:
        raise ValueError("a theme needs at least 'name' and 'primary'")
    theme = Theme(**data)
    try:
        theme.to_color_system()  # fail here on a bad colour, not while drawing
    except Exception as exc:
        raise ValueError(f"not a usable theme: {exc}") from None
    return theme


def load_themes(*folders: Path) -> tuple[list[Theme], list[str]]:
    """Every theme in the folders, and a message for each file that could not be used."""
    themes: list[Theme] = []
    problems: list[str] = []
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.toml")):
            try:
                themes.append(load_theme(path))
            except Exception as exc:  # a user's file must never stop the app
                problems.append(f"theme {path.name}: {type(exc).__name__}: {exc}")
    return themes, problems
