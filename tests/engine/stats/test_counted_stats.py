"""``stats`` from the store's indexes equals ``stats`` from reading every note.

The counted build (``MemoryEngine.counted_stats``) asks the store for filtered
counts and facets; the reference (``MemoryEngine.stats``) judges every note by the
rules. On well-formed notes every figure must agree, on stores built to hold every
combination of access fields, times and soft-deletion; malformed points stay pending.
(One known difference, documented in ``amem_tui.engine.stats.counts``: a store
cannot tell an empty ``readers`` list from a missing one, so such a note counts as
legacy there.)
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import qdrant_edge as qe

from amem_tui.config import AgentConfig, Settings
from amem_tui.demo import seed_demo
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.scope import matches
from amem_tui.engine.store.base import StoredPoint
from amem_tui.engine.store.edge import EdgeStore
from amem_tui.engine.store.filters import Before, Empty, Filter, HasId, Match, MatchExcept, Since
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.indexes import drop_index
from tests.support.team_store import build_team_store, team_settings
from tests.support.tui import demo_engine

AGENTS = ("main", "dev", "ops", "writer")
COLLECTION = "amem_notes"
DIM = 8


def without_pending(data: dict[str, Any], *drop: str) -> dict[str, Any]:
    """A report as plain data, without ``pending`` and the figures named in ``drop``."""
    data = dict(data)
    data.pop("pending")
    data["agents"] = [{k: v for k, v in a.items() if k not in drop} for a in data["agents"]]
    data["collections"] = [
        {k: v for k, v in c.items() if k not in drop} for c in data["collections"]
    ]
    return data


def assert_counts_equal_the_scan(engine: MemoryEngine, malformed: bool = False) -> None:
    counted = engine.counted_stats()
    assert counted is not None
    assert counted.pending == ["malformed"]
    read = engine.stats()
    assert read.pending == []
    drop = ("malformed", "unattributed") if malformed else ()
    assert without_pending(counted.model_dump(), *drop) == without_pending(read.model_dump(), *drop)


def random_payload(rng: random.Random, n: int) -> dict[str, Any]:
    """A well-formed note with any mix of access fields, activity and creation time."""
    agent = rng.choice((*AGENTS, "shared", "shared"))
    payload: dict[str, Any] = {"content": f"note number {n}", "agent_id": agent}
    writer = rng.choice(AGENTS) if agent == "shared" else agent
    owner = rng.choice((writer, writer, writer, rng.choice(AGENTS), "", None, "absent"))
    if owner != "absent":
        payload["owner"] = owner
    readers = rng.choice(
        (
            [agent],
            ["*"],
            [agent, rng.choice(AGENTS)],
            [rng.choice(AGENTS)],
            [agent, "*"],
            None,
            "absent",
        )
    )
    if readers != "absent":
        payload["readers"] = readers
    if rng.random() < 0.8:
        payload["writers"] = [writer]
    active = rng.choice((True, True, True, False, "absent"))
    if active != "absent":
        payload["is_active"] = active
    day = rng.randrange(0, 60)
    stamp = rng.choice(
        (
            f"2026-10-{1 + day % 28:02d}T{rng.randrange(24):02d}:30:00Z",
            f"2026-11-{1 + day % 28:02d}T23:30:00+00:00",
            f"2026-09-{1 + day % 28:02d}T10:00:00.000Z",
            "not a time",
            "absent",
        )
    )
    if stamp != "absent":
        payload["timestamp"] = stamp
    # Recall counts with many ties, so the most recalled are cut inside a tie.
    # (Not drawn from ``rng``: the other fields stay as they were.)
    recalls = (0, 0, 0, 1, 1, 2, 3, 5, 8, 13, "absent")[(n * 7 + len(agent)) % 11]
    if recalls != "absent":
        payload["retrieval_count"] = recalls
        payload["last_accessed"] = f"2026-11-{1 + day % 28:02d}T08:00:00Z"
    return payload


def random_store(tmp_path: Path, seed: int, points: int = 400) -> MemoryEngine:
    store = EdgeStore(tmp_path / f"store-{seed}", background=False)
    engine = make_engine(
        store,
        settings=Settings(
            agents=[AgentConfig(agent=a) for a in AGENTS[1:]]
            + [AgentConfig(agent="lab", collection="lab_notes")]
        ),
    )
    rng = random.Random(seed)
    vectors = np.random.default_rng(seed).normal(size=(points, DIM)).astype(float)
    for name in (COLLECTION, "lab_notes"):
        store.ensure_collection(name, DIM, "test-model")
    batch = [
        StoredPoint(str(n + 1), random_payload(rng, n), list(vectors[n])) for n in range(points)
    ]
    store.upsert(COLLECTION, batch[: points * 3 // 4])
    lab = [StoredPoint(p.id, {**p.payload, "owner": "lab"}, p.vector) for p in batch]
    store.upsert("lab_notes", lab[points * 3 // 4 :])
    return engine


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_counts_equal_the_scan_on_every_mix_of_access_fields(tmp_path: Path, seed: int) -> None:
    engine = random_store(tmp_path, seed)
    assert_counts_equal_the_scan(engine)
    counted = engine.counted_stats()
    assert counted is not None
    # Not trivially equal: the figures are there.
    main = next(a for a in counted.agents if a.agent == "main")
    assert main.private and main.visible and main.soft_deleted and main.selectively_shared
    assert main.legacy and main.get_only and len(counted.weeks) > 4
    assert main.weeks.get("undated")
    assert 0 < main.never_recalled < main.visible  # type: ignore[operator]
    assert [n.retrieval_count for n in main.most_recalled] == [13] * 5
    lab = next(a for a in counted.agents if a.agent == "lab")
    assert lab.most_recalled and 0 < lab.never_recalled < lab.visible  # type: ignore[operator]


def test_without_a_time_index_the_weeks_are_read(tmp_path: Path) -> None:
    engine = random_store(tmp_path, 4)
    store = engine.store
    assert isinstance(store, EdgeStore)
    for name in (COLLECTION, "lab_notes"):
        opened = store._open(name)
        assert opened is not None
        opened.shard.update(qe.UpdateOperation.delete_field_index("timestamp"))
        assert "timestamp" not in store.indexed_fields(name)
    assert_counts_equal_the_scan(engine)


def test_demo_and_team_stores_on_edge(tmp_path: Path) -> None:
    demo = make_engine(EdgeStore(tmp_path / "demo"), settings=demo_engine().settings)
    seed_demo(demo)
    demo.agent("dev").consolidate()
    assert_counts_equal_the_scan(demo)
    team = make_engine(EdgeStore(tmp_path / "team"), settings=team_settings())
    build_team_store(team)
    # The team store holds one malformed point (no agent_id): only the scan finds it.
    assert_counts_equal_the_scan(team, malformed=True)


def test_stores_that_filter_in_python_are_read_instead() -> None:
    engine = demo_engine()
    assert isinstance(engine.store, QdrantStore)
    assert engine.store.indexed_fields("amem_notes") == {}
    assert engine.counted_stats() is None


@pytest.mark.parametrize("seed", [5, 6])
def test_new_conditions_mean_the_same_in_the_store_and_in_python(tmp_path: Path, seed: int) -> None:
    engine = random_store(tmp_path, seed, points=200)
    store = engine.store
    notes = [MemoryNote.from_payload(p.id, p.payload) for p in store.scan(COLLECTION, page=1000)]
    conditions = [
        Filter(must=(MatchExcept("readers", ("main", "*")),)),
        Filter(must=(Empty("owner"),)),
        Filter(must=(Empty("readers"),)),
        Filter(should=(Empty("writers"), Match("owner", ""))),
        Filter(must=(Since("timestamp", "2026-10-05T00:00:00Z"),)),
        Filter(must=(Before("timestamp", "2026-10-12T00:00:00Z"),)),
        Filter(must_not=(MatchExcept("readers", ("dev",)),)),
        Filter(must=(HasId(tuple(str(n) for n in range(1, 120, 3))),)),
        Filter(must_not=(HasId(("2", "5", "not-an-id")),)),
    ]
    for flt in conditions:
        expected = sum(matches(flt, note) for note in notes)
        assert store.count(COLLECTION, flt) == expected, flt
        assert 0 < expected < len(notes), flt


def malformed_payload(rng: random.Random, n: int) -> dict[str, Any]:
    """A point that reads as malformed: no content, no agent id, or a field of the wrong
    type (which a store's index may still match)."""
    payload = random_payload(rng, n)
    fault = rng.choice(("content", "agent_id", "is_active", "readers", "owner", "timestamp"))
    if fault in ("content", "agent_id"):
        payload.pop(fault, None)
    elif fault == "is_active":
        payload["is_active"] = "false"
    elif fault == "readers":
        payload["readers"] = payload.get("agent_id", "main")
    elif fault == "owner":
        payload["owner"] = 7
    else:
        payload["timestamp"] = 20261001
    return payload


@pytest.mark.parametrize("seed", [7, 8])
def test_complete_counts_judge_the_malformed_points_as_the_scan(tmp_path: Path, seed: int) -> None:
    engine = random_store(tmp_path, seed)
    rng = random.Random(seed)
    bad = [StoredPoint(str(1000 + n), malformed_payload(rng, n), [0.5] * DIM) for n in range(40)]
    engine.store.upsert(COLLECTION, bad[:30])
    engine.store.upsert("lab_notes", bad[30:])
    complete = engine.counted_stats(complete=True)
    assert complete is not None
    read = engine.stats()
    assert complete.pending == [] == read.pending
    assert sum(c.malformed for c in read.collections) == 40
    assert complete.model_dump() == read.model_dump()
    # Not the counts alone: those still count the malformed points as notes.
    counted = engine.counted_stats()
    assert counted is not None
    assert without_pending(counted.model_dump(), "malformed", "unattributed") != without_pending(
        read.model_dump(), "malformed", "unattributed"
    )


def test_without_an_index_on_the_count_the_note_index_says_what_gets_recalled(
    tmp_path: Path,
) -> None:
    # A store made before retrieval_count had an index: the note index (the malformed
    # notes judged with the rest) gives the recall figures of a complete count.
    engine = random_store(tmp_path, 12)
    rng = random.Random(12)
    bad = [StoredPoint(str(1000 + n), malformed_payload(rng, n), [0.5] * DIM) for n in range(30)]
    for point in bad[::3]:
        point.payload["retrieval_count"] = 40  # among the most recalled, if visible
    engine.store.upsert(COLLECTION, bad[:20])
    engine.store.upsert("lab_notes", bad[20:])
    for name in (COLLECTION, "lab_notes"):
        drop_index(engine.store, name, "retrieval_count")
    complete = engine.counted_stats(complete=True)
    assert complete is not None and complete.pending == []
    assert complete.model_dump() == engine.stats().model_dump()
    main = next(a for a in complete.agents if a.agent == "main")
    assert main.most_recalled and main.never_recalled


def test_complete_counts_of_the_team_store_and_without_history(tmp_path: Path) -> None:
    team = make_engine(EdgeStore(tmp_path / "team"), settings=team_settings())
    build_team_store(team)
    complete = team.counted_stats(complete=True)
    assert complete is not None
    assert complete.model_dump() == team.stats().model_dump()
    early = team.counted_stats(history=False)
    assert early is not None
    assert early.pending == ["malformed", "runs", "merges", "merged_away"]


def test_quick_counts_are_the_first_figures_of_the_full_count(tmp_path: Path) -> None:
    engine = random_store(tmp_path, 9)
    full = engine.counted_stats()
    quick = engine.counted_stats(quick=True, history=False, complete=True)
    assert full is not None and quick is not None
    assert quick.pending == [
        "get_only",
        "soft_deleted",
        "legacy",
        "selectively_shared",
        "weeks",
        "never_recalled",
        "most_recalled",
        "malformed",
        "runs",
        "merges",
        "merged_away",
    ]
    first = ("agent", "collection", "private", "shared_by", "visible")
    assert [{k: getattr(a, k) for k in first} for a in quick.agents] == [
        {k: getattr(a, k) for k in first} for a in full.agents
    ]
    assert quick.shared_owners == full.shared_owners
    assert [c.points for c in quick.collections] == [c.points for c in full.collections]
    assert all(not a.weeks and not a.soft_deleted for a in quick.agents)
    assert any(a.soft_deleted for a in full.agents)


@pytest.mark.parametrize("seed", [10, 11])
def test_counts_and_facets_of_filters_matching_most_points(tmp_path: Path, seed: int) -> None:
    # The store counts these as everything minus their complement (edge_counting).
    engine = random_store(tmp_path, seed, points=300)
    store = engine.store
    notes = [MemoryNote.from_payload(p.id, p.payload) for p in store.scan(COLLECTION, page=1000)]
    wide = [
        Filter(must_not=(Match("is_active", False),)),
        Filter(must_not=(Match("is_active", False), Match("agent_id", "shared"))),
        Filter(must_not=(Filter(must=(Since("timestamp", "2026-11-20T00:00:00Z"),)),)),
        Filter(should=(Match("agent_id", "shared"), Empty("owner"), Match("is_active", True))),
    ]
    for flt in wide:
        inside = [note for note in notes if matches(flt, note)]
        assert len(notes) // 2 < len(inside) < len(notes), flt
        assert store.count(COLLECTION, flt) == len(inside), flt
        for key in ("agent_id", "owner"):
            expected: dict[str, int] = {}
            for note in inside:
                value = note.agent_id if key == "agent_id" else note.owner
                if value:
                    expected[value] = expected.get(value, 0) + 1
            found = store.facet(COLLECTION, key, flt)
            assert {k: n for k, n in found.items() if k} == expected, (flt, key)
