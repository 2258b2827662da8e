"""Backend-neutral filters: what the scope rules produce and every backend translates.

A filter only says which payload values match; who may see what is decided in
:mod:`amem_tui.engine.scope`, never here or in a backend.
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
class HasId:
    """The point's id is one of ``ids`` (as stored: UUID text or an unsigned integer)."""

    ids: tuple[str, ...]


@dataclass(frozen=True)
class Filter:
    """A backend-neutral filter: all of ``must``, one of ``should``, none of ``must_not``.

    A nested :class:`Filter` may stand for a condition.
    """

    must: tuple[Condition, ...] = ()
    should: tuple[Condition, ...] = ()
    must_not: tuple[Condition, ...] = ()


Condition = Match | MatchAny | MatchExcept | Empty | Since | Before | HasId | Filter
