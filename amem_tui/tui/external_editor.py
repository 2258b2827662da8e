"""Editing a note's text in the user's own editor (``$VISUAL``, else ``$EDITOR``, else vi).

The app hands the terminal over (``App.suspend``) while the editor runs on a
temporary file, then reads the file back. Nothing here writes a note: the caller
decides what the text means (an update through the engine, or nothing).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import SuspendNotSupported

if TYPE_CHECKING:
    from textual.app import App

#: The editor when neither variable names one (POSIX systems have it).
FALLBACK_EDITOR = "vi"


class EditorUnavailable(Exception):
    """The editor could not run (not found, no terminal to lend it, or it failed)."""


@dataclass(frozen=True)
class Edited:
    """What came back from the editor: the text, and whether it differs."""

    text: str
    changed: bool


def editor_command(env: dict[str, str] | None = None) -> list[str]:
    """The editor's command line, as the shell would split ``$VISUAL`` or ``$EDITOR``."""
    env = dict(os.environ) if env is None else env
    line = (env.get("VISUAL") or env.get("EDITOR") or FALLBACK_EDITOR).strip()
    return shlex.split(line) or [FALLBACK_EDITOR]


def edit_in_editor(app: App[object], text: str, name: str = "note") -> Edited:
    """Let the user edit ``text`` in their editor; the app is suspended meanwhile.

    The file ends with a newline, as editors keep it; the one added is taken off again,
    so an untouched file is "unchanged". Raises ``EditorUnavailable`` when the
    editor cannot run or exits with a failure (then nothing is to be saved).
    """
    command = editor_command()
    added = "" if text.endswith("\n") else "\n"
    with tempfile.TemporaryDirectory(prefix="amem-tui-") as folder:
        path = Path(folder) / f"{name}.md"
        path.write_text(text + added, encoding="utf-8")
        code = _run(app, [*command, str(path)])
        if code != 0:
            raise EditorUnavailable(
                f"The editor ({command[0]}) exited with status {code}: nothing was saved."
            )
        try:
            back = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise EditorUnavailable(f"The edited file cannot be read back ({exc}).") from None
    if added and back.endswith("\n"):
        back = back[:-1]
    return Edited(back, changed=back != text)


def _run(app: App[object], argv: list[str]) -> int:
    try:
        try:
            with app.suspend():
                return subprocess.call(argv)
        except SuspendNotSupported:
            if not app.is_headless:  # served to a browser: no terminal to lend
                raise EditorUnavailable(
                    "An editor needs the terminal, and this inspector has none to lend "
                    "(it is served to a browser): use e to edit in the app."
                ) from None
            # Headless (scripts, tests): nothing to hand over, the editor runs as it is.
            return subprocess.call(argv, stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        raise EditorUnavailable(
            f"No editor {argv[0]!r} found: set $EDITOR (or $VISUAL) to the one you use."
        ) from None
    except OSError as exc:
        raise EditorUnavailable(f"The editor {argv[0]!r} could not start ({exc}).") from None
