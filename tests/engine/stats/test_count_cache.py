"""Counted figures are kept per collection while its revision stays: asked again, the
store is not asked; after a write, only the written collection is counted again, and
the figures still equal a read of every note. A store that cannot tell a revision (a
server) is asked every time."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from amem_tui.demo import seed_demo
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.base import NoteStore, StoredPoint
from amem_tui.engine.store.edge import EdgeStore
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine

COUNTING = ("count", "facet", "ordered", "scan", "time_bounds")


def watch(store: NoteStore, monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many counting calls the store gets, by collection (a count without a filter,
    the size every collection's facts carry, is not counting)."""
    asked: Counter[str] = Counter()
    for name in COUNTING:
        real = getattr(store, name)

        def call(collection: str, *args: Any, _real: Any = real, **kwargs: Any) -> Any:
            if args or kwargs or _real.__name__ != "count":
                asked[collection] += 1
            return _real(collection, *args, **kwargs)

        monkeypatch.setattr(store, name, call)
    return asked


def without_pending(engine: MemoryEngine) -> dict[str, Any]:
    counted = engine.counted_stats(complete=True)
    assert counted is not None and counted.pending == []
    return counted.model_dump()


def test_counts_are_kept_until_a_collection_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = make_engine(EdgeStore(tmp_path / "s", background=False))
    seed_demo(engine)
    first = without_pending(engine)
    assert first == engine.stats().model_dump()
    asked = watch(engine.store, monkeypatch)
    assert without_pending(engine) == first
    assert asked == Counter()
    # A caller that changes its report changes nothing kept.
    again = engine.counted_stats(complete=True)
    assert again is not None
    again.agents[0].private = 999
    again.agents[0].most_recalled.clear()
    assert without_pending(engine) == first and asked == Counter()
    # A write to the sandbox: only its collection is counted again.
    note = MemoryNote.from_payload(
        "00000000-0000-4000-8000-000000000001",
        {"content": "A new sandbox note", "agent_id": "sandbox", "retrieval_count": 3},
    )
    engine.store.upsert(
        "amem_notes_sandbox", [StoredPoint(note.id, note.to_payload(), [0.1] * engine.embedder.dim)]
    )
    after = without_pending(engine)
    assert set(asked) == {"amem_notes_sandbox"}
    assert after == engine.stats().model_dump() != first
    sandbox = next(a for a in after["agents"] if a["agent"] == "sandbox")
    assert sandbox["visible"] == 4 and sandbox["most_recalled"][0]["id"] == note.id


def test_a_quick_count_then_the_rest_counts_the_first_figures_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = make_engine(EdgeStore(tmp_path / "s", background=False))
    seed_demo(engine)
    asked = watch(engine.store, monkeypatch)
    quick = engine.counted_stats(quick=True, history=False)
    first_calls = sum(asked.values())
    without = engine.counted_stats(complete=True, history=False, recalls=False)
    assert quick is not None and without is not None
    assert without.pending == ["never_recalled", "most_recalled", "runs", "merges", "merged_away"]
    asked.clear()
    full = engine.counted_stats(complete=True)
    assert full is not None and full.pending == []
    # Only what gets recalled was asked of the store: one facet and a few ordered reads.
    assert 0 < sum(asked.values()) < first_calls + 10
    assert [a.private for a in full.agents] == [a.private for a in quick.agents]


def test_a_store_without_revisions_is_asked_every_time(
    store: QdrantStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not isinstance(store, QdrantStore) or store.embedded:
        pytest.skip("only a server's store has indexes and no revisions")
    engine = make_engine(store)
    seed_demo(engine)
    assert engine.counted_stats() is not None
    asked = watch(engine.store, monkeypatch)
    assert engine.counted_stats() is not None
    assert sum(asked.values()) > 0
