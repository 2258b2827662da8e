"""When each agent wrote, and when its silence is far beyond its usual gaps.

A write is a note created (its ``timestamp``) or its content rewritten in place (an
``evolution_history`` entry with action ``crud_update``: openclaw-amem's update of a
near-duplicate, or an edit through amem-tui), counted for the note's owner, whatever
became of the note since.

The silent-agent rule, against the agent's own rhythm: the gaps between its
consecutive writes, leaving out gaps under ``SESSION_GAP`` (writes of one
session), the latest ``RECENT_GAPS`` of them. Its usual gap is their 90th
percentile (nearest rank). It is silent when the time since its last write exceeds
``FACTOR`` times its usual gap and at least ``MIN_SILENCE``; an error past
``FACTOR`` times that. With fewer than ``MIN_GAPS`` gaps it is not judged.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from amem_tui.engine.health.report import AgentHealth, Problem, Severity
from amem_tui.engine.models import parse_evolution_history, parse_time
from amem_tui.engine.words import plural

#: Writes closer together than this are one session: the gap between them is not counted.
SESSION_GAP = timedelta(hours=1)
#: The latest gaps an agent's usual gap is taken from (old habits fade).
RECENT_GAPS = 50
#: Gaps an agent needs before its silence is judged.
MIN_GAPS = 5
#: How many usual gaps of silence make an agent silent (and, squared, an error).
FACTOR = 3.0
#: The shortest silence ever called silent.
MIN_SILENCE = timedelta(days=1)
#: Days of writes per day the report gives.
DAYS = 30
#: The fields a write is read from.
WRITE_FIELDS = ("timestamp", "createdAt", "created_at", "evolution_history")


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def created_of(payload: Mapping[str, Any]) -> datetime | None:
    """When a stored note was created (any spelling of the field), in UTC."""
    for key in ("timestamp", "createdAt", "created_at"):
        value = payload.get(key)
        moment = parse_time(value) if isinstance(value, str) and value else None
        if moment is not None:
            return _utc(moment)
    return None


def writes_of(payload: Mapping[str, Any]) -> list[datetime]:
    """The writes a stored note records: its creation, and each content rewrite."""
    out: list[datetime] = []
    created = next(
        (
            v
            for k in ("timestamp", "createdAt", "created_at")
            if isinstance(v := payload.get(k), str) and v
        ),
        None,
    )
    moment = parse_time(created)
    if moment is not None:
        out.append(_utc(moment))
    raw = payload.get("evolution_history")
    if raw and "crud_update" in str(raw):
        try:
            entries = parse_evolution_history(raw)
        except (ValueError, TypeError):
            entries = []
        for entry in entries:
            when = parse_time(entry.triggeredAt) if entry.action == "crud_update" else None
            if when is not None:
                out.append(_utc(when))
    return out


def day_list(now: datetime, days: int = DAYS) -> list[str]:
    """The last ``days`` UTC dates up to ``now``'s, oldest first."""
    today = _utc(now).date()
    return [(today - timedelta(days=days - 1 - i)).isoformat() for i in range(days)]


def per_day(times: Sequence[datetime], days: Sequence[str]) -> list[int]:
    """How many of ``times`` fall on each of ``days``."""
    index = {d: i for i, d in enumerate(days)}
    counts = [0] * len(days)
    for moment in times:
        i = index.get(moment.date().isoformat())
        if i is not None:
            counts[i] += 1
    return counts


def usual_gap(times: Sequence[datetime]) -> tuple[timedelta | None, int]:
    """The 90th percentile of the latest gaps between sessions, and how many gaps there
    were (None when fewer than ``MIN_GAPS``)."""
    ordered = sorted(times)
    gaps = [b - a for a, b in itertools.pairwise(ordered) if b - a >= SESSION_GAP]
    gaps = gaps[-RECENT_GAPS:]
    if len(gaps) < MIN_GAPS:
        return None, len(gaps)
    ranked = sorted(gaps)
    return ranked[math.ceil(0.9 * len(ranked)) - 1], len(gaps)


def _hours(delta: timedelta) -> float:
    return round(delta.total_seconds() / 3600, 1)


def judge(
    agent: str, times: Sequence[datetime], now: datetime, days: Sequence[str], notes: int
) -> tuple[AgentHealth, Problem | None]:
    """One agent's writing, and its ``silent-agent`` problem (None: not silent)."""
    now = _utc(now)
    health = AgentHealth(agent=agent, writes_per_day=per_day(times, days), notes=notes)
    past = [t for t in times if t <= now]
    if not past:
        health.silence = "no write recorded: not judged"
        return health, None
    last = max(past)
    health.last_write = last.isoformat().replace("+00:00", "Z")
    silence = now - last
    health.silence_hours = _hours(silence)
    usual, gaps = usual_gap(past)
    if usual is None:
        health.silence = (
            f"not judged: {plural(gaps, 'gap')} of an hour or more between writes, "
            f"{MIN_GAPS} needed to know its rhythm"
        )
        return health, None
    threshold = max(usual * FACTOR, MIN_SILENCE)
    health.usual_gap_hours = _hours(usual)
    health.silent_after_hours = _hours(threshold)
    health.silence = (
        f"silent after {_hours(threshold)} h: {FACTOR:g} x its usual gap between writes "
        f"({_hours(usual)} h, the 90th percentile of its last {gaps}), at least "
        f"{_hours(MIN_SILENCE)} h"
    )
    if silence <= threshold:
        return health, None
    severity: Severity = "error" if silence > threshold * FACTOR else "warning"
    problem = Problem(
        kind="silent-agent",
        severity=severity,
        agent=agent,
        why=(
            f"{agent} has written nothing for {_hours(silence)} h (since "
            f"{health.last_write}); its usual gap is {_hours(usual)} h, so past "
            f"{_hours(threshold)} h it counts as silent"
        ),
    )
    return health, problem
