"""What the health report says: per agent, how memory is being written; the problems
found, each with its kind, severity, agent, notes and why; and what could not be
checked, and why (a missing file is said to be missing, never taken as all well)."""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, Field

Severity = Literal["info", "warning", "error"]
SEVERITIES: tuple[Severity, ...] = get_args(Severity)

ProblemKind = Literal[
    "silent-agent",
    "hollow-notes",
    "low-quality",
    "ephemeral",
    "merge-backlog",
    "nightly-owed",
    "nightly-failed",
    "unscanned-conflicts",
    "mixed-models",
    "duplicate-hash",
    "stale-alias",
    "unreadable-side-file",
]
PROBLEM_KINDS: tuple[ProblemKind, ...] = get_args(ProblemKind)

#: ``ok``: checked, nothing found; ``problems``: checked, found some; ``not checked``:
#: what it needs is missing (a side file not found); ``not supported``: the store cannot
#: tell (aliases on Qdrant Edge).
CheckState = Literal["ok", "problems", "not checked", "not supported"]

#: Note ids a problem lists at most (``count`` says how many there are).
NOTES_LISTED = 200


def rank(severity: Severity) -> int:
    """``info`` 0, ``warning`` 1, ``error`` 2."""
    return SEVERITIES.index(severity)


class Problem(BaseModel):
    """One thing found wrong: its kind, how bad, whose, the notes behind it, and why."""

    kind: ProblemKind
    severity: Severity
    #: The agent it concerns (None: the store, or a collection).
    agent: str | None = None
    #: The notes behind it (at most ``NOTES_LISTED``; ``count`` says how many).
    notes: list[str] = Field(default_factory=list)
    why: str
    count: int = 0
    collection: str | None = None
    #: The side file it comes from, or that could not be read.
    path: str | None = None


class CheckResult(BaseModel):
    """Whether one kind of problem was looked for, and what came of it."""

    state: CheckState
    detail: str = ""


class SideFile(BaseModel):
    """A file openclaw-amem keeps beside the store, as found."""

    name: Literal["nightly-owed", "consolidate-log"]
    path: str
    state: Literal["found", "not found", "unreadable"]
    detail: str = ""


class AgentHealth(BaseModel):
    """How one agent's memory is being written."""

    agent: str
    #: Its latest write (a note created, or its content rewritten), ISO; None: none.
    last_write: str | None = None
    #: Writes on each of ``HealthReport.days``, oldest first.
    writes_per_day: list[int] = Field(default_factory=list)
    #: Active notes it owns.
    notes: int = 0
    #: Its usual gap between writes (the 90th percentile), in hours; None: too few.
    usual_gap_hours: float | None = None
    #: The silence past which it counts as a silent agent, in hours.
    silent_after_hours: float | None = None
    #: The time since its last write, in hours.
    silence_hours: float | None = None
    #: The silence rule in words, or why it could not be judged.
    silence: str = ""


class WriteSeries(BaseModel):
    """Writes per agent per day (UTC days, oldest first), for a chart."""

    days: list[str]
    agents: dict[str, list[int]]


class NightlyRun(BaseModel):
    """One run of a nightly job as a log or a record shows it."""

    source: Literal["amem-consolidate.log", "amem-tui"]
    started_at: str
    finished_at: str | None = None
    merges: int = 0
    status: str = "done"
    errors: list[str] = Field(default_factory=list)


class HealthReport(BaseModel):
    """Whether memory is being written and kept well (see ``amem_tui.engine.health``)."""

    at: str
    days: list[str]
    agents: dict[str, AgentHealth] = Field(default_factory=dict)
    problems: list[Problem] = Field(default_factory=list)
    checks: dict[str, CheckResult] = Field(default_factory=dict)
    side_files: list[SideFile] = Field(default_factory=list)
    #: The last nightly runs, newest first (openclaw-amem's log, amem-tui's own records).
    nightly: list[NightlyRun] = Field(default_factory=list)
    #: The agents openclaw-amem owes a nightly merge: raw agent id -> since when (ISO).
    owed: dict[str, str] = Field(default_factory=dict)

    @property
    def worst(self) -> Severity | None:
        """The worst severity among the problems (None: no problem)."""
        if not self.problems:
            return None
        return max((p.severity for p in self.problems), key=rank)

    def failing(self, at: Severity = "warning") -> list[Problem]:
        """The problems at or above ``at`` (what ``--fail-on`` asks)."""
        return [p for p in self.problems if rank(p.severity) >= rank(at)]

    def fails(self, at: Severity = "warning") -> bool:
        """True when a problem at or above ``at`` exists."""
        return bool(self.failing(at))

    def of_kind(self, kind: ProblemKind) -> list[Problem]:
        """The problems of one kind."""
        return [p for p in self.problems if p.kind == kind]

    def series(self) -> WriteSeries:
        """Writes per agent per day, for the overview's chart."""
        return WriteSeries(
            days=list(self.days),
            agents={name: list(a.writes_per_day) for name, a in self.agents.items()},
        )

    def to_json(self) -> dict[str, Any]:
        """``{"agents": {...}, "problems": [{"kind", "severity", "agent", "notes", "why"},
        ...], ...}``: the whole report."""
        return self.model_dump(mode="json")
