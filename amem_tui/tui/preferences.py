"""The inspector's remembered choices: the theme, the layout and each pane's sort order.

They live in ``inspector.toml`` in the user config folder (``amem_tui.paths.config_dir``,
``AMEM_CONFIG_DIR``), written by the app whenever a choice changes and read at its next
start. The file is the app's own (``config.toml`` beside it is the user's); a file that
cannot be read is reported and the defaults are used. Light on purpose: read before
the first frame, it imports nothing but the standard library.
"""

from __future__ import annotations

import contextlib
import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

#: The file's name in the config folder.
FILE_NAME = "inspector.toml"
#: How the main screen splits its height between the panes and the detail view.
LAYOUTS = ("even", "panes", "detail")
#: What each layout is called on screen.
LAYOUT_LABELS = {
    "even": "panes and detail share the height",
    "panes": "the panes take two thirds",
    "detail": "the detail takes two thirds",
}
PANES = ("private", "shared")


@dataclass(frozen=True)
class Preferences:
    """What the user chose last time (None or empty: the app's default)."""

    theme: str | None = None
    layout: str = "even"
    #: Per note pane, its sort order as ``Order.to_text`` writes it ("recalls desc").
    sort: dict[str, str] = field(default_factory=dict)


def parse(text: str) -> Preferences:
    """Preferences from the file's text; unknown or ill-typed values are ignored."""
    raw = tomllib.loads(text)
    theme = raw.get("theme")
    layout = raw.get("layout")
    sorts = raw.get("sort")
    return Preferences(
        theme=theme if isinstance(theme, str) and theme.strip() else None,
        layout=layout if layout in LAYOUTS else "even",
        sort={
            pane: value
            for pane, value in (sorts.items() if isinstance(sorts, dict) else ())
            if pane in PANES and isinstance(value, str)
        },
    )


def render(preferences: Preferences) -> str:
    """The file's text for ``preferences`` (TOML)."""
    lines = ["# Written by amem-tui: the inspector's last choices, restored at its start."]
    if preferences.theme:
        lines.append(f"theme = {_quoted(preferences.theme)}")
    lines.append(f"layout = {_quoted(preferences.layout)}")
    if preferences.sort:
        lines += ["", "[sort]"]
        lines += [f"{pane} = {_quoted(value)}" for pane, value in sorted(preferences.sort.items())]
    return "\n".join(lines) + "\n"


def _quoted(value: str) -> str:
    """A TOML basic string."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in escaped) + '"'


class PreferenceStore:
    """The remembered choices, and where they are kept (``path`` None: kept nowhere, as
    in tests and in an app told to leave the user's configuration alone)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.current = Preferences()
        #: Why the file could not be read or written, if it could not (said once).
        self.problem: str | None = None

    def load(self) -> Preferences:
        """Read the file (a missing one holds the defaults)."""
        if self.path is None:
            return self.current
        try:
            self.current = parse(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            pass
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            self.problem = f"{self.path.name}: {exc} (the defaults are used)"
        return self.current

    def update(self, **changes: Any) -> None:
        """Change some choices and write them at once (``sort`` is merged per pane)."""
        if "sort" in changes:
            changes["sort"] = {**self.current.sort, **changes["sort"]}
        updated = replace(self.current, **changes)
        if updated == self.current:
            return
        self.current = updated
        if self.path is None:
            return
        spare = self.path.with_suffix(".toml.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            spare.write_text(render(updated), encoding="utf-8")
            os.replace(spare, self.path)  # never a half-written file
        except OSError as exc:
            self.problem = f"{self.path.name} cannot be written: {exc}"
            with contextlib.suppress(OSError):
                spare.unlink()
