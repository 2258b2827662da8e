"""Rich text describing notes, search hits and consolidation merges.

Shared by the detail view and the consolidation preview. Every value from the
store goes through ``amem_tui.tui.text``, so it is shown literally.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from amem_tui.tui.text import literal, one_line

if TYPE_CHECKING:
    from collections.abc import Iterable

    from amem_tui.engine import MemoryNote, SearchHit
    from amem_tui.engine.for_apps import DiffPart, MergeRecord

#: Width of the field-name column of the detail view.
LABEL_WIDTH = 18


def add_field(
    text: Text, label: str, value: object, style: str = "", *, width: int = LABEL_WIDTH
) -> None:
    """Append one ``label  value`` line, the label in ``width`` cells; lists are joined,
    a missing value says so."""
    text.append(f"{label:<{width}}", style="bold dim")
    if isinstance(value, Text):
        text.append_text(value)
    elif isinstance(value, list):
        if value:
            text.append(", ".join(one_line(v, 60) for v in value[:50]), style=style)
        else:
            text.append("(none)", style="dim italic")
        if len(value) > 50:
            text.append(f" … {len(value) - 50} more", style="dim")
    elif value is None:
        text.append("(absent)", style="dim italic")
    else:
        text.append(one_line(value, 200), style=style)
    text.append("\n")


#: How a word diff styles what went and what came.
REMOVED_STYLE = "strike red"
ADDED_STYLE = "underline green"
#: The marks around what went and what came, as ``git diff --word-diff`` writes them.
DIFF_MARKS = {"removed": ("[-", "-]"), "added": ("{+", "+}")}


def diff_text(parts: Iterable[DiffPart], *, marked: bool = False) -> Text:
    """A word diff (``word_diff``'s parts) as text: what went struck through in red, what
    came underlined in green. ``marked`` also puts each between ``[-``/``-]`` or
    ``{+``/``+}``, for where neither colour nor strike shows (NO_COLOR, a plain
    terminal, a copy of the screen)."""
    text = Text()
    styles = {"removed": REMOVED_STYLE, "added": ADDED_STYLE}
    parts = list(parts)
    for index, part in enumerate(parts):
        style = styles.get(part.kind, "")
        if not marked or part.kind == "same":
            text.append_text(literal(part.text, style=style))
            continue
        # The space after a changed word goes outside its marks, as git writes it, and
        # a removal replaced by an addition leaves its space to the addition.
        inside = part.text.rstrip() or part.text
        after = part.text[len(inside) :]
        following = parts[index + 1] if index + 1 < len(parts) else None
        if following is not None and following.kind == "added" and following.text[-1:].isspace():
            after = ""
        opening, closing = DIFF_MARKS[part.kind]
        text.append(opening, style="bold")
        text.append_text(literal(inside, style=style))
        text.append(closing, style="bold")
        text.append_text(literal(after))
    return text


def words(values: list[str] | None) -> str:
    """A list as words for a sentence: ``people, reviews``, or ``(none)``."""
    return ", ".join(one_line(v, 40) for v in values) if values else "(none)"


def visibility(note: MemoryNote, agent: str) -> str:
    """Plain words for the note's scope, as seen by ``agent``."""
    extra = note.model_extra or {}
    if extra.get("format") == "mem0":
        user_id = one_line(extra.get("user_id") or "none", 60)
        return (
            f"a mem0 memory in user_id {user_id}: the OpenClaw mem0 plugin reads it for "
            f"{one_line(extra.get('mem0_user') or '?', 30)}'s {one_line(note.agent_id or '?', 30)}"
        )
    owner = note.effective_owner or "unknown"
    if note.is_shared:
        return f"in the shared scope, published by {owner}: every Mode A agent can read it"
    readers = note.effective_readers
    if owner == agent and readers in ([agent], []):
        return f"private to {agent}"
    from amem_tui.engine.for_apps import selective_sentence

    truth = selective_sentence(note)
    said = f" ({one_line(truth, 200)})" if truth else ""
    if "*" in readers:
        return f"owned by {owner}, readers ['*']{said}"
    chosen = ", ".join(one_line(r, 30) for r in readers)
    if agent in readers and owner != agent:
        return f"{owner}'s note, selectively shared with its readers: {chosen}{said}"
    if owner == agent:
        return f"{agent}'s note, selectively shared with its readers: {chosen}{said}"
    return f"owned by {owner}; readers {chosen}{said}"


def explain_hit(hit: SearchHit) -> Text:
    """Why a search hit is there: its rank score, the engine's full explanation, the words
    that matched, and whether it is a weak match."""
    from amem_tui.engine.for_apps import WEAK_SIMILARITY
    from amem_tui.engine.for_apps import explain_hit as explanation

    text = Text()
    text.append(f"{'why this hit':<{LABEL_WIDTH}}", style="bold")
    text.append(f"score {hit.score:.3f}; {one_line(explanation(hit), 400)}\n")
    text.append(f"{'matched words':<{LABEL_WIDTH}}", style="bold dim")
    if hit.matched_terms:
        text.append(words(hit.matched_terms) + "\n")
    else:
        text.append("none of the query's words\n", style="dim italic")
    if hit.weak and hit.via != "link":
        text.append(f"{'weak match':<{LABEL_WIDTH}}", style="bold dim")
        text.append(
            f"no query word matched and its cosine is below {WEAK_SIMILARITY:.2f}: the agent "
            "recalls it only because its top-k is not full of better matches\n",
            style="italic",
        )
    return text


def merge_text(merge: MergeRecord) -> Text:
    """One merge of a consolidation: keeper, dropped notes, contents, why."""
    text = Text()
    status = merge.status or "done"
    marks = []
    if merge.undone:
        marks.append("undone")
    if status not in ("done", "planned"):
        marks.append(status)
    suffix = f" ({', '.join(marks)})" if marks else ""
    text.append(f"• keep {one_line(merge.keeper, 36)}{suffix}", style="bold")
    text.append(f"  similarity {merge.similarity:.3f}")
    if merge.category:
        text.append(f"  category {one_line(merge.category, 20)}", style="dim")
    text.append("\n")
    text.append("  keep:   ", style="dim")
    text.append(one_line(merge.content_before, 200) + "\n")
    for dropped in merge.dropped:
        text.append(f"  drop   {one_line(dropped, 36)}", style="red")
        if dropped in merge.similarities:
            text.append(f"  cosine {merge.similarities[dropped]:.3f}", style="dim")
        text.append("\n")
        if dropped in merge.dropped_content:
            text.append(
                "          " + one_line(merge.dropped_content[dropped], 190) + "\n", style="dim"
            )
    if merge.content_after != merge.content_before:
        text.append("  after:  ", style="dim")
        text.append(one_line(merge.content_after, 200) + "\n")
    reason = merge.reason or merge.message
    if reason:
        text.append("  why:    ", style="dim")
        text.append(one_line(reason, 200) + "\n", style="italic")
    return text


def timeline(note: MemoryNote) -> Text:
    """The evolution history, oldest first, one block per entry."""
    text = Text()
    text.append("Evolution history\n", style="bold")
    if not note.evolution_history:
        text.append("no entries\n", style="dim italic")
        return text
    for entry in note.evolution_history[-100:]:
        when = one_line(entry.triggeredAt, 19).replace("T", " ")[:16] or "?"
        text.append(f"● {when} ", style="bold")
        text.append(one_line(entry.action or "?", 20) + "\n", style="italic")
        if entry.triggeredBy:
            text.append(f"  by {one_line(entry.triggeredBy, 36)}\n", style="dim")
        # Older entries recorded fields that did not change; only changes are shown.
        if (entry.oldContext or "") != (entry.newContext or ""):
            text.append(
                f"  context {one_line(entry.oldContext or '', 30)!r} → "
                f"{one_line(entry.newContext or '', 30)!r}\n"
            )
        if (entry.oldTags or []) != (entry.newTags or []):
            text.append(f"  tags {words(entry.oldTags)} → {words(entry.newTags)}\n")
        if entry.oldContent:
            text.append(f"  was: {one_line(entry.oldContent, 80)}\n", style="dim")
    return text


def target_line(text: Text, target_id: str, target: MemoryNote | None) -> None:
    """Append a line for a linked or conflicting note the agent may read."""
    text.append(f"  → {one_line(target_id, 40)}  ", style="")
    text.append(one_line(target.content, 80) + "\n" if target is not None else "(gone)\n")


def unseen(count: int, what: str) -> str:
    """``1 link this agent cannot see``, ``2 conflicting notes this agent cannot see``."""
    return f"{count} {what}{'' if count == 1 else 's'} this agent cannot see"


#: The fields of a mem0 memory, in the order shown: (label, key of the note view).
MEM0_DETAIL_FIELDS = (
    ("user", "mem0_user"),
    ("user_id", "user_id"),
    ("agent", "agent_id"),
    ("created_at", "timestamp"),
    ("updated_at", "updated_at"),
    ("run_id", "run_id"),
    ("role", "role"),
    ("actor_id", "actor_id"),
    ("agent_id (mem0)", "mem0_agent_id"),
    ("hash", "hash"),
)


def mem0_fields(text: Text, note: MemoryNote) -> None:
    """A mem0 memory's own fields, as mem0 wrote them (the update time is never an access
    time), then its metadata key by key."""
    payload = note.to_payload()
    for label, key in MEM0_DETAIL_FIELDS:
        if key in payload:
            add_field(text, label, payload[key])
        elif key in ("updated_at", "run_id"):  # said plainly: never updated, no session
            add_field(text, label, None)
    metadata = payload.get("mem0_metadata")
    if isinstance(metadata, dict) and metadata:
        text.append("mem0 metadata\n", style="bold")
        for key in sorted(metadata)[:40]:
            add_field(text, f"  {one_line(key, LABEL_WIDTH - 3)}", metadata[key])
