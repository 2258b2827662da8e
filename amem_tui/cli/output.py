"""How answers reach the terminal: JSON, plain text, and the note block they share.

Everything printed goes through here, so a note's content can never move the cursor
or restyle the terminal.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, TextIO, TypeVar

from pydantic import (
    Field,
    PlainSerializer,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    model_serializer,
)

from amem_tui.engine import ConsolidationRun, MemoryNote
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine import AgentScope

Result = TypeVar("Result")
T = TypeVar("T")


# ------------------------------------------------------------------ JSON
def note_json(note: MemoryNote) -> dict[str, Any]:
    """A note in an answer: its id, then its payload as it is stored."""
    return {"id": note.id, **note.to_payload()}


#: A note in a result (see ``note_json``).
Note = Annotated[MemoryNote, PlainSerializer(note_json)]
#: A consolidation run in a result: without its replay machinery.
Run = Annotated[ConsolidationRun, PlainSerializer(ConsolidationRun.to_json)]
#: A field the JSON answer holds only when it is set.
Omitted = Annotated[T | None, Field(exclude_if=lambda value: value is None)]
#: A field the text renderer reads but the JSON answer leaves out.
TextOnly = Annotated[T, Field(exclude=True)]


def flattened(*names: str) -> Any:
    """A result dataclass's serializer (``_json = flattened("note")``): its JSON object
    with the objects of the fields ``names`` merged in their place (a key already
    there keeps its place and takes the merged value; None merges nothing)."""

    def merge(self: object, dump: SerializerFunctionWrapHandler) -> dict[str, Any]:
        merged: dict[str, Any] = {}
        for key, value in dump(self).items():
            if key in names:
                merged.update(value or {})
            else:
                merged[key] = value
        return merged

    return model_serializer(mode="wrap")(merge)


def shorten(text: str, width: int = 80) -> str:
    """``text`` on one line, cut to ``width`` with "…"."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


# ------------------------------------------------------------------ text
# One renderer per shape of line that several commands print alike.
def note_row(note_id: str, content: str, width: int = 60) -> str:
    """A note in a list of hits or notes: its id, then its content cut to ``width``."""
    return f"{note_id}  {shorten(content, width)}"


def count_of(count: int, total: int, noun: str, plural_form: str | None = None) -> str:
    """Part of a whole: ``3 of 12 notes``."""
    return f"{count} of {plural(total, noun, plural_form)}"


def section(title: str, rows: Sequence[str], indent: str = "  ") -> list[str]:
    """A counted list: ``TITLE (N)``, then its rows, indented."""
    return [f"{title} ({len(rows)})", *(indent + row for row in rows)]


def finding_lines(severity: str, head: str, details: Sequence[str]) -> list[str]:
    """A problem or finding: its severity and what, then its details under it."""
    return [f"  {severity:<7} {head}", *(f"          {detail}" for detail in details)]


def decision_words(keep: str, a: str, b: str) -> str:
    """What a conflict decision keeps and retires (``b``: the note retired by ``A``)."""
    return {
        "A": f"keep {a}, retire {b}",
        "B": f"keep {b}, retire {a}",
        "both": f"keep both {a} and {b}: not a contradiction",
        "flag": f"clear the dangling flag on {a}",
    }[keep]


def agent_names(names: Sequence[str], most: int = 8) -> str:
    """Agent names, cut short when huge (a note may list thousands of readers)."""
    shown = repr(list(names[:most]))
    if len(names) > most:
        shown = shown[:-1] + f", … +{len(names) - most} more]"
    return shown


#: The mem0 fields a note block shows, in this order (see ``formats.mem0``).
MEM0_SHOWN = ("user_id", "run_id", "role", "actor_id", "mem0_agent_id", "updated_at")


def _references(ids: Sequence[str], unreadable: object) -> str:
    """Ids a note points at, then how many more the acting agent may not read."""
    parts = list(ids[:8]) + ([f"… +{len(ids) - 8} more"] if len(ids) > 8 else [])
    if isinstance(unreadable, int) and unreadable:
        parts.append(f"{unreadable} this agent cannot read")
    return ", ".join(parts)


def note_lines(note: MemoryNote) -> Iterator[str]:
    """A short human-readable block for one note."""
    extra = note.model_extra or {}
    mem0 = extra.get("format") == "mem0"
    state = "" if note.active else " (soft-deleted)"
    if note.low_quality:
        state += " (low quality: check before trusting)"
    if mem0:
        state += " (mem0 memory, read-only)"
    yield f"{note.id}{state}"
    yield (
        f"  agent_id={note.agent_id} owner={note.effective_owner} "
        f"readers={agent_names(note.effective_readers)} "
        f"writers={agent_names(note.effective_writers)}"
    )
    yield f"  {shorten(note.content)}"
    if note.tags:
        yield f"  tags: {', '.join(note.tags)}"
    if not mem0:
        from amem_tui.engine.for_apps import selective_sentence

        truth = selective_sentence(note)
        if truth:
            yield f"  {shorten(truth, 160)}"
    for field, hidden, label in (
        ("links", "unreadable_links", "links"),
        ("conflicts_with", "unreadable_conflicts", "conflicts with"),
    ):
        ids: list[str] = getattr(note, field)
        unreadable = extra.get(hidden)
        if ids or unreadable:
            yield f"  {label}: {_references(ids, unreadable)}"
    if mem0:
        facts = [f"{key}={extra[key]}" for key in MEM0_SHOWN if extra.get(key) is not None]
        if facts:
            yield f"  mem0: {' '.join(facts)}"
        if extra.get("mem0_metadata"):
            yield f"  metadata: {shorten(json.dumps(extra['mem0_metadata']), 76)}"


def mem0_fields(scope: AgentScope) -> dict[str, Any]:
    """The mem0 view a scope reads (the user, the exact ``user_id`` and the view), as an
    answer's JSON adds it; none for an openclaw-amem scope."""
    if not scope.is_mem0_view:
        return {}
    return {"user": scope.user, "namespace": scope.namespace, "view": scope.view}


def scope_label(agent: str, mode: str, collection: str, scope: AgentScope) -> str:
    """Who a listing or search acted as: ``agent dev (Mode A, amem_notes)`` (a mem0
    ``scope``: its user, ``user_id`` and view too)."""
    if not scope.is_mem0_view:
        return f"agent {agent} (Mode {mode}, {collection})"
    return (
        f"user {scope.user}, agent {agent} (user_id {scope.namespace}, "
        f"{scope.view} view, {collection})"
    )


def sanitize(text: str) -> str:
    """Printable text for a terminal: control characters shown as escapes."""
    return "".join(
        ch if ch.isprintable() or ch in "\n\t" else ch.encode("unicode_escape").decode()
        for ch in text
    )


def json_text(data: object, *, one_line: bool = False) -> str:
    """``data`` as JSON safe to print (see ``engine.words.json_escaped``), its line
    breaks kept."""
    from amem_tui.engine.for_apps import json_escaped

    indent = None if one_line else 2
    return json_escaped(json.dumps(data, ensure_ascii=False, indent=indent, default=str), "\n")


class JsonLines:
    """An answer streamed as JSON values, one per line (an export): JSON Lines as text,
    with ``--json`` the items of one JSON array, so that no size has to fit in memory."""

    def lines(self) -> Iterator[str]:
        """Each value as one line of JSON with nothing a terminal obeys, in order."""
        raise NotImplementedError


#: What a text renderer gives: the answer's lines, or its whole text.
Rendered = str | Iterable[str]


def emit(result: Result, as_json: bool, text: Callable[[Result], Rendered], out: TextIO) -> None:
    """Write a command's answer to ``out``: its JSON, or its text renderer's lines."""
    if isinstance(result, JsonLines):
        _emit_lines(result, as_json, out)
    elif as_json:
        # A field typed ``Any`` at run time (a slow-to-import engine model) is dumped as
        # what it holds, so parsing a command line imports no more of the engine.
        data = TypeAdapter(type(result)).dump_python(result, mode="json")
        out.write(json_text(data) + "\n")
    else:
        rendered = text(result)
        rendered = rendered if isinstance(rendered, str) else "\n".join(rendered)
        if rendered:
            out.write(sanitize(rendered) + "\n")


def _emit_lines(result: JsonLines, as_json: bool, out: TextIO) -> None:
    if not as_json:
        for line in result.lines():
            out.write(line + "\n")
        return
    separator = "[\n"
    for line in result.lines():
        out.write(separator + line)
        separator = ",\n"
    out.write("[]\n" if separator == "[\n" else "\n]\n")


class LiveLine:
    """Progress as one line on a terminal's stderr, rewritten in place at most ten times
    a second: ``LABEL: TEXT [N s]``; never on redirected stderr."""

    def __init__(self, label: str, shown: bool = True) -> None:
        self.label = label
        self.shown = shown and sys.stderr.isatty()
        self.started = time.perf_counter()
        self.last = 0.0

    def show(self, text: str, final: bool = False) -> None:
        """Rewrite the line with ``text`` (a ``final`` step's end always shows)."""
        now = time.perf_counter()
        if not self.shown or (now - self.last < 0.1 and not final):
            return
        self.last = now
        sys.stderr.write(f"\r\x1b[2K{self.label}: {text} [{now - self.started:.0f} s]")
        sys.stderr.flush()

    def close(self) -> float:
        """Clear the line; the seconds since it started."""
        if self.shown:
            sys.stderr.write("\r\x1b[2K")
            sys.stderr.flush()
        return time.perf_counter() - self.started


# ------------------------------------------------------- errors and warnings
def tell(label: str, facts: Mapping[str, Any], text: str, as_json: bool) -> None:
    """One line on stderr beside the answer: ``{LABEL: FACTS}`` with ``--json``, else
    ``amem-tui: TEXT``."""
    line = json_text({label: facts}, one_line=True) if as_json else f"amem-tui: {text}"
    print(line, file=sys.stderr, flush=True)


def report(label: str, message: str, as_json: bool, facts: Mapping[str, Any]) -> None:
    """A failure (``error``) or a ``warning`` on stderr, one line: ``{LABEL: {"message",
    FACTS}}`` with ``--json``, else the message (a warning's after ``warning: ``)."""
    from amem_tui.engine.for_apps import redact_text

    # The last guard: a message may quote a server URL from a client library's error.
    message = redact_text(message)
    line = " ".join(sanitize(message).split())
    prefix = "warning: " if label == "warning" else ""
    tell(label, {"message": message, **facts}, prefix + line, as_json)


def warn(message: str, as_json: bool, kind: str, facts: Mapping[str, Any] | None = None) -> None:
    """A warning on stderr; the command goes on."""
    report("warning", message, as_json, {"kind": kind, **(facts or {})})
