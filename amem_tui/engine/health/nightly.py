"""The nightly jobs' problems: agents owed a merge, and runs that failed.

``nightly-owed``, one per agent in ``amem_nightly_owed.json``: info while it owes
only writes since the last nightly start (tonight's job takes them), warning once a
job since should have settled it (openclaw-amem keeps an agent whose merge failed or
was stopped owed, and a gateway that was off runs no job), error past 7 days (its
merge reads 7 days back at most: older writes are never merged).

``nightly-failed`` (error): the latest run of ``amem-consolidate.log`` within 7 days
that logged errors; and amem-tui's own nightly pass (recorded in the store), when its
latest pass failed for an agent or died while running (its lock expired unrenewed).
A stopped pass (told to stop between agents) is a warning. openclaw-amem reports a
failed night in the gateway's own log, which is not read here: the owed file is where
such a night shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from amem_tui.engine.consolidation.pass_records import PassRecord
from amem_tui.engine.consolidation.runlock import LOCK_TTL
from amem_tui.engine.health.report import NightlyRun, Problem, Severity
from amem_tui.engine.health.side_files import LogFile, OwedFile, utc_time
from amem_tui.engine.words import plural

#: How far back the nightly merge reads, and how long a failed log run matters.
WINDOW = timedelta(days=7)
#: Runs of each source the report lists.
RUNS_LISTED = 5


def _hours(delta: timedelta) -> str:
    return f"{delta.total_seconds() / 3600:.1f} h"


def owed_problems(owed: OwedFile, now: datetime, slot: datetime) -> list[Problem]:
    """``nightly-owed`` for each owed agent, and the file's own trouble."""
    out: list[Problem] = []
    path = owed.file.path
    if owed.file.state == "unreadable" or owed.skipped:
        out.append(
            Problem(
                kind="unreadable-side-file",
                severity="warning",
                why=f"{path}: {owed.file.detail}",
                path=path,
            )
        )
    for entry in sorted(owed.agents, key=lambda e: e.agent):
        waited = now - entry.since
        wrote = f", last write {entry.wrote.isoformat()}" if entry.wrote else ""
        why = f"owed a nightly merge since {entry.since.isoformat()} ({_hours(waited)}{wrote})"
        severity: Severity = "info"
        if waited > WINDOW:
            severity = "error"
            why += ": writes older than 7 days are never merged"
        elif entry.since < slot:
            severity = "warning"
            why += (
                f": the nightly job of {slot.isoformat()} should have settled it (it failed "
                "or stopped for this agent, or the gateway was off)"
            )
        out.append(
            Problem(kind="nightly-owed", severity=severity, agent=entry.agent, why=why, path=path)
        )
    return out


def log_problems(log: LogFile, now: datetime) -> list[Problem]:
    """``nightly-failed`` for the latest failed run of the log, if recent; the log's own
    trouble as ``unreadable-side-file``."""
    path = log.file.path
    if log.file.state == "unreadable":
        why = f"{path}: {log.file.detail}"
        return [Problem(kind="unreadable-side-file", severity="warning", why=why, path=path)]
    for run in log.runs:
        started = utc_time(run.started_at)
        if started is None or now - started > WINDOW:
            break
        if run.errors:
            first = run.errors[0].splitlines()[0]
            why = (
                f"the run of {run.started_at} logged {plural(len(run.errors), 'error')} in "
                f"amem-consolidate.log, first: {first}"
            )
            return [Problem(kind="nightly-failed", severity="error", why=why, path=path)]
    return []


def pass_runs(records: Sequence[PassRecord]) -> list[NightlyRun]:
    """amem-tui's own passes as runs, newest first."""
    return [
        NightlyRun(
            source="amem-tui",
            started_at=r.started_at,
            finished_at=r.finished_at,
            merges=r.merges,
            status=r.status,
            errors=[f"{agent}: {message}" for agent, message in sorted(r.errors.items())],
        )
        for r in records[:RUNS_LISTED]
    ]


def pass_problems(records: Sequence[PassRecord], now: datetime, held: bool) -> list[Problem]:
    """``nightly-failed`` from amem-tui's latest pass (``held``: a pass runs now)."""
    if not records:
        return []
    latest = records[0]
    out: list[Problem] = []
    for agent, message in sorted(latest.errors.items()):
        why = f"amem-tui's nightly pass of {latest.day} failed for {agent}: {message}"
        out.append(Problem(kind="nightly-failed", severity="error", agent=agent, why=why))
    started = utc_time(latest.started_at)
    if latest.status == "running" and not held and started and now - started > LOCK_TTL:
        why = (
            f"amem-tui's nightly pass of {latest.day} started {latest.started_at} by "
            f"{latest.runner} on {latest.host} never finished (its lock expired): it died"
        )
        out.append(Problem(kind="nightly-failed", severity="error", why=why))
    elif latest.status == "stopped":
        done = ", ".join(latest.agents) or "no agent"
        why = f"amem-tui's nightly pass of {latest.day} was stopped after {done}"
        out.append(Problem(kind="nightly-failed", severity="warning", why=why))
    return out
