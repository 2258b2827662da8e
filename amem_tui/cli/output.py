"""How answers reach the terminal: JSON, plain text, and the note block they share.

Everything printed goes through here, so every path escapes control characters the
same way: a note's content can never move the cursor or restyle the terminal.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from amem_tui.engine.models import MemoryNote
    from amem_tui.engine.scope import AgentScope

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


#: The mem0 fields a note block shows, in this order (see ``formats.mem0``).
MEM0_SHOWN = ("user_id", "run_id", "role", "actor_id", "mem0_agent_id", "updated_at")


def _references(ids: Sequence[str], unreadable: object) -> str:
    """Ids a note points at, then how many more the acting agent may not read."""
    parts = list(ids[:8]) + ([f"… +{len(ids) - 8} more"] if len(ids) > 8 else [])
    if isinstance(unreadable, int) and unreadable:
        parts.append(f"{unreadable} this agent cannot read")
    return ", ".join(parts)


def note_text(note: MemoryNote) -> str:
    """A short human-readable block for one note."""
    extra = note.model_extra or {}
    mem0 = extra.get("format") == "mem0"
    state = "" if note.active else " (soft-deleted)"
    if note.low_quality:
        state += " (low quality: check before trusting)"
    if mem0:
        state += " (mem0 memory, read-only)"
    lines = [
        f"{note.id}{state}",
        f"  agent_id={note.agent_id} owner={note.effective_owner} "
        f"readers={agent_names(note.effective_readers)} "
        f"writers={agent_names(note.effective_writers)}",
        f"  {shorten(note.content)}",
    ]
    if note.tags:
        lines.append(f"  tags: {', '.join(note.tags)}")
    for field, hidden, label in (
        ("links", "unreadable_links", "links"),
        ("conflicts_with", "unreadable_conflicts", "conflicts with"),
    ):
        ids: list[str] = getattr(note, field)
        unreadable = extra.get(hidden)
        if ids or unreadable:
            lines.append(f"  {label}: {_references(ids, unreadable)}")
    if mem0:
        facts = [f"{key}={extra[key]}" for key in MEM0_SHOWN if extra.get(key) is not None]
        if facts:
            lines.append(f"  mem0: {' '.join(facts)}")
        if extra.get("mem0_metadata"):
            lines.append(f"  metadata: {shorten(json.dumps(extra['mem0_metadata']), 76)}")
    return "\n".join(lines)


def mem0_view_json(scope: AgentScope) -> dict[str, Any]:
    """Which mem0 view a scope reads (``user``, ``namespace``, ``view``); nothing for an
    openclaw-amem scope, whose output keeps its shape."""
    if scope.user is None and scope.namespace is None:
        return {}
    return {"user": scope.user, "namespace": scope.namespace, "view": scope.view}


def scope_label(data: Mapping[str, Any]) -> str:
    """Who a listing or search acted as: ``agent dev (Mode A, amem_notes)``, or for a
    mem0 view ``user alice, agent dev (user_id alice:agent:dev, search view, mem0_384d)``."""
    where = f"agent {data['agent']} (Mode {data['mode']}, {data['collection']})"
    if data.get("namespace") is None and data.get("user") is None:
        return where
    return (
        f"user {data.get('user')}, agent {data['agent']} (user_id {data.get('namespace')}, "
        f"{data.get('view')} view, {data['collection']})"
    )


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


def json_text(data: object, *, one_line: bool = False) -> str:
    """``data`` as JSON that is safe to print: non-printable characters as \\u escapes.

    ``json.dumps`` leaves DEL, C1 controls, bidi overrides and lone surrogates raw;
    outside strings JSON holds only spaces and newlines, so escaping every other
    non-printable character keeps the same value and cannot restyle a terminal.
    ``one_line`` writes it on a single line (error and warning objects on stderr).
    """
    indent = None if one_line else 2
    raw = json.dumps(data, ensure_ascii=False, indent=indent, default=str)
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


# ------------------------------------------------------- errors and warnings
def error_kind(error: BaseException) -> str:
    """An error's kind as a JSON consumer matches it: ``PermissionDenied`` is
    ``permission_denied``, ``ReadOnlyStore`` is ``read_only_store``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(error).__name__).lower()


#: Facts an error may carry besides its message (the agent, the note, the rule, the
#: agents a mistyped name could have meant), copied into its JSON object.
ERROR_FACTS = ("agent", "note_id", "action", "rule", "known_agents")


def error_facts(error: BaseException) -> dict[str, Any]:
    """The :data:`ERROR_FACTS` an error carries (those it has and that are set)."""
    facts = {name: getattr(error, name, None) for name in ERROR_FACTS}
    if type(error).__name__ == "RunNotFound":  # a missing run says so under its own name
        facts["run_id"] = facts.pop("note_id")
    return {name: value for name, value in facts.items() if value is not None}


def _to_stderr(
    label: str, message: str, as_json: bool, facts: Mapping[str, Any], text_prefix: str
) -> None:
    if as_json:
        print(json_text({label: {"message": message, **facts}}, one_line=True), file=sys.stderr)
    else:
        line = " ".join(sanitize(message).split())
        print(f"amem-tui: {text_prefix}{line}", file=sys.stderr)


def report_error(
    message: str,
    code: int,
    as_json: bool,
    kind: str = "error",
    facts: Mapping[str, Any] | None = None,
) -> int:
    """Report a failure on stderr and return its exit code.

    As text: one line, ``amem-tui: <message>``. With ``--json``: one line holding a
    JSON object, ``{"error": {"message", "kind", "exit_code", <facts>}}``.
    """
    details = {"kind": kind, "exit_code": code, **(facts or {})}
    _to_stderr("error", message, as_json, details, "")
    return code


def warn(message: str, as_json: bool, kind: str, facts: Mapping[str, Any] | None = None) -> None:
    """A warning on stderr (the command goes on): ``amem-tui: warning: <message>``, or
    with ``--json`` one line holding ``{"warning": {"message", "kind", <facts>}}``."""
    _to_stderr("warning", message, as_json, {"kind": kind, **(facts or {})}, "warning: ")
