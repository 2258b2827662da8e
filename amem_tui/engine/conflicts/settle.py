"""A conflict decision as a run: the changes it makes, recorded before any note changes.

A decision is planned as a run of the consolidation run log (trigger ``resolve``,
``settles`` naming the decision) with one record whose changes are compare-and-set
changes, one per note: the kept note's flags cleared (see ``flags``), the other
note retired as openclaw-amem retires a note (its ``invalidateNote``: ``is_active``
false, nothing else) or, keeping both, its flags cleared too. Recorded first and
applied as a consolidation run is, it is kept as versions of its notes, shown in the
history and the activity log, and undone like any run (every change kept what it
replaced, so the undo gives it back exactly).
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
from pydantic import BaseModel

from amem_tui.engine.clock import Timekeeper
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.conflicts.flags import FLAG_FIELDS, settled_flags
from amem_tui.engine.conflicts.pairs import ConflictPair, DanglingFlag
from amem_tui.engine.consolidation.changes import ChangeRole, make_change
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.run_records import (
    ConflictSettlement,
    ConsolidationRun,
    MergeRecord,
    NoteChange,
    SettleKeep,
)
from amem_tui.engine.scope import AgentScope

#: Who judges a decision's run (as the rule or an LLM judges a consolidation's).
PERSON = "person"


class Settlement(BaseModel):
    """A conflict decision: what it changes (``changes``: each note's fields before and
    after), and the run that records it (planned only, for a dry run)."""

    decision: ConflictSettlement
    run: ConsolidationRun
    dry_run: bool
    #: The pair decided (None: a dangling flag cleared).
    pair: ConflictPair | None = None
    #: The dangling flag cleared (None: a pair decided).
    flag: DanglingFlag | None = None

    @property
    def changes(self) -> list[NoteChange]:
        """One change per note: the fields it sets and removes, and what they were."""
        return [c for m in self.run.merges for c in m.changes]

    @property
    def applied(self) -> bool:
        """True once every change is made (a dry run never is)."""
        return not self.dry_run and all(m.status == "done" for m in self.run.merges)

    @property
    def retired(self) -> str | None:
        """The note the decision retires (None: none)."""
        return next((c.note for c in self.changes if c.role == "dropped"), None)

    @property
    def message(self) -> str:
        """Why a change was not made ("" when all were)."""
        return "; ".join(m.message for m in self.run.merges if m.message)


def _similarity(service: CollectionService, a: str, b: str) -> float:
    vectors = service.vectors_of([a, b])
    x, y = vectors.get(a), vectors.get(b)
    if x is None or y is None:
        return 0.0
    denom = float(np.linalg.norm(x) * np.linalg.norm(y)) or 1.0
    return round(float(x @ y) / denom, 6)


def flags_change(
    role: ChangeRole, note: MemoryNote, settled: Collection[str], now: str
) -> NoteChange:
    """The change that clears a note's flags on ``settled`` (role ``keeper`` or ``flags``)."""
    payload = note.to_payload()
    new = settled_flags(payload, settled, now)
    return make_change(role, note.id, payload, new, guard=FLAG_FIELDS)


def retire_change(note: MemoryNote) -> NoteChange:
    """openclaw-amem's retirement of a note: ``is_active`` false, and nothing else."""
    return make_change("dropped", note.id, note.to_payload(), {"is_active": False})


def _run(
    time: Timekeeper, scope: AgentScope, collection: str, settles: ConflictSettlement
) -> ConsolidationRun:
    now = time.now()
    return ConsolidationRun(
        id=time.new_id(),
        agent=scope.agent,
        collection=collection,
        trigger="resolve",
        started_at=now,
        finished_at=now,
        threshold=0.0,
        dry_run=True,
        status="planned",
        judge=PERSON,
        settles=settles,
    )


def plan_pair(
    service: CollectionService,
    scope: AgentScope,
    time: Timekeeper,
    a: MemoryNote,
    b: MemoryNote,
    keep: SettleKeep,
    reason: str,
) -> ConsolidationRun:
    """The run of a decision on the pair ``a``, ``b``: keep ``A`` (``b`` retired), ``B``
    (``a`` retired) or ``both`` (flags cleared on both)."""
    kept, other = (b, a) if keep == "B" else (a, b)
    now = time.now()
    changes = [flags_change("keeper", kept, {other.id}, now)]
    if keep == "both":
        changes.append(flags_change("flags", other, {kept.id}, now))
    else:
        changes.append(retire_change(other))
    settles = ConflictSettlement(
        keep=keep,
        a=a.id,
        b=b.id,
        reason=reason,
        conflict_reason=a.conflict_reason or b.conflict_reason,
    )
    run = _run(time, scope, service.name, settles)
    run.merges = [
        MergeRecord(
            keeper=kept.id,
            dropped=[] if keep == "both" else [other.id],
            similarity=_similarity(service, a.id, b.id),
            content_before=kept.content,
            content_after=kept.content,
            dropped_content={other.id: other.content},
            hash_before=kept.hash,
            hash_after=kept.hash,
            category=kept.category,
            reason=reason,
            status="planned",
            changes=changes,
        )
    ]
    return run


def plan_flag(
    service: CollectionService,
    scope: AgentScope,
    time: Timekeeper,
    note: MemoryNote,
    gone: list[str],
    reason: str,
) -> ConsolidationRun:
    """The run that clears a dangling flag: ``gone`` named no more (a flag naming no
    partner: ``conflict`` false)."""
    settles = ConflictSettlement(
        keep="flag", a=note.id, gone=gone, reason=reason, conflict_reason=note.conflict_reason
    )
    run = _run(time, scope, service.name, settles)
    run.merges = [
        MergeRecord(
            keeper=note.id,
            dropped=[],
            similarity=0.0,
            content_before=note.content,
            content_after=note.content,
            hash_before=note.hash,
            hash_after=note.hash,
            category=note.category,
            reason=reason,
            status="planned",
            changes=[flags_change("keeper", note, set(gone), time.now())],
        )
    ]
    return run
