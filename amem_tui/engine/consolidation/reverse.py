"""Planning the undo of a run of plain compare-and-set changes: a conflict decision.

A decision of the contradiction desk (``amem_tui.engine.conflicts``) is recorded
as a run whose one record holds a change per note it touched: a flag cleared, a note
retired. Each change kept what it replaced, so its undo is the same change applied
backwards: the note gets back exactly the values (and the absent keys) it had, which
brings a retired note back byte for byte. Refused when a note changed since the
decision: later changes are never overwritten silently.
"""

from __future__ import annotations

import amem_tui.engine.scope as rules
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.consolidation.changes import change_is_done, holds
from amem_tui.engine.errors import InvalidInput
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.run_records import ConsolidationRun, MergeRecord, NoteChange
from amem_tui.engine.scope import AgentScope


def backwards(change: NoteChange) -> NoteChange:
    """``change`` undone: what it set is what must be found, what it replaced is set
    again, and the keys it added are removed."""
    return NoteChange(
        note=change.note,
        role=change.role,
        before=dict(change.set),
        absent=list(change.unset),
        set=dict(change.before),
        unset=list(change.absent),
    )


def plan_reversal(
    service: CollectionService, scope: AgentScope, run: ConsolidationRun, chosen: list[int]
) -> list[MergeRecord]:
    """The records of an undo run that takes back records ``chosen`` of ``run``."""
    ids = [c.note for i in chosen for c in run.merges[i].changes if c.status == "done"]
    current = {p.id: p for p in service.store.retrieve(service.name, ids)}
    problems: list[str] = []
    records: list[MergeRecord] = []
    for index in chosen:
        merge = run.merges[index]
        changes: list[NoteChange] = []
        for change in merge.changes:
            if change.status != "done":
                continue
            point = current.get(change.note)
            if point is None:
                problems.append(f"note {change.note} no longer exists")
                continue
            note = MemoryNote.from_payload(point.id, point.payload)
            rules.require_write(scope.agent, note, "undo a decision on")
            reverse = backwards(change)
            if change_is_done(reverse, point.payload):
                continue  # already as it was (a retired note restored by hand)
            # A retired note only has is_active flipped back, whatever else changed.
            if change.role != "dropped" and not holds(point.payload, change.set, change.unset):
                problems.append(
                    f"note {change.note} changed since run {run.id}; undo later changes first"
                )
                continue
            changes.append(reverse)
        records.append(
            merge.model_copy(
                update={
                    "changes": changes,
                    "status": "planned",
                    "message": "",
                    "undone": False,
                    "undone_by": None,
                    "source_index": index,
                    "reason": f"undo of run {run.id}",
                }
            )
        )
    if problems:
        raise InvalidInput("undo refused: " + "; ".join(problems))
    return records
