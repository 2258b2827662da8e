"""The nightly pass's records: what a day's pass wrote in the store (``PassRecord``),
where a running pass is (``PassProgress``), and what a pass did (``PassResult``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from amem_tui.engine.run_records import ConsolidationRun, RunTrigger
from amem_tui.engine.words import plural


class PassRecord(BaseModel):
    """One day's pass as recorded in the store: its day, who ran it, and what it did."""

    #: The local date of the scheduled start the pass belongs to.
    day: str
    #: That scheduled start (ISO, UTC).
    slot: str
    started_at: str
    finished_at: str | None = None
    #: ``stopped``: its process was told to stop, between two agents (the agents it
    #: names were consolidated; a later ``--due`` pass runs the day again).
    status: Literal["running", "done", "stopped"] = "running"
    trigger: RunTrigger = "manual"
    host: str = "?"
    pid: int = 0
    runner: str = "?"
    agents: list[str] = Field(default_factory=list)
    runs: list[str] = Field(default_factory=list)
    merges: int = 0
    errors: dict[str, str] = Field(default_factory=dict)

    def describe(self) -> str:
        """``at 2026-11-20T02:30:04.120Z by consolidate --all-agents on host db1 (pid 42)``."""
        return f"at {self.started_at} by {self.runner} on host {self.host} (pid {self.pid})"


@dataclass(frozen=True)
class PassProgress:
    """Where a pass is: agent ``index`` of ``agents`` (from 1), and that agent's merges
    applied (``done`` of ``total``) in ``phase``."""

    agent: str
    index: int
    agents: int
    phase: Literal["planning", "merging", "done", "failed"]
    done: int = 0
    total: int = 0

    def doing(self) -> str:
        """The step in words, as the front ends show it: ``planning``, ``merging 3/5``,
        ``2 merges`` (the agent done) or ``failed``."""
        if self.phase == "merging":
            return f"merging {self.done}/{self.total}"
        return plural(self.total, "merge") if self.phase == "done" else self.phase


PassListener = Callable[[PassProgress], None]


@dataclass(frozen=True)
class AgentOutcome:
    """One agent's part of a pass: its run (its id, merges and candidates), or why it
    failed (``error``; no collection or run then)."""

    agent: str
    collection: str | None
    run_id: str | None
    merges: int
    candidates: int
    error: str | None


@dataclass
class PassResult:
    """What a pass did: the runs made (one per agent), the agents that failed and why,
    and the record; or (``skipped``) the record of the day's pass that made it unneeded."""

    day: str
    slot: datetime
    ran: bool
    skipped: bool = False
    dry_run: bool = False
    record: PassRecord | None = None
    runs: list[ConsolidationRun] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)
    #: The lock was only best effort (a server that ignores conditional writes).
    best_effort_lock: bool = False
    #: Told to stop, the pass ended before an agent (``runs`` has the ones it did).
    stopped: bool = False

    @property
    def merges(self) -> int:
        """The merges of every agent's run (planned, for a dry run)."""
        return sum(len(run.merges) for run in self.runs)

    def outcomes(self) -> list[AgentOutcome]:
        """Each agent's part of the pass: the agents consolidated, then those that failed."""
        done = [
            AgentOutcome(run.agent, run.collection, run.id, len(run.merges), run.candidates, None)
            for run in self.runs
        ]
        failed = [AgentOutcome(agent, None, None, 0, 0, why) for agent, why in self.errors.items()]
        return done + failed
