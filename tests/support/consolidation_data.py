"""Notes with chosen vectors for consolidation tests, and a store that fails on cue."""

from __future__ import annotations

import math
import uuid
from collections.abc import Sequence
from typing import Any

import numpy as np

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.formats.openclaw import openclaw_payload
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.base import NoteStore, StoredPoint

DIM = 64  # the test embedder's size
NS = uuid.UUID("2c1f7e0a-4b5d-4e6f-8a9b-0c1d2e3f4a5b")
MODE_A = "amem_notes"
MODE_B = "amem_notes_sandbox"


def nid(key: str) -> str:
    """The fixed id of a test note."""
    return str(uuid.uuid5(NS, key))


def axis(i: int) -> np.ndarray:
    """The i-th unit vector."""
    vec = np.zeros(DIM, dtype=np.float32)
    vec[i] = 1.0
    return vec


def turned(base: int, degrees: float, towards: int) -> list[float]:
    """A unit vector at ``degrees`` from axis ``base`` (cosine = cos(degrees))."""
    rad = math.radians(degrees)
    return (math.cos(rad) * axis(base) + math.sin(rad) * axis(towards)).tolist()


def make_note(
    key: str,
    agent_id: str,
    content: str,
    *,
    owner: str | None = None,
    category: str = "Personal",
    tags: Sequence[str] = (),
    keywords: Sequence[str] = (),
    links: Sequence[str] = (),
    retrieval_count: int = 0,
    last_accessed: str = "2026-11-01T10:00:00.000Z",
    note_type: str = "memory",
    legacy: bool = False,
    **extra: Any,
) -> MemoryNote:
    """A note with every openclaw-amem field (or, ``legacy``, without access fields)."""
    owner = owner or agent_id
    payload = openclaw_payload(
        content,
        agent_id=agent_id,
        owner=owner,
        keywords=list(keywords),
        tags=list(tags),
        context=f"{category} note",
        links=list(links),
        timestamp="2026-10-01T10:00:00.000Z",
        last_accessed=last_accessed,
        retrieval_count=retrieval_count,
        category=category,
        note_type=note_type,
    )
    if legacy:
        for field in ("is_active", "owner", "readers", "writers"):
            payload.pop(field)
    payload.update(extra)
    return MemoryNote.from_payload(nid(key), payload)


def put(
    engine: MemoryEngine, collection: str, items: Sequence[tuple[MemoryNote, Sequence[float]]]
) -> None:
    """Store notes with their vectors exactly as given."""
    engine.put_notes(collection, [n for n, _ in items], [list(v) for _, v in items])


def snapshot(store: NoteStore, collections: Sequence[str] = (MODE_A, MODE_B)) -> dict[str, Any]:
    """Every note of the given collections: payload and vector, by (collection, id)."""
    out: dict[str, Any] = {}
    for collection in collections:
        if store.collection_info(collection) is None:
            continue
        for point in store.scroll(collection, None, limit=100_000, with_vectors=True):
            vector = [round(x, 5) for x in point.vector or []]
            out[f"{collection}/{point.id}"] = (point.payload, vector)
    return out


class Crash(RuntimeError):
    """The injected failure."""


class FailingStore:
    """A store that lets ``budget`` point writes through, then fails mid-call.

    An upsert of several points writes the ones within budget before failing, as
    a process killed in the middle of a batch would. ``budget=None`` never fails
    and only counts.
    """

    def __init__(self, inner: NoteStore, budget: int | None = None) -> None:
        self.inner = inner
        self.budget = budget
        self.writes = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def _allow(self, wanted: int) -> int:
        if self.budget is None:
            self.writes += wanted
            return wanted
        allowed = max(0, min(wanted, self.budget - self.writes))
        self.writes += allowed
        return allowed

    def upsert(self, collection: str, points: Sequence[StoredPoint]) -> None:
        allowed = self._allow(len(points))
        if allowed:
            self.inner.upsert(collection, points[:allowed])
        if allowed < len(points):
            raise Crash(f"injected failure after {self.writes} writes")

    def set_payload(self, collection: str, point_id: str, payload: dict[str, Any]) -> None:
        if not self._allow(1):
            raise Crash(f"injected failure after {self.writes} writes")
        self.inner.set_payload(collection, point_id, payload)

    def delete_points(self, collection: str, ids: Sequence[str]) -> None:
        allowed = self._allow(len(ids))
        if allowed:
            self.inner.delete_points(collection, list(ids)[:allowed])
        if allowed < len(ids):
            raise Crash(f"injected failure after {self.writes} writes")

    def close(self) -> None:
        """The inner store outlives this wrapper."""
