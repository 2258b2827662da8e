"""Save as check: the query in the search box, its agent and its top hits, as a
``[[check]]`` table that ``amem-tui check FILE`` runs (see ``docs/isolation.md``).

The table is appended to the file the user picks; what the file holds already is kept
as it is. The text is built here and read back with the engine's own checks parser
before anything is written, so a saved file always passes ``check``'s syntax rules.
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from amem_tui.engine.for_apps import parse_checks
from amem_tui.tui.query_syntax import parse_query

#: The file offered when none was used before (in the folder the app was started in).
DEFAULT_FILE = "amem-checks.toml"
#: How many hits the check expects (``check``'s own default ``top``).
EXPECTED = 5


def toml_string(value: str) -> str:
    """``value`` as a TOML basic string (JSON's escapes are TOML's, but DEL)."""
    return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")


@dataclass(frozen=True)
class SavedCheck:
    """What a check records: the agent (a mem0 namespace, or an agent id), the query as
    typed, and the ids of its top hits, best first."""

    agent: str
    typed: str
    hits: Sequence[str]

    def table(self) -> str:
        """The ``[[check]]`` table, ending with a newline."""
        query = parse_query(self.typed)
        lines = [
            "[[check]]",
            f"name = {toml_string(f'{self.agent} recalls {query.text!r}')}",
            f"agent = {toml_string(self.agent)}",
            f"query = {toml_string(query.text)}",
        ]
        if query.subject is not None:
            lines.append(f"subject = {toml_string(query.subject)}")
        expected = ", ".join(toml_string(note) for note in self.hits[:EXPECTED])
        lines.append(f"expect = [{expected}]")
        return "\n".join(lines) + "\n"


def appended(existing: str, table: str) -> str:
    """The file's text with ``table`` added at its end (a blank line between)."""
    if not existing.strip():
        return table
    return existing.rstrip("\n") + "\n\n" + table


def read_existing(path: Path) -> str:
    """What the file holds now ("" when there is no file yet); OSError when it cannot
    be read."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


def diff_lines(path: Path, before: str, after: str) -> list[str]:
    """A unified diff of the file before and after (what saving adds)."""
    return list(
        difflib.unified_diff(
            before.splitlines(),
            after.splitlines(),
            fromfile=str(path),
            tofile=str(path),
            lineterm="",
        )
    )


def refusal(path: Path, after: str) -> str | None:
    """Why ``after`` cannot be written to ``path`` (None: it can): the checks it would
    hold are not valid, or the folder is missing or not writable."""
    try:
        parse_checks(after, str(path))
    except Exception as exc:  # CheckFileError: the file held something else already
        return f"{path} would not be a valid checks file: {exc}"
    if path.is_dir():
        return f"{path} is a folder: name a file"
    folder = path.parent
    if not folder.is_dir():
        return f"{folder} does not exist"
    if path.exists() and not os.access(path, os.W_OK):
        return f"{path} is not writable"
    if not path.exists() and not os.access(folder, os.W_OK):
        return f"{folder} is not writable"
    return None


def write_checks(path: Path, after: str) -> None:
    """Write the file whole (write, then rename), so a reader never sees half of it."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(after, encoding="utf-8")
    if path.exists():
        shutil.copymode(path, tmp)  # the file keeps who may read it
    os.replace(tmp, path)
