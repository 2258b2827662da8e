"""Time and ids as the engine sees them: injected, so tests and snapshots are exact."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]
IdFactory = Callable[[], str]


def utc_now() -> datetime:
    """The real clock."""
    return datetime.now(UTC)


def new_uuid() -> str:
    """A random UUID v4, as openclaw-amem gives its notes."""
    return str(uuid.uuid4())


def iso(moment: datetime) -> str:
    """ISO 8601 with milliseconds and a Z, as openclaw-amem writes timestamps."""
    return (
        moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    )


class Timekeeper:
    """The clock and id factory one engine uses for everything it writes."""

    def __init__(self, clock: Clock = utc_now, new_id: IdFactory = new_uuid) -> None:
        self.clock = clock
        self.new_id = new_id

    def now(self) -> str:
        """The clock's time as an ISO string."""
        return iso(self.clock())
