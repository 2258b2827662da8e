"""A note's conflict flags, as openclaw-amem writes them, and what settling them leaves.

openclaw-amem's nightly contradiction sweep (amem-core's ``conflictSweep``) reads an
agent's own private, active ``memory`` notes, grouped by category, newest first, in
batches of 25. A batch is read again only when one of its notes has no
``conflict_scanned_at``: a batch whose every note has one is skipped. For each pair
the model calls contradicting it sets, on both notes, ``conflict`` true,
``evolution_type`` ``CONFLICT``, the other's id added to ``conflicts_with`` and the
``conflict_reason``; then every note of the batch gets ``conflict_scanned_at``.

Settling a pair names the partner no more; a note left with no partner has
``conflict`` false and no reason, and it keeps (or gets) a ``conflict_scanned_at``, so
the sweep's skip rule leaves its batch alone and the same pair is not raised again
(until the batch gains a note: then the model reads it whole again, and may). The
``evolution_type`` stays: it tells what happened to the note, not what is open.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

#: The payload fields a decision may change on a note it keeps.
FLAG_FIELDS = ("conflict", "conflicts_with", "conflict_reason", "conflict_scanned_at")


def partners(payload: Mapping[str, Any], note_id: str = "") -> list[str]:
    """The ids a note's ``conflicts_with`` names, each once (itself left out)."""
    raw = payload.get("conflicts_with")
    if not isinstance(raw, list):
        return []
    return list(dict.fromkeys(x for x in raw if isinstance(x, str) and x and x != note_id))


def is_flagged(payload: Mapping[str, Any]) -> bool:
    """True for a note openclaw-amem flagged: ``conflict`` true, or a partner named."""
    return payload.get("conflict") is True or bool(partners(payload))


def settled_flags(payload: Mapping[str, Any], settled: Collection[str], now: str) -> dict[str, Any]:
    """The conflict fields a note gets once its conflicts with ``settled`` are decided:
    only the fields that change.

    ``settled`` are named no more in ``conflicts_with``; with no partner left (a flag
    that named nobody included), ``conflict`` becomes false and the reason empty.
    ``conflict_scanned_at`` is set to ``now`` when missing or empty.
    """
    out: dict[str, Any] = {}
    raw = payload.get("conflicts_with")
    left = partners(payload)
    if isinstance(raw, list):
        kept = [x for x in raw if not (isinstance(x, str) and x in settled)]
        if kept != raw:
            out["conflicts_with"] = kept
        left = [x for x in left if x not in settled]
    if not left:
        if payload.get("conflict") is True:
            out["conflict"] = False
        if isinstance(payload.get("conflict_reason"), str) and payload["conflict_reason"]:
            out["conflict_reason"] = ""
    scanned = payload.get("conflict_scanned_at")
    if not (isinstance(scanned, str) and scanned):
        out["conflict_scanned_at"] = now
    return out


def scanned(payload: Mapping[str, Any]) -> bool:
    """True when the sweep counts the note as read (a non-empty ``conflict_scanned_at``)."""
    value = payload.get("conflict_scanned_at")
    return isinstance(value, str) and bool(value)
