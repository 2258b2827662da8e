"""How answers reach the terminal: JSON, plain text, and the note block they share.

Everything printed goes through here, so every path escapes control characters the
same way: a note's content can never move the cursor or restyle the terminal.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from amem_tui.engine.models import MemoryNote

Data = TypeVar("Data")

#: A note as JSON: ``{"id": ..., <payload fields>}``.
NoteJson = dict[str, Any]


def shorten(text: str, width: int = 80) -> str:
    """``text`` on one line (runs of white space as one space), cut to ``width`` with "…"."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def agent_names(names: Sequence[str], most: int = 8) -> str:
    """A list of agent names, cut short when huge (a note may list thousands of readers)."""
    shown = repr(list(names[:most]))
    if len(names) > most:
        shown = shown[:-1] + f", … +{len(names) - most} more]"
    return shown


def note_json(note: MemoryNote) -> NoteJson:
    """A note as ``{"id": ..., <payload fields>}``."""
    return {"id": note.id, **note.to_payload()}


def note_text(note: MemoryNote) -> str:
    """A short human-readable block for one note."""
    state = "" if note.active else " (soft-deleted)"
    if note.low_quality:
        state += " (low quality: check before trusting)"
    lines = [
        f"{note.id}{state}",
        f"  agent_id={note.agent_id} owner={note.effective_owner} "
        f"readers={agent_names(note.effective_readers)} "
        f"writers={agent_names(note.effective_writers)}",
        f"  {shorten(note.content)}",
    ]
    if note.tags:
        lines.append(f"  tags: {', '.join(note.tags)}")
    return "\n".join(lines)


def note_json_text(data: NoteJson) -> str:
    """The note block for a note given as JSON (what the note commands answer)."""
    from amem_tui.engine.models import MemoryNote  # pydantic: not needed to build the parser

    payload = {key: value for key, value in data.items() if key != "id"}
    return note_text(MemoryNote.from_payload(data["id"], payload))


def sanitize(text: str) -> str:
    """Printable text for a terminal: control characters shown as escapes."""
    return "".join(
        ch if ch.isprintable() or ch in "\n\t" else ch.encode("unicode_escape").decode()
        for ch in text
    )


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code > 0xFFFF:  # JSON spells astral characters as a surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_text(data: object) -> str:
    """``data`` as JSON that is safe to print: non-printable characters as \\u escapes.

    ``json.dumps`` leaves DEL, C1 controls, bidi overrides and lone surrogates raw;
    outside strings JSON holds only spaces and newlines, so escaping every other
    non-printable character keeps the same value and cannot restyle a terminal.
    """
    raw = json.dumps(data, ensure_ascii=False, indent=2, default=str)
    return "".join(ch if ch.isprintable() or ch == "\n" else _json_escape(ch) for ch in raw)


def emit(data: Data, as_json: bool, text: Callable[[Data], str]) -> None:
    """Print a command's answer: as JSON, or through its text renderer (nothing if empty).

    ``None`` is the answer of a command that has written its output itself.
    """
    if data is None:
        return
    if as_json:
        print(json_text(data))
    else:
        rendered = text(data)
        if rendered:
            print(sanitize(rendered))
