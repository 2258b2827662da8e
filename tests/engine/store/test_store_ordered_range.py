"""A numeric range condition and an ordered read, on every backend and through the
read-only guard: the same points in the store as in Python, with a numeric index or
without one."""

from __future__ import annotations

import random
from typing import Any

import pytest

from amem_tui.engine.models import MemoryNote
from amem_tui.engine.scope import matches
from amem_tui.engine.store.base import NoteStore, StoredPoint
from amem_tui.engine.store.filters import Filter, Match, Range
from amem_tui.engine.store.qdrant import QdrantStore
from amem_tui.engine.store.readonly import ReadOnlyGuard
from tests.support.indexes import drop_index

COLLECTION = "amem_notes"
DIM = 4
#: Distinct counts for the notes that have one, so an ordered read has no ties.
COUNTS = list(range(0, 60))


def fill(store: NoteStore, name: str = COLLECTION, points: int = 90) -> list[dict[str, Any]]:
    """Notes with a recall count (distinct, 0 included), without one, and with a count of
    the wrong type; every third one shared."""
    rng = random.Random(3)
    counts = COUNTS[:]
    rng.shuffle(counts)
    payloads: list[dict[str, Any]] = []
    for n in range(points):
        payload: dict[str, Any] = {
            "content": f"note {n}",
            "agent_id": "shared" if n % 3 == 0 else "main",
            "is_active": n % 7 != 0,
        }
        if n < len(counts):
            payload["retrieval_count"] = counts[n]
        elif n % 2:
            payload["retrieval_count"] = "12"  # text: never a number
        payloads.append(payload)
    store.ensure_collection(name, DIM, "test-model")
    store.upsert(
        name,
        [StoredPoint(str(n + 1), p, [1.0, 0.0, 0.0, float(n % 5)]) for n, p in enumerate(payloads)],
    )
    return payloads


def notes_of(store: NoteStore) -> list[MemoryNote]:
    return [MemoryNote.from_payload(p.id, p.payload) for p in store.scan(COLLECTION)]


RANGES = [
    Filter(must=(Range("retrieval_count", gte=1),)),
    Filter(must_not=(Range("retrieval_count", gte=1),)),
    Filter(must=(Range("retrieval_count", gt=10, lte=30),)),
    Filter(must=(Range("retrieval_count", lt=5),), must_not=(Match("is_active", False),)),
    Filter(must=(Match("agent_id", "shared"), Range("retrieval_count", gte=20))),
]


@pytest.mark.parametrize("flt", RANGES, ids=range(len(RANGES)))
def test_a_range_counts_what_python_counts(store: QdrantStore, flt: Filter) -> None:
    fill(store)
    expected = sum(matches(flt, note) for note in notes_of(store))
    assert 0 < expected < 90
    assert store.count(COLLECTION, flt) == expected
    assert ReadOnlyGuard(store).count(COLLECTION, flt) == expected
    scanned = {p.id for p in store.scan(COLLECTION, flt)}
    assert scanned == {n.id for n in notes_of(store) if matches(flt, n)}


def test_a_range_holds_for_numbers_alone() -> None:
    at_least_two = Range("n", gte=2)
    assert at_least_two.holds(2) and at_least_two.holds(2.5) and at_least_two.holds([0, 3])
    assert not any(at_least_two.holds(v) for v in (1, True, "3", None, [], [1]))


def expected_order(store: NoteStore, flt: Filter | None, limit: int, descending: bool) -> list[str]:
    notes = [n for n in notes_of(store) if flt is None or matches(flt, n)]
    counted = [n for n in notes if "retrieval_count" in n.model_fields_set]
    counted.sort(key=lambda n: n.retrieval_count, reverse=descending)
    return [n.id for n in counted[:limit]]


@pytest.mark.parametrize("descending", [True, False])
def test_ordered_reads_the_first_points_by_a_number(store: QdrantStore, descending: bool) -> None:
    fill(store)
    active = Filter(must_not=(Match("is_active", False),))
    for flt in (None, active, RANGES[4]):
        found = store.ordered(COLLECTION, flt, "retrieval_count", 5, descending=descending)
        assert [p.id for p in found] == expected_order(store, flt, 5, descending)
        assert all(p.vector is None for p in found)
    guard = ReadOnlyGuard(store).ordered(COLLECTION, active, "retrieval_count", 3)
    assert [p.id for p in guard] == expected_order(store, active, 3, True)


def test_ordered_reads_only_the_fields_asked_for(store: QdrantStore) -> None:
    fill(store)
    found = store.ordered(COLLECTION, None, "retrieval_count", 2, fields=["retrieval_count"])
    assert [p.payload for p in found] == [{"retrieval_count": 59}, {"retrieval_count": 58}]
    assert store.ordered(COLLECTION, None, "retrieval_count", 0) == []
    nothing = Filter(must=(Range("retrieval_count", gt=1000),))
    assert store.ordered(COLLECTION, nothing, "retrieval_count", 5) == []


def test_new_collections_index_the_recall_count(store: QdrantStore) -> None:
    fill(store)
    indexed = store.indexed_fields(COLLECTION)
    if isinstance(store, QdrantStore) and store.embedded:
        assert indexed == {}  # local mode filters in Python: no indexes at all
    else:
        assert indexed["retrieval_count"] == "integer"


def test_without_a_numeric_index_the_order_is_the_same(store: QdrantStore) -> None:
    fill(store)
    drop_index(store, COLLECTION, "retrieval_count")
    active = Filter(must_not=(Match("is_active", False),))
    for flt in (None, active):
        found = store.ordered(COLLECTION, flt, "retrieval_count", 4, fields=["retrieval_count"])
        assert [p.id for p in found] == expected_order(store, flt, 4, True)
        assert all(set(p.payload) == {"retrieval_count"} for p in found)
    lowest = store.ordered(COLLECTION, active, "retrieval_count", 3, descending=False)
    assert [p.id for p in lowest] == expected_order(store, active, 3, False)
    assert store.count(COLLECTION, RANGES[1]) == sum(
        matches(RANGES[1], note) for note in notes_of(store)
    )
