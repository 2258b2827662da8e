"""The nightly pass: every agent's consolidation in one go, at most one pass at a time
across machines, and a record of each day's pass in the store.

Every agent the configuration names or a Mode A collection holds is consolidated,
and each Mode B agent in its own collection (mem0 memories never are). The pass runs
under the run lock of ``runlock`` and records itself (kind ``nightly_pass``) in
the run log of the Mode A collection, beside the lock, where openclaw-amem and the
mem0 plugin never look. A day runs from one scheduled start (``consolidation_time``
in ``consolidation_timezone``, default 02:30 local time) to the next: with ``due`` a
pass does nothing once that day's pass has finished, and says when and by whom.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta, tzinfo
from typing import Protocol

from amem_tui.engine.clock import iso
from amem_tui.engine.consolidation.nightly_time import (
    DEFAULT_TIME,
    last_occurrence,
    next_occurrence,
    parse_hhmm,
    zone_of,
)
from amem_tui.engine.consolidation.pass_records import (
    PassListener,
    PassProgress,
    PassRecord,
    PassResult,
)
from amem_tui.engine.consolidation.runlock import (
    HEARTBEAT,
    LOCK_TTL,
    Holder,
    RunLock,
)
from amem_tui.engine.consolidation.runlog import RUNS_MODEL, runs_collection
from amem_tui.engine.errors import AmemError
from amem_tui.engine.run_records import ConsolidationRun, RunTrigger
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.settings import EngineSettings
from amem_tui.engine.store.base import NoteStore, StoredPoint
from amem_tui.engine.store.filters import Filter, Match

PASS_KIND = "nightly_pass"
_NAMESPACE = uuid.UUID("0c3f7a9e-51d2-4f6b-a8e4-2d9b6c1e7f30")


class ConsolidatingView(Protocol):
    """One agent's view, as a pass uses it."""

    @property
    def format(self) -> str:
        """``amem`` or ``mem0`` (whose memories are never consolidated)."""
        ...

    def consolidate(
        self,
        dry_run: bool = False,
        threshold: float | None = None,
        progress: Callable[[int, int], None] | None = None,
        trigger: RunTrigger = "manual",
    ) -> ConsolidationRun:
        """Plan and apply one agent's consolidation."""
        ...


class NightlyEngine(Protocol):
    """What a pass drives: the engine (the facade), through its public calls."""

    settings: EngineSettings

    @property
    def store(self) -> NoteStore:
        """The store."""
        ...

    @property
    def clock(self) -> Callable[[], datetime]:
        """The engine's clock."""
        ...

    @property
    def shared_collection(self) -> str:
        """The Mode A collection: home of the lock and the records."""
        ...

    def agents(self) -> list[AgentScope]:
        """Every agent, configured or found in the store."""
        ...

    def agent(self, agent: str | AgentScope) -> ConsolidatingView:
        """One agent's view."""
        ...

    def check_writable(self, collection: str | None = None) -> None:
        """Raise when writes are off."""
        ...


def record_id(day: str) -> str:
    """The point that records the pass of ``day``."""
    return str(uuid.uuid5(_NAMESPACE, f"pass:{day}"))


class NightlyPass:
    """The nightly pass of one engine's store: when it is due, who holds it, what ran."""

    def __init__(
        self,
        engine: NightlyEngine,
        *,
        runner: str = "the engine",
        at: str | None = None,
        tz: tzinfo | None = None,
        agents: Callable[[], Sequence[str | AgentScope]] | None = None,
        clock: Callable[[], datetime] | None = None,
        ttl: timedelta = LOCK_TTL,
        heartbeat: float = HEARTBEAT,
    ) -> None:
        self.engine = engine
        self.runner = runner
        self.clock = clock or engine.clock
        settings = engine.settings
        self.at = parse_hhmm(at or settings.consolidation_time or DEFAULT_TIME)
        self.tz = tz if tz is not None else zone_of(settings.consolidation_timezone)
        self._agents = agents
        self.ttl = ttl
        self.heartbeat = heartbeat

    # ------------------------------------------------------------- the schedule
    def slot(self, now: datetime | None = None) -> datetime:
        """The scheduled start of the day ``now`` (default: the clock's) belongs to."""
        return last_occurrence(now or self.clock(), self.at, self.tz)

    def next_slot(self, now: datetime | None = None) -> datetime:
        """The next scheduled start after ``now``."""
        return next_occurrence(now or self.clock(), self.at, self.tz)

    def agents(self) -> list[str | AgentScope]:
        """The agents a pass consolidates, in order: every agent of the configuration and
        the store, mem0 views left out (their memories are never consolidated)."""
        if self._agents is not None:
            return list(dict.fromkeys(self._agents()))
        found: list[str | AgentScope] = []
        for scope in self.engine.agents():
            if scope.is_mem0_view:
                continue
            if self.engine.agent(scope).format == "mem0":
                continue
            found.append(scope)
        return found

    # -------------------------------------------------------------- the records
    @property
    def log(self) -> str:
        """The run log that holds the lock and the records."""
        return runs_collection(self.engine.shared_collection)

    def _ensure_log(self) -> None:
        self.engine.store.ensure_collection(
            self.log, 1, RUNS_MODEL, ("kind", "agent", "run_id"), notes=False
        )

    def records(self) -> list[PassRecord]:
        """Every recorded pass, newest first."""
        store = self.engine.store
        if store.collection_info(self.log) is None:
            return []
        found = [
            PassRecord.model_validate(point.payload["pass"])
            for point in store.scan(self.log, Filter(must=(Match("kind", PASS_KIND),)))
        ]
        return sorted(found, key=lambda r: r.started_at, reverse=True)

    def finished(self, day: str) -> PassRecord | None:
        """The finished pass of ``day`` (a local date), if one is recorded."""
        store = self.engine.store
        if store.collection_info(self.log) is None:
            return None
        found = store.retrieve(self.log, [record_id(day)])
        if not found:
            return None
        record = PassRecord.model_validate(found[0].payload["pass"])
        return record if record.status == "done" else None

    def _write(self, record: PassRecord) -> None:
        payload = {"kind": PASS_KIND, "day": record.day, "pass": record.model_dump(mode="json")}
        point = StoredPoint(record_id(record.day), payload, [1.0])
        self.engine.store.upsert(self.log, [point])

    def lock(self) -> RunLock:
        """The run lock (not taken)."""
        return RunLock(
            self.engine.store,
            self.log,
            self.clock,
            self.runner,
            ttl=self.ttl,
            heartbeat=self.heartbeat,
        )

    def holder(self) -> Holder | None:
        """Who runs the pass now (None: nobody)."""
        if self.engine.store.collection_info(self.log) is None:
            return None
        return self.lock().holder()

    # ----------------------------------------------------------------- the pass
    def said(self, result: PassResult) -> list[str]:
        """What to tell of ``result`` beside its runs: the day's pass that ran already
        (and when the next is due), a dry run, a store with nothing to consolidate, a
        lock that was only best effort."""
        said: list[str] = []
        if result.skipped and result.record is not None:
            said.append(
                f"the nightly pass of {result.day} already ran {result.record.describe()}; "
                f"nothing was done (the next one is due at {self.next_slot().isoformat()})"
            )
        if result.dry_run:
            said.append("dry run: every agent planned, nothing stored and no lock taken")
        if not result.ran and not result.skipped and not result.dry_run:
            said.append(
                "no agent to consolidate: this store holds only mem0 memories, which are never "
                "consolidated; nothing was done"
            )
        if result.best_effort_lock:
            said.append(
                "this Qdrant server ignores conditional writes (1.16 and later honour them): "
                "the run lock was only best effort"
            )
        return said

    def run(
        self,
        *,
        due: bool = False,
        trigger: RunTrigger = "manual",
        threshold: float | None = None,
        dry_run: bool = False,
        progress: PassListener | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> PassResult:
        """Consolidate every agent, one after the other (one agent's failure does not stop
        the others: see ``errors``).

        ``stop`` is asked before each agent: when it says True the pass ends there
        (``stopped``, recorded so), never in the middle of an agent's merges.

        With ``due``, nothing is done when the day's pass has finished already
        (``skipped``, and the record says when and by whom). Raises
        ``PassBusy`` (exit 75) when another process holds the run lock.
        A dry run plans every agent and takes no lock and records nothing. A store with
        no agent to consolidate (mem0 memories only) gets nothing written: not ``ran``.
        """
        slot = self.slot()
        day = slot.date().isoformat()
        if not dry_run:
            self.engine.check_writable()
        agents = self.agents()
        if dry_run or not agents:
            result = PassResult(day, slot, ran=False, dry_run=dry_run)
            self._each_agent(
                result,
                None,
                agents,
                dry_run=True,
                threshold=threshold,
                trigger=trigger,
                progress=progress,
                stop=stop,
            )
            return result
        if due:
            found = self.finished(day)
            if found is not None:
                return PassResult(day, slot, ran=False, skipped=True, record=found)
        self._ensure_log()
        lock = self.lock()
        with lock.held() as mine:
            if due:  # another process may have finished it while this one waited
                found = self.finished(day)
                if found is not None:
                    return PassResult(day, slot, ran=False, skipped=True, record=found)
            record = PassRecord(
                day=day,
                slot=iso(slot),
                started_at=iso(self.clock()),
                trigger=trigger,
                host=mine.host,
                pid=mine.pid,
                runner=mine.runner,
            )
            self._write(record)
            result = PassResult(
                day, slot, ran=True, record=record, best_effort_lock=lock.best_effort
            )
            self._each_agent(
                result,
                lock,
                agents,
                dry_run=False,
                threshold=threshold,
                trigger=trigger,
                progress=progress,
                stop=stop,
            )
            record.status = "stopped" if result.stopped else "done"
            record.finished_at = iso(self.clock())
            self._write(record)
        return result

    def _each_agent(
        self,
        result: PassResult,
        lock: RunLock | None,
        agents: list[str | AgentScope],
        *,
        dry_run: bool,
        threshold: float | None,
        trigger: RunTrigger,
        progress: PassListener | None,
        stop: Callable[[], bool] | None = None,
    ) -> None:
        say = progress or (lambda _: None)
        for index, agent in enumerate(agents, start=1):
            if stop is not None and stop():
                result.stopped = True
                return
            if lock is not None:
                lock.check()  # stop before the next agent if the lock was taken over
            name = agent.agent if isinstance(agent, AgentScope) else agent
            say(PassProgress(name, index, len(agents), "planning"))

            def merged(done: int, total: int, name: str = name, index: int = index) -> None:
                say(PassProgress(name, index, len(agents), "merging", done, total))

            try:
                run = self.engine.agent(agent).consolidate(
                    dry_run=dry_run, threshold=threshold, progress=merged, trigger=trigger
                )
            except AmemError as exc:  # one agent's failure must not stop the others
                result.errors[name] = str(exc)
                say(PassProgress(name, index, len(agents), "failed"))
            else:
                result.runs.append(run)
                total = len(run.merges)
                say(PassProgress(name, index, len(agents), "done", total, total))
            record = result.record
            if record is not None:
                record.agents = [*record.agents, name]
                record.runs = [r.id for r in result.runs]
                record.merges = sum(len(r.merges) for r in result.runs)
                record.errors = dict(result.errors)
                self._write(record)
