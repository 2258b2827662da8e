"""The nightly consolidation: an in-process daily scheduler, one run per configured agent.

The clock is injected, and :meth:`ConsolidationScheduler.run_due` does one check
without waiting, so tests drive it without sleeping; :meth:`start` runs the same
check in a daemon thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from datetime import datetime, time, timedelta, tzinfo
from typing import Protocol

from amem_tui.engine.errors import AmemError, ConfigError
from amem_tui.engine.models import ConsolidationRun, RunTrigger
from amem_tui.engine.settings import EngineSettings

DEFAULT_TIME = "02:30"
#: The longest the thread sleeps between checks (so a changed clock is noticed).
MAX_WAIT_SECONDS = 60.0


def parse_hhmm(value: str) -> time:
    """``"HH:MM"`` (24-hour) as a time of day, or :class:`ConfigError`."""
    try:
        hours, minutes = value.strip().split(":")
        if len(hours) not in (1, 2) or len(minutes) != 2:
            raise ValueError
        return time(int(hours), int(minutes))
    except ValueError:
        raise ConfigError(
            f"consolidation time must be HH:MM (24-hour), for example 02:30; got {value!r}"
        ) from None


def next_occurrence(after: datetime, at: time, tz: tzinfo | None = None) -> datetime:
    """The first moment strictly after ``after`` when the local clock shows ``at``.

    ``tz`` None means the machine's local time zone (daylight saving included).
    """
    local = after.astimezone(tz) if tz is not None else after.astimezone()
    day = local.date()
    for _ in range(3):
        naive = datetime.combine(day, at)
        moment = naive.replace(tzinfo=tz) if tz is not None else naive.astimezone()
        if moment > after:
            return moment
        day += timedelta(days=1)
    raise AssertionError("unreachable: a day later is always later")  # pragma: no cover


class Consolidates(Protocol):
    """What the scheduler drives: an engine that consolidates agents (the facade)."""

    settings: EngineSettings

    @property
    def read_only(self) -> bool:
        """True when every write is refused."""
        ...

    @property
    def clock(self) -> Callable[[], datetime]:
        """The engine's clock."""
        ...

    def agent(self, agent: str) -> ConsolidatesAgent:
        """The view of ``agent`` a run consolidates."""
        ...


class ConsolidatesAgent(Protocol):
    """One agent's view, as the scheduler uses it."""

    def consolidate(self, *, trigger: RunTrigger) -> ConsolidationRun:
        """One consolidation run of the agent."""
        ...


class ConsolidationScheduler:
    """Runs consolidation for every configured agent once a day at a set local time."""

    def __init__(
        self,
        engine: Consolidates,
        *,
        at: str | None = None,
        clock: Callable[[], datetime] | None = None,
        tz: tzinfo | None = None,
        agents: Callable[[], Sequence[str]] | None = None,
        on_run: Callable[[ConsolidationRun], None] | None = None,
    ) -> None:
        self.engine = engine
        self.at = parse_hhmm(at or engine.settings.consolidation_time or DEFAULT_TIME)
        self.clock = clock or engine.clock
        self.tz = tz
        self._agents = agents or engine.settings.configured_agents
        self.on_run = on_run
        self.last_runs: list[ConsolidationRun] = []
        self.last_errors: dict[str, str] = {}
        self._next = next_occurrence(self.clock(), self.at, self.tz)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def next_run_time(self) -> datetime | None:
        """When the next nightly run starts (local time), or None for a read-only store."""
        if self.engine.read_only:
            return None
        return self._next

    def agents(self) -> list[str]:
        """The agents a nightly run consolidates."""
        return list(dict.fromkeys(self._agents()))

    def run_due(self) -> list[ConsolidationRun]:
        """Run every agent's consolidation if the time has come; returns the runs made."""
        with self._lock:
            now = self.clock()
            if now < self._next:
                return []
            self._next = next_occurrence(now, self.at, self.tz)
            if self.engine.read_only:
                return []
            return self.run_now()

    def run_now(self) -> list[ConsolidationRun]:
        """Consolidate every configured agent now (trigger ``scheduled``)."""
        runs: list[ConsolidationRun] = []
        errors: dict[str, str] = {}
        for agent in self.agents():
            try:
                run = self.engine.agent(agent).consolidate(trigger="scheduled")
            except AmemError as exc:  # one agent's failure must not stop the others
                errors[agent] = str(exc)
                continue
            except Exception as exc:  # the thread must survive anything
                errors[agent] = f"{type(exc).__name__}: {exc}"
                continue
            runs.append(run)
            if self.on_run is not None:
                self.on_run(run)
        self.last_runs, self.last_errors = runs, errors
        return runs

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
