"""Consolidation of one agent's private notes, and its undo, as the engine offers them.

A run merges clusters of near-duplicate notes of one agent (its private, active
``memory`` notes). Every run is written to the run log *before* any note changes,
as compare-and-set changes; applying a change twice is harmless, so an interrupted
run is finished by the next one and ends in the same state. Dropped notes are only
soft-deleted, and every change keeps what it replaced, so a run (or one merge) can
be undone.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Sequence

from amem_tui.engine.clock import Timekeeper
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.consolidation.apply import Applier, Progress
from amem_tui.engine.consolidation.basis import ConsolidationPlan, changes_since, current_basis
from amem_tui.engine.consolidation.history import history, openclaw_runs
from amem_tui.engine.consolidation.plan import Judge, Planner, RuleJudge
from amem_tui.engine.consolidation.reverse import plan_reversal
from amem_tui.engine.consolidation.runlog import RunLog, RunNotFound
from amem_tui.engine.consolidation.undo import UndoPlanner
from amem_tui.engine.errors import InvalidInput, PlanOutdated
from amem_tui.engine.run_records import ConsolidationRun, RunTrigger
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.store.base import NoteStore


class Consolidator:
    """Consolidation, undo and history for the collections of one store."""

    def __init__(
        self,
        store: NoteStore,
        time: Timekeeper,
        lock: threading.RLock,
    ) -> None:
        self.time = time
        self.lock = lock
        #: openclaw-amem's rule decides what each cluster of near-duplicates becomes.
        self.judge: Judge = RuleJudge()
        self.log = RunLog(store)
        self.applier = Applier(store, self.log, time)

    def plan(
        self,
        service: CollectionService,
        scope: AgentScope,
        *,
        threshold: float,
        trigger: RunTrigger = "manual",
    ) -> ConsolidationPlan:
        """What one run for one agent would merge, and the notes it was planned from
        (reads only; see ``AgentView.plan_consolidation``)."""
        plan = self._plan(service, scope, threshold=threshold, trigger=trigger)
        plan.run.finished_at = self.time.now()
        return plan

    def _plan(
        self,
        service: CollectionService,
        scope: AgentScope,
        *,
        threshold: float,
        trigger: RunTrigger,
    ) -> ConsolidationPlan:
        if trigger not in ("manual", "scheduled", "nightly"):
            raise InvalidInput(
                f"trigger must be 'manual', 'scheduled' or 'nightly', not {trigger!r}"
            )
        if not 0.0 < threshold <= 1.0:
            raise InvalidInput(f"threshold must be above 0 and at most 1, got {threshold}")
        run = ConsolidationRun(
            id=self.time.new_id(),
            agent=scope.agent,
            collection=scope.collection,
            trigger=trigger,
            started_at=self.time.now(),
            threshold=threshold,
            dry_run=True,
            status="planned",
            judge=self.judge.name,
        )
        basis: dict[str, str] = {}
        if service.exists():
            plan = Planner(service, self.judge).plan(scope, threshold, run.id, run.started_at)
            run.candidates = plan.candidates
            run.merges = plan.merges
            run.link_changes = plan.links
            basis = plan.basis
        return ConsolidationPlan(run, basis)

    def apply(
        self,
        service: CollectionService,
        scope: AgentScope,
        plan: ConsolidationPlan,
        progress: Progress | None,
    ) -> ConsolidationRun:
        """Carry out exactly ``plan``, recorded under its id; refused with what changed
        (``PlanOutdated``) when the agent's candidates moved since it was made.

        The agent's interrupted runs are finished first, so a run starts from a
        settled store (and a plan made before they were finished is refused if they
        touched its notes).
        """
        return self._apply(service, scope, plan, progress, confirm=True)

    def _apply(
        self,
        service: CollectionService,
        scope: AgentScope,
        plan: ConsolidationPlan,
        progress: Progress | None,
        *,
        confirm: bool,
    ) -> ConsolidationRun:
        planned = plan.run
        if (planned.agent, planned.collection) != (scope.agent, scope.collection):
            raise InvalidInput(
                f"consolidation plan {planned.id} is agent '{planned.agent}''s in "
                f"'{planned.collection}', not agent '{scope.agent}''s in '{scope.collection}'"
            )
        exists = service.exists()
        if confirm:
            self._confirm(service, scope, plan, exists)
        run = planned.model_copy(deep=True)
        run.dry_run = False
        run.finished_at = None
        if not exists:  # nothing to merge and nowhere to record it
            run.status = "done"
            run.finished_at = self.time.now()
            if progress is not None:
                progress(0, 0)
            return run
        return self.applier.record_and_run(run, progress)

    def _confirm(
        self, service: CollectionService, scope: AgentScope, plan: ConsolidationPlan, exists: bool
    ) -> None:
        """Refuse a plan already applied, or whose candidates moved since it was made."""
        planned = plan.run
        resumed = self.applier.resume(scope) if exists else []
        if exists and self.log.load_runs(scope.collection, scope.agent, [planned.id]):
            raise InvalidInput(f"consolidation plan {planned.id} was applied already")
        changed = changes_since(service, scope, plan.basis, current_basis(service, scope))
        if changed:
            why = ""
            if resumed:
                why = f" (an interrupted run {resumed[0].id} was finished first)"
            raise PlanOutdated(
                planned.id, scope.agent, changed.modified, changed.deleted, changed.added, why=why
            )

    def consolidate(
        self,
        service: CollectionService,
        scope: AgentScope,
        *,
        dry_run: bool,
        threshold: float,
        progress: Progress | None,
        trigger: RunTrigger,
    ) -> ConsolidationRun:
        """Plan one run for one agent, then apply that plan (a dry run only plans)."""
        if not dry_run and service.exists():
            self.applier.resume(scope)  # before planning: the plan sees a settled store
        if dry_run:
            plan = self.plan(service, scope, threshold=threshold, trigger=trigger)
            if progress is not None:
                progress(len(plan.run.merges), len(plan.run.merges))
            return plan.run
        plan = self._plan(service, scope, threshold=threshold, trigger=trigger)
        # Planned a moment ago under the same lock: nothing to confirm (another process
        # writing meanwhile meets each change's compare-and-set, as always).
        return self._apply(service, scope, plan, progress, confirm=False)

    def carry_out(self, scope: AgentScope, run: ConsolidationRun) -> ConsolidationRun:
        """Record a run planned elsewhere (a conflict decision), then carry it out as
        compare-and-set changes, once the agent's interrupted runs are finished."""
        self.applier.resume(scope)
        run.dry_run = False
        run.finished_at = None
        return self.applier.record_and_run(run, None)

    def undo(
        self, service: CollectionService, scope: AgentScope, run_id: str, merge_keeper: str | None
    ) -> ConsolidationRun:
        """Revert a run or one of its merges; the undo is recorded as a run of its own."""
        try:
            uuid.UUID(run_id)
        except ValueError:
            raise RunNotFound(run_id, scope.agent) from None
        if not service.exists():
            raise RunNotFound(run_id, scope.agent)
        resumed = self.applier.resume(scope)
        runs = {r.id: r for r in self.log.load_runs(scope.collection, scope.agent, [run_id])}
        run = runs.get(run_id)
        if run is None:
            if any(r.id == run_id for r in openclaw_runs(service, scope.agent)):
                raise InvalidInput(
                    f"run {run_id} was made by openclaw-amem and recorded only in notes' "
                    "evolution history: restore a dropped note with `restore ID` instead"
                )
            raise RunNotFound(run_id, scope.agent)
        if run.trigger == "undo":
            raise InvalidInput(f"run {run_id} is itself an undo; it cannot be undone")
        live = [i for i, m in enumerate(run.merges) if m.status == "done" and not m.undone]
        # An interrupted undo of this run, just finished by resume(), is the answer.
        for earlier in resumed:
            if earlier.undoes == run.id and earlier.status == "done":
                keepers = {m.keeper for m in earlier.merges}
                if (merge_keeper is None and not live) or merge_keeper in keepers:
                    return earlier
        if merge_keeper is not None:
            chosen = [i for i in live if run.merges[i].keeper == merge_keeper]
            if not chosen:
                known = [m for m in run.merges if m.keeper == merge_keeper]
                if not known:
                    raise InvalidInput(f"run {run_id} has no merge into keeper {merge_keeper}")
                raise InvalidInput(
                    f"the merge into {merge_keeper} of run {run_id} is already undone "
                    "or was never applied"
                )
        else:
            chosen = live
            if not chosen:
                raise InvalidInput(f"run {run_id} has nothing left to undo")
        undo = ConsolidationRun(
            id=self.time.new_id(),
            agent=scope.agent,
            collection=scope.collection,
            trigger="undo",
            started_at=self.time.now(),
            threshold=run.threshold,
            undoes=run.id,
            judge=run.judge,
            settles=run.settles,
        )
        if run.settles is not None:  # a conflict decision: its changes, backwards
            undo.merges = plan_reversal(service, scope, run, chosen)
        else:
            undo.merges, undo.link_changes = UndoPlanner(service).plan(scope, run, chosen, live)
        return self.applier.record_and_run(undo, None)

    def history(
        self, services: Sequence[CollectionService], agent: str | None
    ) -> list[ConsolidationRun]:
        """Recorded runs and openclaw-amem's merges in these collections, newest first."""
        return history(self.log, services, agent)
