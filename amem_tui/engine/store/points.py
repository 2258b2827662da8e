"""What the backends share to read points: their vectors as floats, whatever form the
client gives them in (one point's, or a page's as a matrix), an ordered read for a
field no numeric index orders, and one order for the nearest points, ties included.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from amem_tui.engine.store.base import (
    NoteStore,
    PointPage,
    ScoredPoint,
    SparseVector,
    StoredPoint,
    Vector,
)
from amem_tui.engine.store.filters import Filter
from amem_tui.engine.store.ids import store_order

#: How many times ``limit`` (plus ``TIE_SLACK``) a search reads at most to take in every
#: point tied with the last one kept; past that, the store's own pick among them stands.
TIE_READ_FACTOR = 4
TIE_SLACK = 64


def nearest_first(ask: Callable[[int], list[ScoredPoint]], limit: int) -> list[ScoredPoint]:
    """The ``limit`` nearest points by score, equal scores in store id order.

    ``ask(k)`` is the backend's own search for its ``k`` nearest. Qdrant orders equal
    scores as its segments happen to lie (they move when it optimizes), and a tie
    decides a note's dense rank, so its fused score: without one order, two processes
    on one store could answer a search differently. So one point more than wanted is
    read, and while the last point read ties with the last one kept, more are read, so
    that the points kept at the cut are the first by id too.
    """
    if limit <= 0:
        return []
    most = TIE_READ_FACTOR * limit + TIE_SLACK
    asked = limit + 1
    points = ask(asked)
    while len(points) == asked and asked < most and points[-1].score == points[limit - 1].score:
        asked = min(2 * asked, most)
        points = ask(asked)
    points.sort(key=lambda p: (-p.score, store_order(p.id)))
    return points[:limit]


def vector_of(raw: Any, sparse_type: type = SparseVector) -> Vector | None:
    """A point's dense vector as floats (the unnamed one, or the first dense one of named
    vectors); values of ``sparse_type`` (the backend's sparse vector class) are skipped."""
    if raw is None:
        return None
    if isinstance(raw, dict):
        dense = [v for k, v in raw.items() if not isinstance(v, sparse_type) and k == ""]
        dense += [v for v in raw.values() if not isinstance(v, sparse_type)]
        raw = dense[0] if dense else None
    if raw is None:
        return None
    # Both clients hand back a list of floats already: a copy of it is all that is needed
    # (converting each number again took most of the time of reading 100,000 vectors).
    if isinstance(raw, list) and all(type(x) is float for x in raw[:1]):
        return list(raw)
    return [float(x) for x in raw]


def dense_rows(count: int, raws: Iterable[Any], sparse_type: type = SparseVector) -> PointPage:
    """The dense vectors of a page of ``count`` points (each as the client gives it, or
    None) as the rows of one float32 array, and which points have one; ``ids`` and
    ``payloads`` are left for the caller to fill.

    ``raws`` may make each vector as it is asked for (Edge makes a new list of floats
    each time a record's vector is read): each is copied into its row and let go before
    the next is made, so a page's worth of lists never lives at once."""
    has = np.zeros(count, dtype=bool)
    rows: np.ndarray | None = None
    for i, raw in enumerate(raws):
        # A plain list is the common case (an unnamed vector): numpy copies it into its
        # row in one call, with no list made in between.
        dense = raw if type(raw) is list else vector_of(raw, sparse_type)
        if dense is None:
            continue
        if rows is None:
            rows = np.zeros((count, len(dense)), dtype=np.float32)
        rows[i] = dense
        has[i] = True
    if rows is None:
        rows = np.zeros((count, 0), dtype=np.float32)
    return PointPage([], [], rows, has)


def pages_of(points: Iterable[StoredPoint], page: int, with_vectors: bool) -> Iterator[PointPage]:
    """Points read one by one (``scan``), as pages: ``scan_pages`` for a store that has
    no faster way."""
    batch: list[StoredPoint] = []
    for point in points:
        batch.append(point)
        if len(batch) >= page:
            yield page_of(batch, with_vectors)
            batch = []
    if batch:
        yield page_of(batch, with_vectors)


def page_of(points: Sequence[StoredPoint], with_vectors: bool) -> PointPage:
    """A page of points read one by one."""
    out = dense_rows(len(points), (p.vector for p in points)) if with_vectors else PointPage([], [])
    out.ids = [p.id for p in points]
    out.payloads = [p.payload for p in points]
    return out


def sparse_of(raw: Any, sparse_type: type) -> dict[str, SparseVector]:
    """The named sparse vectors of a point (``sparse_type``: the backend's sparse class,
    whose objects carry ``indices`` and ``values``)."""
    if not isinstance(raw, dict):
        return {}
    found: dict[str, SparseVector] = {}
    for name, value in raw.items():
        if isinstance(value, sparse_type):
            carried: Any = value
            found[name] = SparseVector(
                tuple(int(i) for i in carried.indices), tuple(float(v) for v in carried.values)
            )
    return found


def ordered_by_reading(
    store: NoteStore,
    collection: str,
    flt: Filter | None,
    key: str,
    limit: int,
    fields: Sequence[str] | None = None,
    descending: bool = True,
) -> list[StoredPoint]:
    """``NoteStore.ordered`` for a field without a numeric index: ``key`` alone is
    read of every match, the best ``limit`` kept, and only those points read whole
    (or their ``fields``)."""
    if limit <= 0:
        return []
    found: list[tuple[float, str]] = []
    for point in store.scan(collection, flt, fields=[key]):
        value = _number(point.payload.get(key), descending)
        if value is not None:
            found.append((value, point.id))
    pick = heapq.nlargest if descending else heapq.nsmallest
    best = pick(limit, found, key=lambda pair: pair[0])
    read = {p.id: p for p in store.retrieve(collection, [i for _, i in best])}
    out = [read[i] for _, i in best if i in read]  # one deleted in between is left out
    if fields is not None:
        for point in out:
            point.payload = {k: point.payload[k] for k in fields if k in point.payload}
    return out


def _number(value: object, greatest: bool) -> float | None:
    """The number a point is ordered by: a number, or the greatest (or least) of a list of
    them, as Qdrant orders a list field; None for anything else."""
    if isinstance(value, list):
        numbers = [n for n in (_number(v, greatest) for v in value) if n is not None]
        return (max if greatest else min)(numbers) if numbers else None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)
