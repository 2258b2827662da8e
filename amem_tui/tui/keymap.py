"""The keys a user rebinds in ``keymap.toml`` (binding id = keys), read at start."""

from __future__ import annotations

import tomllib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


def read_keymap(path: Path) -> tuple[dict[str, str], str | None]:
    """The keys ``path`` gives each binding id, and what is wrong with the file if it
    cannot be read (None: nothing; a missing file rebinds nothing)."""
    if not path.is_file():
        return {}, None
    try:
        keymap = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        return {}, f"{path.name}: {exc}"
    return {str(k): str(v) for k, v in keymap.items() if isinstance(v, str)}, None


def key_list(keys: str) -> str:
    """Keys as a binding holds them: comma-separated, no spaces around the commas."""
    return ",".join(key.strip() for key in keys.split(","))
