"""What the detail view says: a note's fields, the reason it is visible, its timeline
and links; a consolidation run and its merges; the hidden matches of a search. Pure
text and options: the view (``detail.py``) holds what is shown and loads it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets.option_list import Option

from amem_tui.engine.for_apps import NOTE_FIELDS, is_mem0_note
from amem_tui.tui.render import (
    LABEL_WIDTH,
    add_field,
    explain_hit,
    mem0_fields,
    merge_text,
    target_line,
    timeline,
    unseen,
    visibility,
)
from amem_tui.tui.text import clean, literal, one_line
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine import ConsolidationRun, MemoryNote, SearchResult
    from amem_tui.engine.for_apps import MergeRecord
    from amem_tui.tui.messages import NoteData

_SHOWN_APART = {"content", "evolution_history", "links", "conflicts_with"}
#: Extra keys the engine adds to a note fit to show an agent (counts, never ids).
_COUNTED = {"unreadable_links", "unreadable_conflicts"}
#: The start of a merge's option id; note ids never hold a colon.
MERGE = "merge:"


def note_text(data: NoteData, agent: str) -> tuple[Text, Text, list[Option]]:
    """Every field of a note as ``agent`` sees it, the reason it is visible and the
    hit's explanation; its timeline; its links as options to follow."""
    note = data.note
    extra = note.model_extra or {}
    hidden_links = _count(extra.get("unreadable_links"))
    hidden_conflicts = _count(extra.get("unreadable_conflicts"))
    body = Text()
    body.append_text(literal(note.content, style="bold"))
    body.append("\n\n")
    if data.hit is not None:
        body.append_text(explain_hit(data.hit))
        body.append("\n")
    add_field(body, "scope", visibility(note, agent))
    if data.writable:
        add_field(body, "may modify", "yes")
    else:  # the engine's refusal in full: the rule (or the mem0 reason) is the point
        why = data.write_refusal or f"{agent} is not a writer"
        add_field(body, "may modify", literal(f"no: {why}", style="yellow", limit=600))
    for line in data.notes:
        body.append(line + "\n", style="italic")
    for problem in note.problems:
        add_field(body, "problem", problem, style="red")
    if note.conflict or note.conflicts_with or hidden_conflicts:
        body.append("Conflicts         ", style="bold yellow")
        reason = note.conflict_reason or "(no reason recorded)"
        body.append_text(literal(reason, limit=2000))
        body.append("\n")
        for target_id, target in data.conflicts:
            target_line(body, target_id, target)
        if hidden_conflicts:
            body.append(f"  ⊘ {unseen(hidden_conflicts, 'conflicting note')}\n", style="dim")
    if is_mem0_note(note):
        mem0_fields(body, note)
    else:
        _note_fields(body, note)
    links = f"{len(note.links)} (listed beside the note)" if note.links else "(none)"
    if hidden_links:
        links += f"; {unseen(hidden_links, 'link')}"
    add_field(body, "links", links)
    options = [_link_option(link_id, target) for link_id, target in data.links]
    if hidden_links:
        options.append(
            Option(Text(f"⊘ {unseen(hidden_links, 'link')}", style="dim"), disabled=True)
        )
    return body, timeline(note), options


def _note_fields(body: Text, note: MemoryNote) -> None:
    """An openclaw-amem note's payload fields, access fields first; unknown keys last."""
    payload = note.to_payload()
    derived = {
        "owner": note.effective_owner,
        "readers": note.effective_readers,
        "writers": note.effective_writers,
        "is_active": True,
    }
    first = ("owner", "readers", "writers", "agent_id", "is_active")
    order = [*first, *(f for f in NOTE_FIELDS if f not in first)]
    for field in order:
        if field in _SHOWN_APART:
            continue
        if field in payload:
            value = payload[field]
            add_field(body, field, value, style="red" if field == "conflict" and value else "")
        elif derived.get(field) is not None:
            add_field(body, field, Text(f"{derived[field]} (absent; derived)", style="dim"))
        else:
            add_field(body, field, None)
    extra = {k: v for k, v in payload.items() if k not in NOTE_FIELDS and k not in _COUNTED}
    for key in sorted(extra)[:40]:
        add_field(body, clean(key)[: LABEL_WIDTH - 1], extra[key])


def run_text(run: ConsolidationRun, hint: str = "") -> tuple[Text, list[Option]]:
    """What a consolidation run merged, and its merges as options to undo one (none
    when nothing of it can be undone)."""
    body = Text()
    kind = "dry run (nothing changed)" if run.dry_run else str(run.trigger)
    add_field(body, "agent", run.agent)
    add_field(body, "collection", run.collection)
    add_field(body, "kind", kind)
    add_field(body, "status", run.status)
    add_field(body, "started", run.started_at)
    add_field(body, "finished", run.finished_at)
    add_field(body, "threshold", f"{run.threshold:.2f}")
    if run.undoes:
        add_field(body, "undoes", run.undoes)
    count = len(run.merges)
    undoable = bool(count) and not run.dry_run and run.trigger != "undo"
    body.append(f"\n{plural(count, 'merge')}\n", style="bold")
    if undoable and hint:
        body.append(hint + "\n", style="italic")
    for message in run.messages:
        body.append(one_line(message, 200) + "\n", style="italic")
    for merge in run.merges:
        body.append_text(merge_text(merge))
    return body, [_merge_option(merge) for merge in run.merges] if undoable else []


def hidden_text(result: SearchResult) -> Text:
    """The matches the agent cannot see, and why (never their content)."""
    body = Text()
    hidden = result.hidden
    if not hidden:
        body.append(
            f"No hidden matches: nothing outside {result.agent}'s view matched closely.",
            style="italic",
        )
    for match in hidden:
        body.append(f"{match.score:.3f}  ", style="bold")
        body.append(one_line(match.id, 40))
        body.append(f"  owner {one_line(match.owner or '?', 20)}", style="dim")
        body.append(f"  in {one_line(match.collection, 30)}\n", style="dim")
        body.append(f"       {match.deciding()}\n", style="dim")
        body.append("       not visible: ", style="dim")
        body.append(one_line(match.reason, 150) + "\n", style="italic")
    return body


def merge_keeper(option_id: str) -> str | None:
    """The keeper of the merge an option stands for (None: the option is a link)."""
    return option_id[len(MERGE) :] if option_id.startswith(MERGE) else None


def _merge_option(merge: MergeRecord) -> Option:
    label = Text(f"{one_line(merge.keeper, 13)}  +{len(merge.dropped)} dropped")
    if merge.undone:
        label.append("  undone", style="dim")
    return Option(label, id=f"{MERGE}{merge.keeper}")


def _link_option(link_id: str, target: MemoryNote | None) -> Option:
    if target is None:  # a link to nothing: the note is gone
        prompt = Text(f"⊘ {one_line(link_id, 36)[:13]}…  not found", style="dim")
        return Option(prompt, id=None, disabled=True)
    prompt = Text("→ ", style="bold")
    prompt.append(one_line(target.content, 70))
    if not target.active:
        prompt.append(" (deleted)", style="red")
    return Option(prompt, id=link_id)


def _count(value: object) -> int:
    """A count the engine left on a note (0 when there is none)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
