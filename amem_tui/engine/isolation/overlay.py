"""A store that takes writes in memory and reads through to the real one: what a change
would do, worked out by the engine's own code without writing anything.

Every write (a note's new payload, a new vector, a soft delete, a run's records, a new
bookkeeping collection) lands in this process's memory; every read answers as the real
store would after those writes: the real store's answer for the points nobody touched
(the touched ones left out by id), and the touched points judged by the same neutral
filter in Python (``matches``). A search merges both by
score: the untouched by the real store's search, the touched with the scores the real
store gives their vectors (those a write replaced: their cosine to the query). So the
engine's search, run over this store, ranks exactly as it would after the change.

Nothing is written to the real store, its journal or its folder: the overlay has no
revision and no folder beside the collections, so no note index is saved from it.
"""

from __future__ import annotations

import copy
import heapq
import itertools
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from amem_tui.engine.models import MemoryNote
from amem_tui.engine.scope import matches
from amem_tui.engine.store.base import (
    SCAN_PAGE,
    CollectionInfo,
    NoteStore,
    PointPage,
    ScoredPoint,
    StoredPoint,
    Vector,
)
from amem_tui.engine.store.filters import Filter, HasId
from amem_tui.engine.store.ids import store_order
from amem_tui.engine.store.journal import ChangeLog
from amem_tui.engine.store.points import ordered_by_reading, pages_of

#: Marks a point deleted in the overlay.
_GONE = None


def _copy(
    point: StoredPoint, with_vectors: bool, fields: Sequence[str] | None = None
) -> StoredPoint:
    payload = copy.deepcopy(point.payload)
    if fields is not None:
        payload = {k: payload[k] for k in fields if k in payload}
    vector = list(point.vector) if with_vectors and point.vector is not None else None
    return StoredPoint(point.id, payload, vector, dict(point.sparse) if with_vectors else {})


def _holds(flt: Filter | None, point: StoredPoint) -> bool:
    return flt is None or matches(flt, MemoryNote.from_payload(point.id, point.payload))


class OverlayStore:
    """The real store, read through, with this process's writes kept in memory."""

    def __init__(self, inner: NoteStore) -> None:
        self.inner = inner
        #: Per collection (real name): id -> the point as written here (None: deleted).
        self._points: dict[str, dict[str, StoredPoint | None]] = {}
        #: Whether the real store holds each touched id (for the point count).
        self._underneath: dict[str, dict[str, bool]] = {}
        #: Ids whose vector a write here replaced (scored in Python).
        self._new_vectors: dict[str, set[str]] = {}
        self._created: dict[str, CollectionInfo] = {}
        self._generation = 0
        self._changes = ChangeLog()

    # ------------------------------------------------------------------ facts
    @property
    def location(self) -> str:
        """The real store's location, marked as a what-if."""
        return f"{self.inner.location} (what-if, in memory)"

    @property
    def embedded(self) -> bool:
        """True: only this process sees the overlay, so what it read stays true."""
        return True

    @property
    def write_generation(self) -> int:
        """Bumped before and after each write to the overlay."""
        return self._generation

    @property
    def changes(self) -> ChangeLog:
        """The points each write to the overlay touched."""
        return self._changes

    def _real(self, name: str) -> str:
        return name if name in self._created else self.inner.resolve_alias(name)

    def _touched(self, name: str) -> dict[str, StoredPoint | None]:
        return self._points.get(self._real(name), {})

    def list_collections(self) -> list[str]:
        """The real store's collections and those made here."""
        return [*self.inner.list_collections(), *self._created]

    def resolve_alias(self, name: str) -> str:
        """The collection an alias points to."""
        return self._real(name)

    def list_aliases(self) -> dict[str, str] | None:
        """The real store's aliases (none are made here)."""
        return self.inner.list_aliases()

    def collection_info(self, name: str) -> CollectionInfo | None:
        """Facts about a collection, its point count as after the writes made here."""
        real = self._real(name)
        base = self._created.get(real) or self.inner.collection_info(real)
        if base is None:
            return None
        info = copy.copy(base)
        under = self._underneath.get(real, {})
        for point_id, point in self._points.get(real, {}).items():
            info.points_count += int(point is not _GONE) - int(under.get(point_id, False))
        return info

    # ----------------------------------------------------------------- writes
    def _write(self, collection: str, points: Sequence[StoredPoint | tuple[str, None]]) -> None:
        real = self._real(collection)
        touched = self._points.setdefault(real, {})
        under = self._underneath.setdefault(real, {})
        fresh = [p[0] if isinstance(p, tuple) else p.id for p in points]
        unknown = [i for i in fresh if i not in under]
        if unknown and real not in self._created:
            found = {p.id for p in self.inner.retrieve(real, unknown)}
            under.update({i: i in found for i in unknown})
        self._generation += 1
        self._changes.record(self._generation, real, fresh)
        for point in points:
            if isinstance(point, tuple):
                touched[point[0]] = _GONE
            else:
                touched[point.id] = _copy(point, with_vectors=True)
        self._generation += 1

    def ensure_collection(
        self,
        name: str,
        vector_size: int,
        embedding_model: str,
        indexes: Sequence[str] = (),
        sparse: Sequence[str] = (),
        *,
        notes: bool = True,
    ) -> CollectionInfo:
        """The collection, made here (in memory) when the real store lacks it."""
        info = self.collection_info(name)
        if info is not None:
            return info
        metadata = {"embedding_model": embedding_model, "created_by": "amem-tui"}
        self._created[name] = CollectionInfo(
            name, vector_size, embedding_model, 0, metadata=metadata, sparse_vectors=list(sparse)
        )
        return self._created[name]

    def upsert(self, collection: str, points: Sequence[StoredPoint]) -> None:
        """Insert or replace points here."""
        if points:
            self._write(collection, points)
            self._new_vectors.setdefault(self._real(collection), set()).update(p.id for p in points)

    def set_payload(self, collection: str, point_id: str, payload: dict[str, Any]) -> None:
        """Replace a point's payload here, keeping its vector."""
        current = self._current(collection, point_id)
        if current is not None:
            current.payload = copy.deepcopy(payload)
            self._write(collection, [current])

    def put_if(self, collection: str, point: StoredPoint, expect: Filter) -> None:
        """Write ``point`` here when no point has its id or the one there matches ``expect``."""
        current = self._current(collection, point.id)
        if current is None or _holds(expect, current):
            self.upsert(collection, [point])

    def delete_points(self, collection: str, ids: Sequence[str]) -> None:
        """Remove points here."""
        if ids:
            self._write(collection, [(i, _GONE) for i in ids])

    def _current(self, collection: str, point_id: str) -> StoredPoint | None:
        touched = self._touched(collection)
        if point_id in touched:
            point = touched[point_id]
            return None if point is None else _copy(point, with_vectors=True)
        if self._real(collection) in self._created:
            return None
        found = self.inner.retrieve(self._real(collection), [point_id], with_vectors=True)
        return found[0] if found else None

    # ------------------------------------------------------------------ reads
    def _outside(self, collection: str, flt: Filter | None) -> Filter | None:
        """``flt`` for the real store: the points written here left out."""
        ids = tuple(self._touched(collection))
        if not ids:
            return flt
        return Filter(must=(flt,) if flt is not None else (), must_not=(HasId(ids),))

    def _live(self, collection: str, flt: Filter | None) -> list[StoredPoint]:
        """The points written here that match ``flt``, in store order."""
        found = [p for p in self._touched(collection).values() if p is not None and _holds(flt, p)]
        return sorted(found, key=lambda p: store_order(p.id))

    def retrieve(
        self, collection: str, ids: Sequence[str], with_vectors: bool = False
    ) -> list[StoredPoint]:
        """Points by id, as after the writes made here."""
        touched = self._touched(collection)
        rest = [i for i in ids if i not in touched]
        out: list[StoredPoint] = []
        if rest and self._real(collection) not in self._created:
            out += self.inner.retrieve(self._real(collection), rest, with_vectors)
        for point_id in dict.fromkeys(i for i in ids if i in touched):
            point = touched[point_id]
            if point is not None:
                out.append(_copy(point, with_vectors))
        return out

    def scan(
        self,
        collection: str,
        flt: Filter | None = None,
        with_vectors: bool = False,
        page: int = SCAN_PAGE,
        fields: Sequence[str] | None = None,
    ) -> Iterator[StoredPoint]:
        """Every matching point in store order, the real store's and those written here."""
        real = self._real(collection)
        if not self._touched(collection) and real not in self._created:
            yield from self.inner.scan(real, flt, with_vectors, page, fields)
            return
        mine = (_copy(p, with_vectors, fields) for p in self._live(collection, flt))
        if real in self._created:
            yield from mine
            return
        theirs = self.inner.scan(real, self._outside(collection, flt), with_vectors, page, fields)
        yield from heapq.merge(theirs, mine, key=lambda p: store_order(p.id))

    def scan_pages(
        self,
        collection: str,
        flt: Filter | None = None,
        with_vectors: bool = False,
        page: int = SCAN_PAGE,
        fields: Sequence[str] | None = None,
    ) -> Iterator[PointPage]:
        """``scan`` a page at a time (the real store's own pages when nothing is written)."""
        real = self._real(collection)
        if not self._touched(collection) and real not in self._created:
            return self.inner.scan_pages(real, flt, with_vectors, page, fields)
        return pages_of(self.scan(collection, flt, with_vectors, page, fields), page, with_vectors)

    def scroll(
        self,
        collection: str,
        flt: Filter | None,
        limit: int,
        offset: int = 0,
        with_vectors: bool = False,
    ) -> list[StoredPoint]:
        """A page of matching points in store order."""
        if not self._touched(collection) and self._real(collection) not in self._created:
            return self.inner.scroll(self._real(collection), flt, limit, offset, with_vectors)
        found = self.scan(collection, flt, with_vectors)
        return list(itertools.islice(found, offset, offset + max(limit, 0)))

    def count(self, collection: str, flt: Filter | None = None) -> int:
        """How many points match, as after the writes made here."""
        real = self._real(collection)
        mine = len(self._live(collection, flt))
        if real in self._created:
            return mine
        return self.inner.count(real, self._outside(collection, flt)) + mine

    def ordered(
        self,
        collection: str,
        flt: Filter | None,
        key: str,
        limit: int,
        fields: Sequence[str] | None = None,
        descending: bool = True,
    ) -> list[StoredPoint]:
        """The first matching points by a number (read field by field when touched)."""
        if not self._touched(collection) and self._real(collection) not in self._created:
            return self.inner.ordered(self._real(collection), flt, key, limit, fields, descending)
        return ordered_by_reading(self, collection, flt, key, limit, fields, descending)

    def indexed_fields(self, collection: str) -> dict[str, str]:
        """The real store's payload indexes."""
        real = self._real(collection)
        return {} if real in self._created else self.inner.indexed_fields(real)

    def facet(self, collection: str, key: str, flt: Filter | None = None) -> dict[str, int]:
        """Matching points per value of a keyword field, as after the writes made here."""
        real = self._real(collection)
        counts: dict[str, int] = {}
        if real not in self._created:
            counts = dict(self.inner.facet(real, key, self._outside(collection, flt)))
        for point in self._live(collection, flt):
            value = point.payload.get(key)
            for item in dict.fromkeys(value if isinstance(value, list) else [value]):
                if isinstance(item, str):
                    counts[item] = counts.get(item, 0) + 1
        return counts

    def time_bounds(self, collection: str, key: str) -> tuple[str, str] | None:
        """The earliest and latest value of a time field (read whole when touched)."""
        real = self._real(collection)
        if not self._touched(collection) and real not in self._created:
            return self.inner.time_bounds(real, key)
        times = sorted(
            v
            for p in self.scan(collection, fields=[key])
            if isinstance(v := p.payload.get(key), str)
        )
        return (times[0], times[-1]) if times else None

    def search(
        self,
        collection: str,
        vector: Vector,
        flt: Filter | None,
        limit: int,
        exact: bool = True,
        with_payload: bool = True,
    ) -> list[ScoredPoint]:
        """Nearest points, the real store's and those written here, by one score."""
        real = self._real(collection)
        touched = self._touched(collection)
        if not touched and real not in self._created:
            return self.inner.search(real, vector, flt, limit, exact, with_payload)
        found: list[ScoredPoint] = []
        if real not in self._created:
            outside = self._outside(collection, flt)
            found = self.inner.search(real, vector, outside, limit, exact, with_payload)
        live = self._live(collection, flt)
        fresh = self._new_vectors.get(real, set())
        kept = [p.id for p in live if p.id not in fresh]
        scores: dict[str, float] = {}
        if kept and real not in self._created:
            # The real store scores the vectors it holds, as its own search would.
            mine = Filter(must=(HasId(tuple(kept)),))
            for hit in self.inner.search(real, vector, mine, len(kept), True, False):
                scores[hit.id] = hit.score
        query = np.asarray(vector, dtype=np.float64)
        for point in live:
            if point.id not in scores and point.vector is not None:
                scores[point.id] = _cosine(query, point.vector)
        for point in live:
            if point.id in scores:
                payload = copy.deepcopy(point.payload) if with_payload else {}
                found.append(ScoredPoint(point.id, payload, scores[point.id]))
        # Ties in id order, as every backend orders its own answer.
        found.sort(key=lambda p: (-p.score, store_order(p.id)))
        return found[: max(limit, 0)]

    # ------------------------------------------------------------ the rest
    def settle(self, collection: str) -> None:
        """Nothing to settle: nothing is written to the real store."""

    def revision(self, collection: str) -> int | None:
        """None: the overlay keeps no journal (so no note index is saved from it)."""
        return None

    def changed_since(self, collection: str, revision: int) -> set[str] | None:
        """None: the overlay keeps no journal."""
        return None

    def sidecar(self, collection: str) -> Path | None:
        """None: nothing is written beside the real store's collections."""
        return None

    def release_pages(self) -> int:
        """Release the real store's mapped pages (reading only)."""
        return self.inner.release_pages()

    def close(self) -> None:
        """Forget the writes made here; the real store stays open (it is not ours)."""
        self._points.clear()
        self._created.clear()


def _cosine(query: np.ndarray, vector: Sequence[float]) -> float:
    """The cosine Qdrant gives a stored vector (both made unit length)."""
    stored = np.asarray(vector, dtype=np.float64)
    norm = float(np.linalg.norm(query) * np.linalg.norm(stored))
    return float(np.dot(query, stored) / norm) if norm else 0.0
