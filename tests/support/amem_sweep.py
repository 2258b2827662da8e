"""openclaw-amem's contradiction sweep and quality scan, as rules over stored payloads.

Transcribed from amem-core's ``conflictSweep`` (memory.ts) and ``scanLowQuality``
(quality.ts), repository amemhq/amem, so tests can ask what amem's next night would
do with a store amem-tui wrote; openclaw-amem itself cannot run here (it is not
published to a package registry).

The sweep lists the agent's notes with its agent filter (``agent_id`` in [agent,
"shared"], minus ``is_active == false``), keeps those with ``agent_id != "shared"``,
``note_type != "knowledge"`` and ``is_active !== false``, groups them by ``category``
(``"General"`` when empty), sorts each group newest first by ``timestamp``, and cuts it
into batches of 25. A batch of fewer than 2 notes is never read; a batch whose every
note has a truthy ``conflict_scanned_at`` is skipped; any other batch goes to the model.
The quality scan lists a note it may write as ``pending_conflict`` when
``conflict === true``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from amem_tui.engine.store.base import NoteStore

BATCH_SIZE = 25


def _time(payload: dict[str, Any]) -> float:
    """``Date.parse(timestamp)``: NaN (here: -inf) for what cannot be read."""
    value = payload.get("timestamp")
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00")).timestamp()
    except ValueError:
        return float("-inf")


def swept_notes(points: Iterable[tuple[str, dict[str, Any]]], agent: str) -> list[tuple[str, dict]]:
    """What the sweep of ``agent`` reads: its agent filter, then its own filter."""
    out = []
    for point_id, payload in points:
        if payload.get("agent_id") not in (agent, "shared"):
            continue
        if payload.get("is_active") is False:
            continue
        if payload.get("agent_id") == "shared" or payload.get("note_type") == "knowledge":
            continue
        out.append((point_id, payload))
    return out


def batches(store: NoteStore, collection: str, agent: str) -> list[list[str]]:
    """Every batch of 2 or more notes the sweep of ``agent`` forms, as note ids."""
    points = [(p.id, p.payload) for p in store.scan(collection)]
    groups: dict[str, list[tuple[str, dict]]] = {}
    for point_id, payload in swept_notes(points, agent):
        groups.setdefault(payload.get("category") or "General", []).append((point_id, payload))
    out: list[list[str]] = []
    for group in groups.values():
        # A stable sort, newest first, as Array.prototype.sort is.
        group.sort(key=lambda item: _time(item[1]), reverse=True)
        for start in range(0, len(group), BATCH_SIZE):
            batch = group[start : start + BATCH_SIZE]
            if len(batch) >= 2:
                out.append([point_id for point_id, _ in batch])
    return out


def read_next(store: NoteStore, collection: str, agent: str) -> list[list[str]]:
    """The batches the next sweep sends to the model (not every note scanned)."""
    found = {p.id: p.payload for p in store.scan(collection)}
    return [
        batch
        for batch in batches(store, collection, agent)
        if not all(found[i].get("conflict_scanned_at") for i in batch)
    ]


def pending_conflict(payload: dict[str, Any]) -> bool:
    """The quality scan's ``pending_conflict`` reason."""
    return payload.get("conflict") is True
