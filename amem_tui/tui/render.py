"""Rich text describing notes, search hits and consolidation merges.

Shared by the detail view and the consolidation preview. Every value from the
store goes through :mod:`amem_tui.tui.text`, so it is shown literally.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from amem_tui.tui.text import one_line

if TYPE_CHECKING:
    from amem_tui.engine.models import MemoryNote, MergeRecord, SearchHit

#: Width of the field-name column of the detail view.
LABEL_WIDTH = 18

_BECAUSE = {
    "private": "it is the agent's private note",
    "shared": "it is in the shared scope",
    "reader": "the agent is named in its readers",
    "collection": "it is in the agent's own collection (Mode B)",
}


def add_field(text: Text, label: str, value: object, style: str = "") -> None:
    """Append one ``label  value`` line; lists are joined, a missing value says so."""
    text.append(f"{label:<{LABEL_WIDTH}}", style="bold dim")
    if isinstance(value, Text):
        text.append_text(value)
    elif isinstance(value, list):
        text.append(", ".join(one_line(v, 60) for v in value[:50]) if value else "[]", style=style)
        if len(value) > 50:
            text.append(f" … {len(value) - 50} more", style="dim")
    elif value is None:
        text.append("(absent)", style="dim italic")
    else:
        text.append(one_line(value, 200), style=style)
    text.append("\n")


def visibility(note: MemoryNote, agent: str) -> str:
    """Plain words for the note's scope, as seen by ``agent``."""
    owner = note.effective_owner or "unknown"
    if note.is_shared:
        return f"shared by {owner}: every Mode A agent can read it"
    readers = note.effective_readers
    if owner == agent and readers in ([agent], []):
        return f"private to {agent}"
    if "*" in readers:
        return f"owned by {owner}, readers ['*']"
    if agent in readers and owner != agent:
        return f"{owner}'s note; {agent} is named in its readers"
    return f"owned by {owner}; readers {readers}"


def explain_hit(hit: SearchHit) -> Text:
    """Why a search hit is there: its scores, how it was reached, why it is visible."""
    text = Text()
    text.append(f"{'why this hit':<{LABEL_WIDTH}}", style="bold")
    parts = [f"score {hit.score:.3f}"]
    if hit.similarity is not None:
        parts.append(f"cosine {hit.similarity:.3f}")
    if hit.bm25_rank is not None:
        parts.append(f"keyword rank {hit.bm25_rank}")
    if hit.rrf is not None:
        parts.append(f"rrf {hit.rrf:.4f}")
    if hit.via == "link":
        source = hit.via_note
        parts.append(f"reached by a link from {one_line(source, 36)}" if source else "via a link")
    else:
        parts.append("a direct match")
    parts.append(f"visible because {_BECAUSE.get(hit.because, hit.because)}")
    text.append(" · ".join(parts) + "\n")
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
        if entry.oldContext is not None or entry.newContext is not None:
            text.append(
                f"  context {one_line(entry.oldContext or '', 30)!r} → "
                f"{one_line(entry.newContext or '', 30)!r}\n"
            )
        if entry.oldTags is not None or entry.newTags is not None:
            text.append(f"  tags {entry.oldTags or []} → {entry.newTags or []}\n")
        if entry.oldContent:
            text.append(f"  was: {one_line(entry.oldContent, 80)}\n", style="dim")
    return text


def target_line(text: Text, target_id: str, target: MemoryNote | None, agent: str) -> None:
    """Append a line for a linked or conflicting note: its content, or that it is hidden."""
    if target is None:
        text.append(
            f"  ⊘ {one_line(target_id, 40)}  not visible to {agent} (read rule)\n", style="dim"
        )
    else:
        text.append(f"  → {one_line(target_id, 40)}  ", style="")
        text.append(one_line(target.content, 80) + "\n")
