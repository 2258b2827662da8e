"""Consolidation through the engine facade: scope, merge rule, clusters, undo, history."""

from __future__ import annotations

import json
import random

import pytest

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import InvalidInput, NotFound, ReadOnlyStore
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.consolidation_data import (
    MODE_A,
    MODE_B,
    axis,
    make_note,
    nid,
    put,
    snapshot,
    turned,
)
from tests.support.engines import make_engine


def payload(engine: MemoryEngine, key: str, collection: str = MODE_A) -> dict:
    points = engine.store.retrieve(collection, [nid(key)])
    assert points, key
    return points[0].payload


def history_entries(engine: MemoryEngine, key: str) -> list[dict]:
    raw = payload(engine, key)["evolution_history"]
    return json.loads(raw) if isinstance(raw, str) else raw


# ------------------------------------------------------------ seed 000's table
def seed_scopes(engine: MemoryEngine) -> None:
    """The same near-duplicate pair in every scope, plus knowledge notes."""
    pair = ("User prefers short bullet point summaries", "User prefers summaries as short bullets")
    put(
        engine,
        MODE_A,
        [
            (make_note("main-a", "main", pair[0]), turned(0, 0, 1)),
            (make_note("main-b", "main", pair[1]), turned(0, 10, 1)),
            (make_note("shared-a", "shared", pair[0], owner="main"), turned(0, 0, 1)),
            (make_note("shared-b", "shared", pair[1], owner="main"), turned(0, 10, 1)),
            (make_note("dev-a", "dev", pair[0]), turned(0, 0, 1)),
            (make_note("dev-b", "dev", pair[1]), turned(0, 10, 1)),
            (make_note("know-a", "main", pair[0] + "!", note_type="knowledge"), turned(0, 0, 1)),
            (make_note("know-b", "main", pair[1] + "!", note_type="knowledge"), turned(0, 10, 1)),
        ],
    )
    put(
        engine,
        MODE_B,
        [
            (make_note("sandbox-a", "sandbox", pair[0]), turned(0, 0, 1)),
            (make_note("sandbox-b", "sandbox", pair[1]), turned(0, 10, 1)),
        ],
    )


@pytest.mark.parametrize(
    "agent, merged, collection",
    [
        ("main", {"main-a", "main-b"}, MODE_A),
        ("dev", {"dev-a", "dev-b"}, MODE_A),
        ("sandbox", {"sandbox-a", "sandbox-b"}, MODE_B),
    ],
)
def test_what_consolidation_does_with_each_scope(
    engine: MemoryEngine, agent: str, merged: set[str], collection: str
) -> None:
    """Private: merged. Shared: untouched. Other agent's private: untouched. Knowledge: never."""
    seed_scopes(engine)
    before = snapshot(engine.store)
    run = engine.agent(agent).consolidate()
    assert [(m.keeper, sorted(m.dropped)) for m in run.merges] == [
        (nid(sorted(merged)[0]), [nid(sorted(merged)[1])])
    ]
    after = snapshot(engine.store)
    changed = {key for key in before if before[key] != after[key]}
    assert changed == {f"{collection}/{nid(k)}" for k in merged}


def test_shared_pair_is_never_merged_by_anyone(engine: MemoryEngine) -> None:
    seed_scopes(engine)
    for agent in ("main", "dev", "sandbox"):
        engine.agent(agent).consolidate()
    for key in ("shared-a", "shared-b", "know-a", "know-b"):
        assert payload(engine, key)["is_active"] is True
        assert history_entries(engine, key) == []


# ------------------------------------------------------------------ the rule
def seed_rule(engine: MemoryEngine) -> None:
    put(
        engine,
        MODE_A,
        [
            (
                make_note(
                    "short",
                    "main",
                    "Deploys need two approvals",
                    tags=["deploy", "policy"],
                    keywords=["deploys"],
                    links=[nid("other")],
                    retrieval_count=3,
                    last_accessed="2026-11-10T08:00:00.000Z",
                ),
                turned(30, 5, 31),
            ),
            (
                make_note(
                    "long",
                    "main",
                    "Every production deploy needs two approvals from the team",
                    tags=["policy", "prod"],
                    keywords=["approvals"],
                    retrieval_count=4,
                    last_accessed="2026-11-02T08:00:00.000Z",
                ),
                turned(30, 0, 31),
            ),
            (
                make_note("other", "main", "Unrelated note about the office coffee machine"),
                axis(7).tolist(),
            ),
            (
                make_note("pointer", "main", "See the deploy approval rule", links=[nid("short")]),
                axis(9).tolist(),
            ),
            (
                make_note(
                    "shared-pointer",
                    "shared",
                    "Shared pointer to main's deploy rule",
                    owner="main",
                    links=[nid("short")],
                ),
                axis(11).tolist(),
            ),
        ],
    )


def test_merge_rule(engine: MemoryEngine) -> None:
    seed_rule(engine)
    run = engine.agent("main").consolidate()
    assert len(run.merges) == 1
    merge = run.merges[0]
    assert (merge.keeper, merge.dropped) == (nid("long"), [nid("short")])
    assert merge.similarity == pytest.approx(0.996195, abs=1e-5)
    keeper = engine.agent("main").get(nid("long"))
    assert keeper.content == "Every production deploy needs two approvals from the team"
    assert keeper.tags == ["policy", "prod", "deploy"]
    assert keeper.keywords == ["approvals", "deploys"]
    assert keeper.links == [nid("other")]
    assert keeper.retrieval_count == 7
    assert keeper.last_accessed == "2026-11-10T08:00:00.000Z"
    assert keeper.hash == merge.hash_after
    entry = keeper.evolution_history[-1].to_dict()
    assert entry["action"] == "consolidate"
    assert entry["triggeredBy"] == nid("short")
    assert entry["oldContent"] == keeper.content
    dropped = engine.agent("main").get(nid("short"))
    assert dropped.is_active is False
    assert dropped.content == "Deploys need two approvals"
    # Links toward the dropped note now point at the keeper, in the agent's own notes only.
    assert engine.agent("main").get(nid("pointer")).links == [nid("long")]
    assert payload(engine, "shared-pointer")["links"] == [nid("short")]
    assert [c.note for c in run.link_changes] == [nid("pointer")]


def test_chains_merge_into_one_keeper_and_categories_stay_apart(engine: MemoryEngine) -> None:
    # a~b and b~c at cos 25deg = 0.906; a~c at cos 50deg = 0.643 (below the threshold).
    put(
        engine,
        MODE_A,
        [
            (make_note("a", "main", "Chain note a, the longest of them all"), turned(0, 0, 1)),
            (make_note("b", "main", "Chain note b, middle one"), turned(0, 25, 1)),
            (make_note("c", "main", "Chain note c, last"), turned(0, 50, 1)),
            (
                make_note("d", "main", "Same vector, other category", category="Work"),
                turned(0, 0, 1),
            ),
        ],
    )
    run = engine.agent("main").consolidate(threshold=0.85)
    assert [(m.keeper, m.dropped) for m in run.merges] == [(nid("a"), sorted([nid("b"), nid("c")]))]
    assert run.merges[0].similarity == pytest.approx(0.642788, abs=1e-5)
    assert engine.agent("main").get(nid("d")).active


def test_threshold_is_configurable(engine: MemoryEngine) -> None:
    put(
        engine,
        MODE_A,
        [
            (make_note("x", "main", "Threshold note x with more words"), turned(0, 0, 1)),
            (make_note("y", "main", "Threshold note y"), turned(0, 30, 1)),  # cos 0.866
        ],
    )
    assert engine.agent("main").consolidate(dry_run=True, threshold=0.9).merges == []
    assert len(engine.agent("main").consolidate(dry_run=True, threshold=0.86).merges) == 1
    engine.settings.consolidation_threshold = 0.9
    assert engine.agent("main").consolidate(dry_run=True).merges == []
    with pytest.raises(InvalidInput):
        engine.agent("main").consolidate(threshold=1.5)


def test_dry_run_writes_nothing(engine: MemoryEngine) -> None:
    seed_rule(engine)
    before = snapshot(engine.store)
    collections = engine.store.list_collections()
    calls: list[tuple[int, int]] = []
    run = engine.agent("main").consolidate(dry_run=True, progress=lambda d, t: calls.append((d, t)))
    assert run.dry_run and run.status == "planned"
    assert [(m.keeper, m.dropped) for m in run.merges] == [(nid("long"), [nid("short")])]
    assert snapshot(engine.store) == before
    assert engine.store.list_collections() == collections
    assert engine.agent("main").history() == []
    assert calls == [(1, 1)]


def test_read_only_refuses_a_run_but_allows_a_dry_run(store: QdrantStore) -> None:
    engine = make_engine(store, embedder=_hash())
    seed_rule(engine)
    engine.settings.read_only = True
    assert len(engine.agent("main").consolidate(dry_run=True).merges) == 1
    with pytest.raises(ReadOnlyStore):
        engine.agent("main").consolidate()


def test_progress_counts_merges(engine: MemoryEngine) -> None:
    seed_scopes(engine)
    seed_rule(engine)
    calls: list[tuple[int, int]] = []
    engine.agent("main").consolidate(progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (0, 2) and calls[-1] == (2, 2)


def test_legacy_and_deleted_notes(engine: MemoryEngine) -> None:
    put(
        engine,
        MODE_A,
        [
            (
                make_note("old", "main", "Legacy note without access fields", legacy=True),
                turned(0, 0, 1),
            ),
            (make_note("new", "main", "Legacy note, newer copy"), turned(0, 3, 1)),
            (make_note("gone", "main", "Soft-deleted near copy", is_active=False), turned(0, 1, 1)),
        ],
    )
    before = snapshot(engine.store)
    run = engine.agent("main").consolidate()
    assert [(m.keeper, m.dropped) for m in run.merges] == [(nid("old"), [nid("new")])]
    keeper = payload(engine, "old")
    assert (keeper["owner"], keeper["readers"], keeper["writers"]) == ("main", ["main"], ["main"])
    engine.agent("main").undo(run.id)
    assert snapshot(engine.store) == before  # legacy fields absent again


# ---------------------------------------------------------------------- undo
def seed_two_merges(engine: MemoryEngine) -> None:
    put(
        engine,
        MODE_A,
        [
            (
                make_note("k1", "main", "First cluster keeper note, longest", links=[nid("d2")]),
                turned(0, 0, 1),
            ),
            (make_note("d1", "main", "First cluster dropped", tags=["t1"]), turned(0, 5, 1)),
            (make_note("k2", "main", "Second cluster keeper note, longest"), turned(2, 0, 3)),
            (
                make_note("d2", "main", "Second cluster dropped", links=[nid("d1")]),
                turned(2, 5, 3),
            ),
            (
                make_note(
                    "p", "main", "Points at both dropped notes", links=[nid("d1"), nid("d2")]
                ),
                axis(9).tolist(),
            ),
        ],
    )


def test_undo_whole_run_round_trips(engine: MemoryEngine) -> None:
    seed_two_merges(engine)
    before = snapshot(engine.store)
    run = engine.agent("main").consolidate()
    assert len(run.merges) == 2
    assert engine.agent("main").get(nid("p")).links == [nid("k1"), nid("k2")]
    assert engine.agent("main").get(nid("k1")).links == [nid("k2")]
    undo = engine.agent("main").undo(run.id)
    assert undo.trigger == "undo" and undo.undoes == run.id and undo.status == "done"
    assert snapshot(engine.store) == before
    runs = engine.agent("main").history()
    assert [r.id for r in runs] == [undo.id, run.id]
    assert all(m.undone and m.undone_by == undo.id for m in runs[1].merges)
    with pytest.raises(InvalidInput, match="nothing left to undo"):
        engine.agent("main").undo(run.id)


def test_undo_one_merge_then_the_other(engine: MemoryEngine) -> None:
    seed_two_merges(engine)
    before = snapshot(engine.store)
    run = engine.agent("main").consolidate()
    engine.agent("main").undo(run.id, merge_keeper=nid("k1"))
    assert engine.agent("main").get(nid("d1")).active
    assert not engine.agent("main").get(nid("d2")).active
    # Links toward the restored note are restored; the other merge's rewrites stay.
    assert engine.agent("main").get(nid("p")).links == [nid("d1"), nid("k2")]
    assert engine.agent("main").get(nid("k2")).links == [nid("d1")]
    assert engine.agent("main").get(nid("k1")).links == [nid("k2")]
    with pytest.raises(InvalidInput, match="already undone"):
        engine.agent("main").undo(run.id, merge_keeper=nid("k1"))
    with pytest.raises(InvalidInput, match="no merge into keeper"):
        engine.agent("main").undo(run.id, merge_keeper=nid("p"))
    engine.agent("main").undo(run.id, merge_keeper=nid("k2"))
    assert snapshot(engine.store) == before


def test_undo_refused_when_keeper_changed(engine: MemoryEngine) -> None:
    seed_two_merges(engine)
    run = engine.agent("main").consolidate()
    engine.agent("main").update(nid("k1"), content="First cluster keeper, edited by hand since")
    state = snapshot(engine.store)
    with pytest.raises(InvalidInput, match=f"keeper {nid('k1')} changed since"):
        engine.agent("main").undo(run.id)
    assert snapshot(engine.store) == state
    # The other merge can still be undone on its own.
    engine.agent("main").undo(run.id, merge_keeper=nid("k2"))
    assert engine.agent("main").get(nid("d2")).active


def test_undo_keeps_retrievals_counted_since(engine: MemoryEngine) -> None:
    seed_two_merges(engine)
    run = engine.agent("main").consolidate()
    point = engine.store.retrieve(MODE_A, [nid("k1")])[0]
    engine.store.set_payload(
        MODE_A,
        nid("k1"),
        {**point.payload, "retrieval_count": point.payload["retrieval_count"] + 2},
    )
    engine.agent("main").undo(run.id, merge_keeper=nid("k1"))
    assert engine.agent("main").get(nid("k1")).retrieval_count == 2


def test_undo_errors(engine: MemoryEngine) -> None:
    seed_two_merges(engine)
    run = engine.agent("main").consolidate()
    with pytest.raises(NotFound):
        engine.agent("dev").undo(run.id)  # another agent's run is not even visible
    with pytest.raises(NotFound):
        engine.agent("main").undo("not-a-run")
    with pytest.raises(NotFound):
        engine.agent("main").undo(nid("nope"))
    undo = engine.agent("main").undo(run.id)
    with pytest.raises(InvalidInput, match="itself an undo"):
        engine.agent("main").undo(undo.id)


def test_a_second_run_finds_nothing_new(engine: MemoryEngine) -> None:
    seed_two_merges(engine)
    engine.agent("main").consolidate()
    state = snapshot(engine.store)
    again = engine.agent("main").consolidate()
    assert again.merges == [] and again.status == "done"
    assert snapshot(engine.store) == state


# --------------------------------------------------------------- determinism
def _hash():  # type: ignore[no-untyped-def]
    from amem_tui.engine.embed import HashEmbedder

    return HashEmbedder()


def test_result_does_not_depend_on_storage_order() -> None:
    items = [
        (make_note("a", "main", "Same length text A"), turned(0, 0, 1)),
        (make_note("b", "main", "Same length text B"), turned(0, 20, 1)),
        (make_note("c", "main", "Same length text C"), turned(0, 40, 1)),
        (make_note("d", "main", "Other group, keeper by length"), turned(4, 0, 5)),
        (make_note("e", "main", "Other group e"), turned(4, 10, 5)),
        (make_note("f", "main", "Links to c and e", links=[nid("c"), nid("e")]), axis(20).tolist()),
    ]
    results = []
    for seed in range(5):
        order = list(items)
        random.Random(seed).shuffle(order)
        engine = make_engine(QdrantStore(path=":memory:"), embedder=_hash())
        for one in order:  # one upsert per note: the store sees them in this order
            put(engine, MODE_A, [one])
        run = engine.agent("main").consolidate(threshold=0.9)
        results.append(
            (
                [(m.keeper, m.dropped, m.similarity) for m in run.merges],
                snapshot(engine.store),
            )
        )
    assert all(r == results[0] for r in results[1:])
    first = sorted([nid("a"), nid("b"), nid("c")])  # same length: the smallest id is kept
    assert (first[0], first[1:]) in [m[:2] for m in results[0][0]]
    assert (nid("d"), [nid("e")]) in [m[:2] for m in results[0][0]]
