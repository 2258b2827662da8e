"""A scan a page at a time, its vectors as one matrix: on every backend, through the
read-only guard and through a what-if overlay with writes of its own, the same points
as ``scan`` in the same order, the same payload fields and the same vectors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from amem_tui.engine.isolation import OverlayStore
from amem_tui.engine.store.base import NoteStore, PointPage, SparseVector, StoredPoint
from amem_tui.engine.store.filters import Filter, Match
from amem_tui.engine.store.qdrant import QdrantStore
from amem_tui.engine.store.readonly import ReadOnlyGuard

COLLECTION = "amem_notes"
DIM = 5


def _fill(store: NoteStore, points: int = 23) -> None:
    rng = np.random.default_rng(4)
    store.ensure_collection(COLLECTION, DIM, "test-model")
    store.upsert(
        COLLECTION,
        [
            StoredPoint(
                str(n + 1),
                {"content": f"note {n}", "agent_id": "shared" if n % 3 else "main", "n": n},
                rng.standard_normal(DIM).astype(np.float32).tolist(),
            )
            for n in range(points)
        ],
    )


def _overlay(store: NoteStore) -> NoteStore:
    """An overlay holding a write of its own, so it reads through its own merge."""
    overlay = OverlayStore(store)
    vector = [0.5, -1.0, 0.25, 2.0, 0.0]
    overlay.upsert(
        COLLECTION, [StoredPoint("7", {"content": "rewritten", "agent_id": "main"}, vector)]
    )
    return overlay


WRAPS: dict[str, Callable[[NoteStore], NoteStore]] = {
    "plain": lambda store: store,
    "read-only": ReadOnlyGuard,
    "overlay": _overlay,
}


def _pages(store: NoteStore, **options: Any) -> list[PointPage]:
    return list(store.scan_pages(COLLECTION, page=4, **options))


@pytest.mark.parametrize("wrap", sorted(WRAPS))
def test_pages_hold_what_scan_reads_with_the_vectors_as_rows(store: QdrantStore, wrap: str) -> None:
    _fill(store)
    reader = WRAPS[wrap](store)
    flt = Filter(must=(Match("agent_id", "shared"),))
    for options in ({}, {"flt": flt}, {"fields": ["content", "n"]}):
        expected = list(reader.scan(COLLECTION, with_vectors=True, page=4, **options))
        pages = _pages(reader, with_vectors=True, **options)
        assert pages and all(0 < len(p.ids) <= 4 for p in pages)
        assert [i for p in pages for i in p.ids] == [p.id for p in expected]
        assert [x for p in pages for x in p.payloads] == [p.payload for p in expected]
        for page in pages:
            assert page.vectors is not None and page.has_vector is not None
            assert page.vectors.dtype == np.float32 and page.vectors.shape == (len(page.ids), DIM)
            assert page.has_vector.all()
        rows = np.concatenate([p.vectors for p in pages if p.vectors is not None])
        wanted = np.asarray([p.vector for p in expected], dtype=np.float32)
        assert np.array_equal(rows, wanted)


def test_without_vectors_a_page_has_no_matrix(store: QdrantStore) -> None:
    _fill(store)
    pages = _pages(store)
    assert [i for p in pages for i in p.ids] == [p.id for p in store.scan(COLLECTION)]
    assert all(p.vectors is None and p.has_vector is None for p in pages)
    assert _pages(store, flt=Filter(must=(Match("agent_id", "nobody"),))) == []


def test_the_dense_vector_of_named_ones_beside_a_sparse_one(store: QdrantStore) -> None:
    store.ensure_collection("mem0", 3, "test-model", sparse=["bm25"])
    sparse = {"bm25": SparseVector((1, 4), (0.5, 1.5))}
    store.upsert(
        "mem0",
        [
            StoredPoint(str(n + 1), {"data": f"m{n}"}, [1.0, float(n), 0.5], sparse)
            for n in range(5)
        ],
    )
    pages = list(store.scan_pages("mem0", with_vectors=True, page=2))
    rows = np.concatenate([p.vectors for p in pages if p.vectors is not None])
    read = [p.vector for p in store.scan("mem0", with_vectors=True)]
    assert rows.shape == (5, 3) and np.array_equal(rows, np.asarray(read, dtype=np.float32))
