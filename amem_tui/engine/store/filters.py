"""Backend-neutral filters: what the scope rules produce and every backend translates.

A filter only says which payload values match; who may see what is decided in
``amem_tui.engine.scope``, never here or in a backend.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Match:
    """``key`` equals ``value``, or for a list field, contains it."""

    key: str
    value: str | bool


@dataclass(frozen=True)
class MatchAny:
    """``key`` equals (or, for a list field, contains) any of ``values``."""

    key: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class MatchExcept:
    """``key`` holds a value that is none of ``values`` (for a list field: at least one
    such item). A missing, null or empty field never matches."""

    key: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class Empty:
    """``key`` is missing, null or an empty list."""

    key: str


@dataclass(frozen=True)
class Since:
    """``key`` holds a time (ISO 8601 text) at or after ``moment``: what is new since then.

    A value that is not a readable time never matches.
    """

    key: str
    moment: str


@dataclass(frozen=True)
class Before:
    """``key`` holds a time (ISO 8601 text) strictly before ``moment``.

    A value that is not a readable time never matches.
    """

    key: str
    moment: str


@dataclass(frozen=True)
class Range:
    """``key`` holds a number within the bounds given (None: no bound on that side);
    for a list field, at least one of its numbers does. A value that is not a number
    (text, a boolean, missing) never matches.

    Fields a store counts or orders by should have a numeric index (``integer``):
    without one, a store checks the condition on every point the rest of the filter
    leaves.
    """

    key: str
    gte: float | None = None
    gt: float | None = None
    lte: float | None = None
    lt: float | None = None

    def holds(self, value: object) -> bool:
        """True when ``value`` (a stored payload value) is a number within the bounds."""
        if isinstance(value, list):
            return any(self.holds(item) for item in value)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        return (
            (self.gte is None or value >= self.gte)
            and (self.gt is None or value > self.gt)
            and (self.lte is None or value <= self.lte)
            and (self.lt is None or value < self.lt)
        )


@dataclass(frozen=True)
class HasId:
    """The point's id is one of ``ids`` (as stored: UUID text or an unsigned integer)."""

    ids: tuple[str, ...]


@dataclass(frozen=True)
class Filter:
    """A backend-neutral filter: all of ``must``, one of ``should``, none of ``must_not``.

    A nested ``Filter`` may stand for a condition.
    """

    must: tuple[Condition, ...] = ()
    should: tuple[Condition, ...] = ()
    must_not: tuple[Condition, ...] = ()


Condition = Match | MatchAny | MatchExcept | Empty | Since | Before | Range | HasId | Filter
