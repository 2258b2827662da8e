"""Textual themes from data files: ours inside the package, the user's in the config folder.

Our theme files live in the repository's top-level ``themes/`` folder; the distribution
installs that folder as the data package ``THEME_PACKAGE`` (see pyproject.toml), so they
are read with ``importlib.resources`` from a wheel, a regular install and an editable
install alike. A bundled theme that cannot be found is an incomplete installation and
raises ``BundledThemeMissing``: the app never quietly falls back to Textual's theme.
"""

from __future__ import annotations

import tomllib
from dataclasses import fields
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from textual.theme import Theme

from amem_tui.paths import config_dir

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

#: The data package that holds our theme files.
THEME_PACKAGE = "amem_tui.themes"

#: The themes every installation ships (file ``<name>.toml`` holds theme ``<name>``).
BUNDLED_THEMES = ("amem-dark", "amem-light")

_FIELDS = {f.name for f in fields(Theme)}


class BundledThemeMissing(RuntimeError):
    """A theme that ships with amem-tui is not where the installed package keeps it."""


def bundled_theme_dir() -> Traversable:
    """The folder of theme files shipped inside the package.

    Raises ``BundledThemeMissing`` when the data package or one of
    ``BUNDLED_THEMES`` is missing.
    """
    try:
        folder = resources.files(THEME_PACKAGE)
    except ModuleNotFoundError:
        raise BundledThemeMissing(
            f"the bundled themes (package {THEME_PACKAGE}) are not installed; reinstall "
            "amem-tui (in a source checkout: pip install -e .)"
        ) from None
    missing = [name for name in BUNDLED_THEMES if not folder.joinpath(f"{name}.toml").is_file()]
    if missing:
        raise BundledThemeMissing(
            f"bundled theme files missing from {folder}: "
            + ", ".join(f"{name}.toml" for name in missing)
            + "; reinstall amem-tui"
        )
    return folder


def bundled_theme(name: str) -> Theme:
    """One of our own themes, by name; ``BundledThemeMissing`` if there is none."""
    path = bundled_theme_dir().joinpath(f"{name}.toml")
    if not path.is_file():
        raise BundledThemeMissing(
            f"no bundled theme named {name!r}; the bundled themes are " + ", ".join(BUNDLED_THEMES)
        )
    return load_theme(path)


def user_theme_dir() -> Path:
    """Where a user puts their own theme files."""
    return config_dir() / "themes"


def load_theme(path: Traversable) -> Theme:
    """One theme from a TOML file (keys as ``textual.theme.Theme`` names them)."""
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


def load_themes(*folders: Traversable) -> tuple[list[Theme], list[str]]:
    """Every theme in the folders, and a message for each file that could not be used.

    A folder that does not exist holds no themes (a user need not create one).
    """
    themes: list[Theme] = []
    problems: list[str] = []
    for folder in folders:
        if not folder.is_dir():
            continue
        files = sorted(
            (entry for entry in folder.iterdir() if entry.name.endswith(".toml")),
            key=lambda entry: entry.name,
        )
        for path in files:
            try:
                themes.append(load_theme(path))
            except Exception as exc:  # a user's file must never stop the app
                problems.append(f"theme {path.name}: {type(exc).__name__}: {exc}")
    return themes, problems
