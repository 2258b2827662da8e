"""The nightly pass's time of day: reading ``HH:MM`` and a time zone, and the moments a
day's pass starts (the next one, the last one). Pure functions of a clock reading,
shared by the pass (``nightly``: which day it is) and the scheduler (when to run).
"""

from __future__ import annotations

from datetime import datetime, time, timedelta, tzinfo

from amem_tui.engine.errors import ConfigError

DEFAULT_TIME = "02:30"


def parse_hhmm(value: str) -> time:
    """``"HH:MM"`` (24-hour) as a time of day, or ``ConfigError``."""
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


def last_occurrence(at_or_before: datetime, at: time, tz: tzinfo | None = None) -> datetime:
    """The latest moment at or before ``at_or_before`` when the local clock showed ``at``:
    the scheduled start of the nightly pass that is current then (a day runs from one
    scheduled start to the next)."""
    local = at_or_before.astimezone(tz) if tz is not None else at_or_before.astimezone()
    day = local.date()
    for _ in range(3):
        naive = datetime.combine(day, at)
        moment = naive.replace(tzinfo=tz) if tz is not None else naive.astimezone()
        if moment <= at_or_before:
            return moment
        day -= timedelta(days=1)
    raise AssertionError("unreachable: a day earlier is always earlier")  # pragma: no cover


def zone_of(name: str | None) -> tzinfo | None:
    """The time zone ``name`` (IANA, e.g. ``Europe/Berlin``) names; None (the machine's
    local time) for none; ``ConfigError`` for a name the system does not know."""
    if not name or not name.strip():
        return None
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(
            f"consolidation time zone must be an IANA name such as Europe/Berlin or UTC; "
            f"got {name!r}"
        ) from None
