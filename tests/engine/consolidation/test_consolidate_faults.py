"""Crash safety: a failure after any write loses nothing, and running again converges."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from amem_tui.engine.consolidation import RUN_KEY
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.store.base import NoteStore
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.consolidation_data import (
    MODE_A,
    Crash,
    FailingStore,
    axis,
    make_note,
    nid,
    put,
    snapshot,
    turned,
)
from tests.support.engines import fixed_ids, make_engine

NOW = datetime(2026, 11, 20, 2, 30, tzinfo=UTC)


def engine_on(store: NoteStore, ids: Callable[[], str]) -> MemoryEngine:
    """An engine whose clock stands still at ``NOW``: every run and retry gets one time."""
    return make_engine(store, clock=lambda: NOW, new_id=ids)


def seeded() -> QdrantStore:
    store = QdrantStore(path=":memory:")
    engine = engine_on(store, fixed_ids(9))
    put(
        engine,
        MODE_A,
        [
            (
                make_note("k1", "main", "Cluster one keeper, the longest text", tags=["a"]),
                turned(0, 0, 1),
            ),
            (
                make_note("d1", "main", "Cluster one copy", tags=["b"], retrieval_count=2),
                turned(0, 8, 1),
            ),
            (make_note("e1", "main", "Cluster one more", links=[nid("d1")]), turned(0, 16, 1)),
            (
                make_note("k2", "main", "Cluster two keeper, longest of two", legacy=True),
                turned(2, 0, 3),
            ),
            (make_note("d2", "main", "Cluster two copy", links=[nid("k1")]), turned(2, 6, 3)),
            (
                make_note("p", "main", "Points at dropped notes", links=[nid("d1"), nid("d2")]),
                axis(9).tolist(),
            ),
            (
                make_note("s", "shared", "Shared, points at d2", owner="main", links=[nid("d2")]),
                turned(2, 1, 3),
            ),
            (make_note("o", "dev", "Dev's own copy of cluster two"), turned(2, 2, 3)),
        ],
    )
    return store


def without_run_ids(state: dict) -> dict:
    """The state with run ids left out of evolution entries (a failed start uses up an id)."""
    out = {}
    for key, (payload, vector) in state.items():
        history = payload.get("evolution_history")
        if isinstance(history, str):
            entries = [{k: v for k, v in e.items() if k != RUN_KEY} for e in json.loads(history)]
            payload = {**payload, "evolution_history": entries}
        out[key] = (payload, vector)
    return out


def contents(store: NoteStore) -> dict[str, str]:
    return {key: value[0]["content"] for key, value in snapshot(store).items()}


def reference() -> tuple[dict, dict, int]:
    """Before and after an uninterrupted run, and how many point writes it makes."""
    store = seeded()
    before = snapshot(store)
    counting = FailingStore(store)
    engine_on(counting, fixed_ids()).agent("main").consolidate()
    return before, snapshot(store), counting.writes


BEFORE, AFTER, WRITES = reference()


def test_reference_run_merges_and_makes_many_writes() -> None:
    assert BEFORE != AFTER
    assert WRITES >= 10


@pytest.mark.parametrize("budget", range(WRITES))
def test_interrupted_run_loses_nothing_and_converges(budget: int) -> None:
    store = seeded()
    ids = fixed_ids()  # shared: the second engine must not reuse the first run's id
    failing = FailingStore(store, budget)
    with pytest.raises(Crash):
        engine_on(failing, ids).agent("main").consolidate()
    # Nothing lost: every note is still there with its content.
    assert contents(store) == {k: v[0]["content"] for k, v in BEFORE.items()}
    # Notes of other scopes were never touched.
    for key in ("s", "o"):
        assert snapshot(store)[f"{MODE_A}/{nid(key)}"] == BEFORE[f"{MODE_A}/{nid(key)}"]
    healthy = engine_on(store, ids)
    interrupted = [r for r in healthy.agent("main").history() if r.trigger == "manual"]
    assert len(interrupted) <= 1
    healthy.agent("main").consolidate()
    assert without_run_ids(snapshot(store)) == without_run_ids(AFTER)
    runs = healthy.agent("main").history()
    assert all(r.status in ("done", "abandoned") for r in runs)
    merged = [r for r in runs if r.merges]
    assert len(merged) == 1
    # ... and the converged run is still fully undoable.
    healthy.agent("main").undo(merged[0].id)
    assert snapshot(store) == BEFORE


def _undo_reference() -> tuple[int, str]:
    store = seeded()
    engine = engine_on(store, fixed_ids())
    run = engine.agent("main").consolidate()
    counting = FailingStore(store)
    engine_on(counting, fixed_ids(5)).agent("main").undo(run.id)
    return counting.writes, run.id


UNDO_WRITES, _ = _undo_reference()


@pytest.mark.parametrize("budget", range(UNDO_WRITES))
def test_interrupted_undo_loses_nothing_and_converges(budget: int) -> None:
    store = seeded()
    ids = fixed_ids()
    run = engine_on(store, ids).agent("main").consolidate()
    with pytest.raises(Crash):
        engine_on(FailingStore(store, budget), ids).agent("main").undo(run.id)
    assert contents(store) == {k: v[0]["content"] for k, v in BEFORE.items()}
    healthy = engine_on(store, ids)
    undo = healthy.agent("main").undo(run.id)  # finishes the interrupted undo, or makes it
    assert undo.trigger == "undo" and undo.status == "done"
    assert snapshot(store) == BEFORE
    assert all(
        m.undone for m in next(r for r in healthy.agent("main").history() if r.id == run.id).merges
    )
