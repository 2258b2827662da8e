"""Compare-and-set changes of note payloads: planned, recorded, then applied idempotently.

A consolidation run writes its plan as ``NoteChange``
records before touching a note. A change holds what it replaces, so applying it
twice is harmless (a crashed run is finished by the next one) and undo has
everything it needs.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, Literal

import numpy as np

from amem_tui.engine.models import parse_time
from amem_tui.engine.run_records import NoteChange

ChangeRole = Literal["keeper", "dropped", "links", "flags"]


def encode_vector(vector: np.ndarray | Sequence[float]) -> str:
    """A vector as base64 of little-endian float32 (how a recorded change keeps it)."""
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")


def decode_vector(text: str) -> list[float]:
    """The vector ``encode_vector`` recorded."""
    values: list[float] = np.frombuffer(base64.b64decode(text), dtype="<f4").astype(float).tolist()
    return values


def union(*lists: Iterable[str]) -> list[str]:
    """The items of every list, each once, in first-seen order."""
    out: list[str] = []
    seen: set[str] = set()
    for items in lists:
        for item in items:
            if item not in seen:
                seen.add(item)
                out.append(item)
    return out


def rewrite_links(links: Sequence[str], mapping: dict[str, str], self_id: str) -> list[str]:
    """Links with dropped ids replaced by their keepers.

    A replaced link is left out when its keeper is the note itself or is linked
    already; links that are not replaced stay exactly as they were (so an empty
    mapping gives the same list back, which undo relies on).
    """
    out: list[str] = []
    for link in links:
        target = mapping.get(link)
        if target is None:
            out.append(link)
        elif target != self_id and target not in out and target not in links:
            out.append(target)
    return out


def latest(values: Iterable[str]) -> str:
    """The latest of some ISO timestamps (unreadable ones ignored), or ``""``."""
    best = ""
    best_time: datetime | None = None
    for value in values:
        moment = parse_time(value)
        if moment is None:
            continue
        if best_time is None or moment > best_time:
            best, best_time = value, moment
    return best


MISSING = object()


def holds(payload: dict[str, Any], values: dict[str, Any], absent: Iterable[str]) -> bool:
    """True when ``payload`` has ``values`` and none of the ``absent`` keys."""
    return all(payload.get(k, MISSING) == v for k, v in values.items()) and all(
        k not in payload for k in absent
    )


def make_change(
    role: ChangeRole,
    note_id: str,
    payload: dict[str, Any],
    new: dict[str, Any],
    unset: Iterable[str] = (),
    guard: Iterable[str] = (),
    vector: str | None = None,
) -> NoteChange:
    """A change from ``payload`` to ``payload`` with ``new`` set and ``unset`` removed."""
    changed = {k: v for k, v in new.items() if payload.get(k, MISSING) != v}
    removed = [k for k in unset if k in payload]
    keys = union(changed, removed, guard)
    return NoteChange(
        note=note_id,
        role=role,
        before={k: payload[k] for k in keys if k in payload},
        absent=[k for k in keys if k not in payload],
        set=changed,
        unset=removed,
        vector=vector,
    )


def change_is_done(change: NoteChange, payload: dict[str, Any]) -> bool:
    """True when the note already holds the change's new values."""
    return holds(payload, change.set, change.unset)


def change_can_apply(change: NoteChange, payload: dict[str, Any]) -> bool:
    """True when the note still holds the values the change was planned against."""
    return holds(payload, change.before, change.absent)


def applied(change: NoteChange, payload: dict[str, Any]) -> dict[str, Any]:
    """The payload with the change applied."""
    out = {k: v for k, v in payload.items() if k not in change.unset}
    out.update(change.set)
    return out
