"""The nightly consolidation's schedule: when a day's pass starts, and an in-process
daily scheduler that runs the pass of ``nightly`` at that time.

The clock is injected, and ``ConsolidationScheduler.run_due`` does one check
without waiting, so tests drive it without sleeping; ``start`` runs the same
check in a daemon thread (the TUI runs it in a worker of its own instead).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

from amem_tui.engine.consolidation.nightly_time import (
    DEFAULT_TIME,
    next_occurrence,
    parse_hhmm,
    zone_of,
)
from amem_tui.engine.run_records import ConsolidationRun

if TYPE_CHECKING:
    from amem_tui.engine.consolidation.nightly import NightlyEngine, NightlyPass
    from amem_tui.engine.consolidation.pass_records import PassListener, PassResult
    from amem_tui.engine.consolidation.runlock import Holder
    from amem_tui.engine.scope import AgentScope

#: The longest the thread sleeps between checks (so a changed clock is noticed).
MAX_WAIT_SECONDS = 60.0


class ConsolidationScheduler:
    """Runs the nightly pass (every agent, under the run lock: see ``nightly``) once a
    day at a set local time, in this process, as openclaw-amem runs its own.

    Its runs are recorded with the trigger ``nightly``; a day whose pass another
    process ran already (a cron job, another machine) is left alone.
    """

    def __init__(
        self,
        engine: NightlyEngine,
        *,
        at: str | None = None,
        clock: Callable[[], datetime] | None = None,
        tz: tzinfo | None = None,
        agents: Callable[[], Sequence[str | AgentScope]] | None = None,
        on_run: Callable[[ConsolidationRun], None] | None = None,
        runner: str = "the engine's scheduler",
    ) -> None:
        self.engine = engine
        self.at = parse_hhmm(at or engine.settings.consolidation_time or DEFAULT_TIME)
        self.clock = clock or engine.clock
        self.tz = tz if tz is not None else zone_of(engine.settings.consolidation_timezone)
        self._agents = agents
        self.on_run = on_run
        #: What the pass is recorded as having been run by (``runner`` in its record).
        self.runner = runner
        self.last_runs: list[ConsolidationRun] = []
        self.last_errors: dict[str, str] = {}
        #: The last pass's outcome (None before one ran, or when it could not start).
        self.last_result: PassResult | None = None
        #: The holder met when the last pass found the run lock taken.
        self.last_busy: Holder | None = None
        self._next = next_occurrence(self.clock(), self.at, self.tz)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def nightly(self) -> NightlyPass:
        """The pass this scheduler runs (its time, zone, agents and clock)."""
        from amem_tui.engine.consolidation.nightly import NightlyPass

        return NightlyPass(
            self.engine,
            runner=self.runner,
            at=f"{self.at.hour:02d}:{self.at.minute:02d}",
            tz=self.tz,
            agents=self._agents,
            clock=self.clock,
        )

    def next_run_time(self) -> datetime | None:
        """When the next nightly run starts (local time), or None for a read-only store."""
        if self.engine.settings.read_only:
            return None
        return self._next

    def is_due(self) -> bool:
        """True once the next run's time has come (a check only: nothing runs)."""
        return self.clock() >= self._next

    def run_due(
        self, progress: PassListener | None = None, stop: Callable[[], bool] | None = None
    ) -> list[ConsolidationRun]:
        """Run the pass if the time has come; returns the runs made (``stop``: see
        ``NightlyPass.run``)."""
        with self._lock:
            now = self.clock()
            if now < self._next:
                return []
            self._next = next_occurrence(now, self.at, self.tz)
            if self.engine.settings.read_only:
                return []
            return self.run_now(progress, stop)

    def run_now(
        self, progress: PassListener | None = None, stop: Callable[[], bool] | None = None
    ) -> list[ConsolidationRun]:
        """Run today's pass now, unless it ran already (trigger ``nightly``)."""
        from amem_tui.engine.consolidation.runlock import PassBusy

        self.last_busy = None
        try:
            result = self.nightly().run(due=True, trigger="nightly", progress=progress, stop=stop)
        except PassBusy as busy:  # another process runs it: that is its job, not a failure
            self.last_busy, self.last_runs, self.last_errors = busy.holder, [], {}
            return []
        except Exception as exc:  # the thread must survive anything
            self.last_runs, self.last_errors = [], {"": f"{type(exc).__name__}: {exc}"}
            return []
        self.last_result = result
        self.last_runs, self.last_errors = list(result.runs), dict(result.errors)
        if self.on_run is not None:
            for run in result.runs:
                self.on_run(run)
        return list(result.runs)

    # ------------------------------------------------------------- the thread
    @property
    def running(self) -> bool:
        """True while the background thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Start checking in a daemon thread (idempotent)."""
        if self.running:
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._loop, name="amem-consolidation-scheduler", daemon=True
        )
        self._thread.start()

    def stop(self, timeout: float | None = 5.0) -> None:
        """Stop the thread and wait for it (a run in progress finishes first)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.run_due()
            wait = (self._next - self.clock()).total_seconds()
            self._stop.wait(min(max(wait, 1.0), MAX_WAIT_SECONDS))
