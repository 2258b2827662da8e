"""What changed in an agent's memory, in words, and what an app following it must redraw.

``changes`` compares what an app shows with a probe of
``amem_tui.engine.watch``: which notes to put in or take out of each pane, what
happened in words (``dev added …``, ``main published …``, ``a consolidation run of
main merged 3 notes into 1``), and which panes to re-list because their count moved
for reasons the probe did not see. Every app says it the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from amem_tui.engine.models import MemoryNote, parse_time
from amem_tui.engine.run_records import ConsolidationRun, MergeRecord
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.watch import PaneName, Probe, pane_of, panes

ActivityKind = Literal[
    "added",
    "published",
    "unpublished",
    "deleted",
    "restored",
    "edited",
    "merged",
    "evolved",
    "changed",
    "recalled",
    "gone",
    "consolidated",
    "undone",
    "settled",
]


@dataclass(frozen=True)
class Activity:
    """One thing that happened, said in words for an activity log."""

    kind: ActivityKind
    text: str
    #: The note it happened to (None for a consolidation run).
    note_id: str | None = None
    #: Worth drawing the eye to the note (a retrieval count bump is not).
    highlight: bool = True


# ------------------------------------------------------------------ in words
def quote(text: str, width: int = 48) -> str:
    """A note's content on one line, cut to ``width`` characters, in quotes."""
    flat = " ".join(text[: width * 4].split())  # cut first: a note may be megabytes
    if len(flat) > width:
        flat = flat[: width - 1].rstrip() + "…"
    return f"“{flat}”"


def _who(note: MemoryNote) -> str:
    return note.effective_owner or "an unknown agent"


def _last_entry_action(before: MemoryNote, after: MemoryNote) -> tuple[str, str]:
    """The action and agent of the newest evolution entry ``after`` gained, if any."""
    if len(after.evolution_history) > len(before.evolution_history):
        entry = after.evolution_history[-1]
        return entry.action, entry.triggeredBy
    return "", ""


def note_activity(
    scope: AgentScope, before: MemoryNote | None, after: MemoryNote | None
) -> Activity | None:
    """What happened to a note between what an app showed (``before``) and the store
    now (``after``), as seen by ``scope``; None when nothing did.

    ``before`` None: the note is new to the app. ``after`` None: the agent can no
    longer read it (or it is gone from the store).
    """
    if after is None:
        if before is None:
            return None
        return Activity(
            "gone", f"{quote(before.content)} is no longer visible to {scope.agent}", before.id
        )
    note_id = after.id
    if before is None:
        who = _who(after)
        history = after.evolution_history
        if after.is_shared and history and history[-1].action == "publish":
            # First seen because it was published (it was another agent's private note).
            return Activity("published", f"{who} published {quote(after.content)}", note_id)
        if pane_of(scope, after) == "shared":
            if after.is_shared:
                text = f"{who} added a shared note {quote(after.content)}"
            else:
                text = f"{who} shared {quote(after.content)} with {scope.agent}"
        else:
            text = f"{who} added {quote(after.content)}"
        return Activity("added", text, note_id)
    if before.active and not after.active:
        return Activity("deleted", f"{quote(after.content)} was deleted", note_id)
    if not before.active and after.active:
        return Activity("restored", f"{quote(after.content)} was restored", note_id)
    if not before.is_shared and after.is_shared:
        return Activity("published", f"{_who(after)} published {quote(after.content)}", note_id)
    if before.is_shared and not after.is_shared:
        return Activity("unpublished", f"{_who(after)} unpublished {quote(after.content)}", note_id)
    action, by = _last_entry_action(before, after)
    if action == "consolidate":
        text = f"a consolidation merged notes into {quote(after.content)}"
        return Activity("merged", text, note_id)
    if after.hash != before.hash or after.content != before.content:
        who = by or "someone"
        return Activity("edited", f"{who} edited {quote(after.content)}", note_id)
    if before.to_payload() == after.to_payload():
        return None
    if _only_recalled(before, after):
        return Activity(
            "recalled",
            f"{quote(after.content)} was recalled (retrieved {after.retrieval_count} times)",
            note_id,
            highlight=False,
        )
    if action in ("update_neighbor", "strengthen"):
        return Activity("evolved", f"{quote(after.content)} evolved ({action})", note_id)
    changed = _changed_fields(before, after)
    return Activity("changed", f"{quote(after.content)} changed: {', '.join(changed)}", note_id)


#: Fields an agent's own search bumps: a recall, not a change of the memory.
RECALL_FIELDS = frozenset({"retrieval_count", "last_accessed", "lastAccessed"})


def _changed_fields(before: MemoryNote, after: MemoryNote) -> list[str]:
    old, new = before.to_payload(), after.to_payload()
    changed = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    # The history only records the change named by the other fields.
    told = [k for k in changed if k != "evolution_history"]
    return told or changed or ["payload"]


def _only_recalled(before: MemoryNote, after: MemoryNote) -> bool:
    return set(_changed_fields(before, after)) <= RECALL_FIELDS


def settlement_activity(run: ConsolidationRun) -> Activity:
    """A conflict decision (or its undo) in words."""
    decision = run.settles
    assert decision is not None
    merge = run.merges[0] if run.merges else None
    kept = quote(merge.content_before) if merge else "a note"
    other = quote(next(iter(merge.dropped_content.values()), "")) if merge else "another"
    if run.trigger == "undo":
        return Activity(
            "undone", f"{run.agent} undid a conflict decision on {kept} (run {run.undoes or '?'})"
        )
    if decision.keep == "flag":
        text = f"{run.agent} cleared a conflict flag on {kept} whose partner is gone"
    elif decision.keep == "both":
        text = f"{run.agent} settled a conflict: {kept} and {other} both hold"
    else:
        text = f"{run.agent} settled a conflict: kept {kept}, retired {other}"
    return Activity("settled", text)


def run_activity(run: ConsolidationRun) -> Activity:
    """A consolidation run, a conflict decision (or an undo of either) in words."""
    if run.settles is not None:
        return settlement_activity(run)
    merges = [m for m in run.merges if m.status == "done"] or run.merges
    notes = sum(1 + len(m.dropped) for m in merges)
    plural = "" if notes == 1 else "s"
    if run.trigger == "undo":
        return Activity(
            "undone",
            f"an undo run of {run.agent} restored {notes} note{plural} (run {run.undoes or '?'})",
        )
    if not merges:
        return Activity("consolidated", f"a consolidation run of {run.agent} merged nothing")
    return Activity(
        "consolidated",
        f"a consolidation run of {run.agent} merged {notes} note{plural} into {len(merges)}",
    )


def name_merges(activities: Sequence[Activity], runs: Iterable[ConsolidationRun]) -> list[Activity]:
    """``activities`` with each note a consolidation run dropped said to be merged, and
    each a conflict decision retired said to be retired, not merely deleted (both only
    soft-delete the note: its payload cannot tell)."""
    into: dict[str, tuple[ConsolidationRun, MergeRecord]] = {}
    for run in runs:
        if run.trigger == "undo" or run.dry_run:
            continue
        for merge in run.merges:
            if merge.undone or merge.status == "skipped":
                continue
            for dropped in merge.dropped:
                into[dropped] = (run, merge)
    named: list[Activity] = []
    for activity in activities:
        found = into.get(activity.note_id or "") if activity.kind == "deleted" else None
        if found is None:
            named.append(activity)
            continue
        run, merge = found
        dropped = quote(merge.dropped_content.get(activity.note_id or "", ""))
        if run.settles is not None:
            text = (
                f"{dropped} was retired: it contradicted {quote(merge.content_after)} "
                f"(a conflict settled by {run.agent})"
            )
            named.append(Activity("deleted", text, activity.note_id))
            continue
        text = (
            f"{dropped} was merged into {quote(merge.content_after)} "
            f"(a consolidation run of {run.agent})"
        )
        named.append(Activity("merged", text, activity.note_id))
    return named


def new_runs(
    before: Iterable[ConsolidationRun], after: Iterable[ConsolidationRun]
) -> list[ConsolidationRun]:
    """Runs in ``after`` that were not finished in ``before`` (oldest first)."""
    finished = {r.id for r in before if r.status == "done"}
    fresh = [r for r in after if r.status == "done" and r.id not in finished]
    return sorted(fresh, key=lambda r: (r.started_at, r.id))


# --------------------------------------------------- what an app must redraw
@dataclass
class PaneUpdate:
    """What one pane must change: notes to put in (new or changed), ids to take out."""

    changed: list[MemoryNote] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    #: Rows worth highlighting: note id -> kind of change.
    marks: dict[str, ActivityKind] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.changed or self.removed)


@dataclass
class Changes:
    """What a probe means for an app that shows ``shown``: pane updates, in words, and
    the panes whose count moved for reasons the probe did not see (re-list them)."""

    panes: dict[PaneName, PaneUpdate]
    activities: list[Activity]
    relist: set[PaneName]

    @property
    def any(self) -> bool:
        """True when something changed (or must be re-listed)."""
        return bool(self.activities or self.relist or any(self.panes.values()))


def changes(
    scope: AgentScope,
    shown: Mapping[PaneName, Mapping[str, MemoryNote]],
    now: Probe,
    before: Probe | None,
    include_inactive: bool,
) -> Changes:
    """Compare what an app shows with a probe: the notes it watched, the notes created
    since, and the counts (a count the seen changes do not explain is re-listed)."""
    updates: dict[PaneName, PaneUpdate] = {which: PaneUpdate() for which in panes(scope)}
    activities: list[Activity] = []
    where = {note_id: which for which, notes in shown.items() for note_id in notes}

    def place(note: MemoryNote, activity: Activity | None) -> None:
        target = pane_of(scope, note)
        if target is not None and not note.active and not include_inactive:
            target = None
        origin = where.get(note.id)
        if origin is not None and origin != target:
            updates[origin].removed.append(note.id)
        if target is not None:
            updates[target].changed.append(note)
            if activity is not None and activity.highlight:
                updates[target].marks[note.id] = activity.kind
        if activity is not None:
            activities.append(activity)

    for note_id, stored in now.watched.items():
        origin = where.get(note_id)
        if origin is None:
            continue
        activity = note_activity(scope, shown[origin][note_id], stored)
        if activity is None:
            continue
        if stored is None:
            updates[origin].removed.append(note_id)
            activities.append(activity)
        else:
            place(stored, activity)
    for notes in now.new_notes.values():
        for note in notes:
            if note.id in where or note.id in now.watched:
                continue
            if note.active or include_inactive:
                place(note, note_activity(scope, None, note))
    relist: set[PaneName] = set()
    if before is not None:
        for which in panes(scope):
            if now.overflow or _unexplained(which, shown, updates, now, before):
                relist.add(which)
    return Changes(updates, activities, relist)


def _unexplained(
    which: PaneName,
    shown: Mapping[PaneName, Mapping[str, MemoryNote]],
    updates: Mapping[PaneName, PaneUpdate],
    now: Probe,
    before: Probe,
) -> bool:
    """True when the pane's active count moved by more (or less) than the seen changes."""
    if which not in now.counts or which not in before.counts:
        return False
    moved = now.counts[which] - before.counts[which]
    old = dict(shown.get(which, {}))
    new = dict(old)
    for note_id in updates[which].removed:
        new.pop(note_id, None)
    for note in updates[which].changed:
        new[note.id] = note
    seen = sum(n.active for n in new.values()) - sum(n.active for n in old.values())
    return moved != seen


def relisted(
    scope: AgentScope,
    shown: Mapping[str, MemoryNote],
    listing: Sequence[MemoryNote],
    now: Probe,
) -> tuple[PaneUpdate, list[Activity]]:
    """The notes of a re-listed page that the app does not show yet.

    A note published since is said so; one dated inside the probe's window and never
    seen by a probe is new; any other is only put in (a page boundary moved, or it
    changed scope while the app did not watch it).
    """
    update = PaneUpdate()
    activities: list[Activity] = []
    cutoff = parse_time(now.since)
    for note in listing:
        if note.id in shown:
            continue
        update.changed.append(note)
        history = note.evolution_history
        created = note.created_at()
        activity: Activity | None = None
        if note.is_shared and history and history[-1].action == "publish":
            activity = Activity(
                "published", f"{_who(note)} published {quote(note.content)}", note.id
            )
        elif (
            note.id not in now.seen
            and created is not None
            and cutoff is not None
            and created >= cutoff
        ):
            activity = note_activity(scope, None, note)
        if activity is not None:
            activities.append(activity)
            update.marks[note.id] = activity.kind
    return update, activities
