"""Carrying out a recorded run: each change applied as a compare-and-set, safe to repeat.

A run is recorded whole (``RunLog``) before any note changes, then
applied in batches; each merge's status is written back as it completes, and each
note it changed gets a version (``merge``, or ``undo`` in an undo run). An
interrupted run is finished by ``Applier.resume`` with the same result.
"""

from __future__ import annotations

from collections.abc import Callable

from amem_tui.engine.clock import Timekeeper
from amem_tui.engine.consolidation.changes import (
    applied,
    change_can_apply,
    change_is_done,
    decode_vector,
)
from amem_tui.engine.consolidation.runlog import RunLog
from amem_tui.engine.run_records import ConsolidationRun, MergeRecord, NoteChange
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.store.base import NoteStore, StoredPoint
from amem_tui.engine.versions import Change, VersionAction, VersionLog
from amem_tui.engine.words import plural

#: Notes read and changed per step of a run.
APPLY_BATCH = 32

Progress = Callable[[int, int], None]


class Applier:
    """Applies, resumes and records runs in one store."""

    def __init__(self, store: NoteStore, log: RunLog, time: Timekeeper) -> None:
        self.store = store
        self.log = log
        self.time = time
        self.versions = VersionLog(store)

    def _apply_merges(
        self,
        run: ConsolidationRun,
        indexes: list[int],
        progress: Progress | None,
        on_done: Callable[[int], None] | None = None,
    ) -> None:
        total = len(run.merges)
        done = total - len(indexes)
        if progress is not None:
            progress(done, total)
        for start in range(0, len(indexes), APPLY_BATCH):
            batch = indexes[start : start + APPLY_BATCH]
            ids = [c.note for i in batch for c in run.merges[i].changes]
            current = {p.id: p for p in self.store.retrieve(run.collection, ids)}
            for i in batch:
                merge = run.merges[i]
                self._apply_merge(run, merge, current)
                if on_done is not None and merge.status == "done":
                    on_done(i)
            self.log.write_merges(run, batch)
            done += len(batch)
            if progress is not None:
                progress(done, total)

    def _apply_merge(
        self, run: ConsolidationRun, merge: MergeRecord, current: dict[str, StoredPoint]
    ) -> None:
        for change in merge.changes:
            if change.status != "planned":
                continue
            point = current.get(change.note)
            if point is None:
                change.status = "skipped"
                change.message = "the note no longer exists"
            else:
                self._apply_change(run, change, point)
            if change.role == "keeper" and change.status == "skipped":
                merge.status = "skipped"
                merge.message = f"keeper {change.note}: {change.message}"
                for other in merge.changes:
                    if other.status == "planned":
                        other.status = "skipped"
                        other.message = "its keeper was skipped"
                return
        merge.status = "done"

    def _apply_change(self, run: ConsolidationRun, change: NoteChange, point: StoredPoint) -> None:
        collection = run.collection
        payload = point.payload
        if change_is_done(change, payload):
            change.status = "done"
            return
        # A dropped note edited meanwhile still only has its is_active flipped: nothing is lost.
        if change.role != "dropped" and not change_can_apply(change, payload):
            change.status = "skipped"
            change.message = "the note changed since the run was planned"
            return
        new = applied(change, payload)
        self._keep_version(run, Change(point.id, "merge", None, payload, new))
        if change.vector is not None:
            self.store.upsert(
                collection, [StoredPoint(point.id, new, decode_vector(change.vector))]
            )
        else:
            self.store.set_payload(collection, point.id, new)
        point.payload = new
        change.status = "done"

    def _apply_links(self, run: ConsolidationRun) -> None:
        pending = [c for c in run.link_changes if c.status == "planned"]
        for start in range(0, len(pending), APPLY_BATCH):
            batch = pending[start : start + APPLY_BATCH]
            current = {
                p.id: p for p in self.store.retrieve(run.collection, [c.note for c in batch])
            }
            for change in batch:
                point = current.get(change.note)
                if point is None:
                    change.status = "skipped"
                    change.message = "the note no longer exists"
                    continue
                self._apply_change(run, change, point)
        if pending:
            self.log.write_links(run)

    def _keep_version(self, run: ConsolidationRun, change: Change) -> None:
        """Keep a note's change as a version made by the run's agent, ahead of writing it."""
        undo = run.trigger == "undo"
        action: VersionAction
        if run.settles is not None:
            action = "unresolve" if undo else "resolve"
        else:
            action = "undo" if undo else "merge"
        kept = Change(change.note_id, action, run.agent, change.before, change.after, run_id=run.id)
        self.versions.record(run.collection, [kept], self.time.now())

    def execute(self, run: ConsolidationRun, progress: Progress | None) -> ConsolidationRun:
        """Apply what is left of a recorded run, then mark it done."""
        on_done = self.log.undone_marker(run) if run.trigger == "undo" else None
        pending = [i for i, m in enumerate(run.merges) if m.status == "planned"]
        self._apply_merges(run, pending, progress, on_done)
        self._apply_links(run)
        if on_done is not None:
            for i, merge in enumerate(run.merges):
                if merge.status == "done":
                    on_done(i)
        skipped = [m for m in run.merges if m.status == "skipped"]
        if skipped:
            run.messages.append(
                f"{plural(len(skipped), 'merge')} skipped: their notes changed meanwhile"
            )
        run.status = "done"
        run.finished_at = self.time.now()
        self.log.write_header(run)
        return run

    def record_and_run(self, run: ConsolidationRun, progress: Progress | None) -> ConsolidationRun:
        """Write the plan before touching a note, then apply it."""
        run.status = "planning"
        self.log.write_header(run)
        self.log.write_merges(run, range(len(run.merges)))
        self.log.write_links(run)
        run.status = "started"
        self.log.write_header(run)
        return self.execute(run, progress)

    def resume(self, scope: AgentScope) -> list[ConsolidationRun]:
        """Finish the agent's interrupted runs (so a new run starts from a settled store)."""
        finished: list[ConsolidationRun] = []
        unfinished = self.log.load_runs(scope.collection, scope.agent, unfinished=True)
        for run in sorted(unfinished, key=lambda r: (r.started_at, r.id)):
            if run.status == "planning":
                self.log.drop_plan(run)
                run.merges, run.link_changes = [], []
                run.status = "abandoned"
                run.finished_at = self.time.now()
                run.messages.append("interrupted while recording its plan: no note was changed")
                self.log.write_header(run)
                finished.append(run)
            elif run.status == "started":
                run.messages.append(f"interrupted, finished at {self.time.now()}")
                finished.append(self.execute(run, None))
        return finished
