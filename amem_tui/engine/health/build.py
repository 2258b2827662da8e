"""The health report put together: one pass over each collection the agents use, the
side files, amem-tui's nightly records, the collections' models and aliases."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from amem_tui.engine.collections import CollectionService
from amem_tui.engine.consolidation.pass_records import PassRecord
from amem_tui.engine.health.collections import mixed_models, stale_aliases
from amem_tui.engine.health.nightly import (
    RUNS_LISTED,
    log_problems,
    owed_problems,
    pass_problems,
    pass_runs,
)
from amem_tui.engine.health.note_checks import CHECK_FIELDS, Findings, owner_of
from amem_tui.engine.health.report import (
    PROBLEM_KINDS,
    CheckResult,
    HealthReport,
    Problem,
    ProblemKind,
    WriteSeries,
    rank,
)
from amem_tui.engine.health.side_files import read_log, read_owed
from amem_tui.engine.health.writes import (
    DAYS,
    WRITE_FIELDS,
    created_of,
    day_list,
    judge,
    per_day,
    writes_of,
)
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.store.base import NoteStore

_OWNER_FIELDS = ("owner", "agent_id")


@dataclass(frozen=True)
class HealthInputs:
    """What the report reads: the agents, their collections, the store, the moment and
    the last nightly start, amem-tui's nightly records, openclaw-amem's folder."""

    scopes: Sequence[AgentScope]
    collection: Callable[[str], CollectionService]
    store: NoteStore
    now: datetime
    slot: datetime
    default_agent: str
    folder: Path
    records: Sequence[PassRecord] = ()
    #: A nightly pass of amem-tui holds its lock now.
    held: bool = False


def _collections(inputs: HealthInputs) -> tuple[dict[str, list[str]], list[str], list[str]]:
    """The openclaw-amem collections (name -> agents, each once by real name), the mem0
    ones left out, and every agent of the former."""
    users: dict[str, list[str]] = {}
    real: dict[str, str] = {}
    mem0: list[str] = []
    agents: list[str] = []
    for scope in inputs.scopes:
        service = inputs.collection(scope.collection)
        if service.format == "mem0":
            if service.name not in mem0:
                mem0.append(service.name)
            continue
        name = real.setdefault(service.real_name, scope.collection)
        users.setdefault(name, [])
        if scope.agent not in users[name]:
            users[name].append(scope.agent)
        if scope.agent not in agents:
            agents.append(scope.agent)
    return users, mem0, agents


def _points(inputs: HealthInputs, names: Sequence[str], fields: Sequence[str]) -> Iterator[Any]:
    for name in names:
        service = inputs.collection(name)
        if service.exists():
            for point in service.store.scan(service.name, fields=list(dict.fromkeys(fields))):
                yield name, point


def write_series(inputs: HealthInputs, days: int = DAYS) -> WriteSeries:
    """Writes per agent per day, the last ``days`` UTC days: what the overview charts."""
    users, _, agents = _collections(inputs)
    dates = day_list(inputs.now, days)
    times: dict[str, list[datetime]] = {a: [] for a in agents}
    for _, point in _points(inputs, list(users), (*WRITE_FIELDS, *_OWNER_FIELDS)):
        who = owner_of(point.payload)
        if who is not None:
            times.setdefault(who, []).extend(writes_of(point.payload))
    return WriteSeries(days=dates, agents={a: per_day(t, dates) for a, t in sorted(times.items())})


def _state(kinds: Sequence[ProblemKind], problems: Sequence[Problem]) -> CheckResult:
    found = sum(1 for p in problems if p.kind in kinds)
    return CheckResult(state="problems" if found else "ok")


def build_health(inputs: HealthInputs) -> HealthReport:
    """The whole report (see ``amem_tui.engine.health``)."""
    now = inputs.now
    users, mem0, agents = _collections(inputs)
    report = HealthReport(at=now.isoformat().replace("+00:00", "Z"), days=day_list(now))
    findings = Findings()
    times: dict[str, list[datetime]] = {a: [] for a in agents}
    fields = (*WRITE_FIELDS, *CHECK_FIELDS)
    for name, point in _points(inputs, list(users), fields):
        payload = point.payload
        who = owner_of(payload)
        if who is not None:
            times.setdefault(who, []).extend(writes_of(payload))
        service = inputs.collection(name)
        findings.add(service.real_name, point.id, payload, created_of(payload), now)
    problems: list[Problem] = []
    for agent, written in sorted(times.items()):
        health, silent = judge(agent, written, now, report.days, findings.active[agent])
        report.agents[agent] = health
        if silent is not None:
            problems.append(silent)
    problems += findings.problems(now, inputs.slot, inputs.default_agent)
    owed = read_owed(inputs.folder)
    log = read_log(inputs.folder)
    report.side_files = [owed.file, log.file]
    report.owed = {o.agent: o.since.isoformat().replace("+00:00", "Z") for o in owed.agents}
    problems += owed_problems(owed, now, inputs.slot)
    problems += log_problems(log, now)
    problems += pass_problems(inputs.records, now, inputs.held)
    runs = [*log.runs[:RUNS_LISTED], *pass_runs(inputs.records)]
    report.nightly = sorted(runs, key=lambda r: r.started_at, reverse=True)
    problems += mixed_models(inputs.store, users)
    alias_check, alias_problems = stale_aliases(inputs.store)
    problems += alias_problems
    order = {kind: i for i, kind in enumerate(PROBLEM_KINDS)}
    problems.sort(key=lambda p: (-rank(p.severity), order[p.kind], p.agent or "", p.why))
    report.problems = problems
    report.checks = _checks(report, users, mem0, alias_check)
    return report


#: The checks made on the notes themselves (and on the collections' models).
NOTE_CHECKS: tuple[ProblemKind, ...] = (
    "silent-agent",
    "hollow-notes",
    "low-quality",
    "ephemeral",
    "merge-backlog",
    "unscanned-conflicts",
    "duplicate-hash",
    "mixed-models",
)


def _checks(
    report: HealthReport,
    users: dict[str, list[str]],
    mem0: list[str],
    alias_check: CheckResult | None,
) -> dict[str, CheckResult]:
    checks: dict[str, CheckResult] = {k: _state([k], report.problems) for k in PROBLEM_KINDS}
    for kind in NOTE_CHECKS:
        if not users:
            detail = "no openclaw-amem collection"
            if mem0:
                detail += f" (mem0 memories only, in {', '.join(mem0)}: openclaw-amem's checks)"
            checks[kind] = CheckResult(state="not checked", detail=detail)
        elif mem0:
            checks[kind].detail = f"mem0 collections not checked: {', '.join(mem0)}"
    owed, log = report.side_files
    if owed.state != "found" and checks["nightly-owed"].state == "ok":
        checks["nightly-owed"] = CheckResult(
            state="not checked", detail=f"{owed.path}: {owed.state} ({owed.detail})"
        )
    if log.state != "found" and checks["nightly-failed"].state == "ok":
        ours = "amem-tui's own nightly records read" if report.nightly else "no nightly record"
        checks["nightly-failed"] = CheckResult(
            state="not checked", detail=f"{log.path}: {log.state} ({log.detail}); {ours}"
        )
    if alias_check is not None:
        checks["stale-alias"] = alias_check
    return checks
