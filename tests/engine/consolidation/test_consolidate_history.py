"""History: recorded runs, and merges rebuilt from openclaw-amem's evolution entries."""

from __future__ import annotations

import json

import pytest

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import InvalidInput
from tests.support.consolidation_data import MODE_A, MODE_B, axis, make_note, nid, put, turned


def openclaw_entry(dropped: str, at: str, old: str) -> dict:
    return {
        "triggeredBy": nid(dropped),
        "triggeredAt": at,
        "action": "consolidate",
        "oldContext": "ctx",
        "newContext": "ctx",
        "oldTags": ["x"],
        "newTags": ["x", "y"],
        "oldContent": old,
    }


def seed_openclaw(engine: MemoryEngine) -> None:
    """What an openclaw-amem nightly pass leaves behind: keepers with entries, dropped notes."""
    k1_history = [
        {
            "triggeredBy": nid("z"),
            "triggeredAt": "2026-11-01T02:00:00.000Z",
            "action": "strengthen",
        },
        openclaw_entry("d1", "2026-11-18T02:30:05.000Z", "Keeper one before the merge"),
    ]
    put(
        engine,
        MODE_A,
        [
            (
                make_note(
                    "k1",
                    "main",
                    "Keeper one after the merge",
                    evolution_history=json.dumps(k1_history),
                ),
                turned(0, 0, 1),
            ),
            (make_note("d1", "main", "Dropped one", is_active=False), turned(0, 20, 1)),
            (
                make_note(
                    "k2",
                    "main",
                    "Keeper two, now",
                    evolution_history=json.dumps(
                        [
                            openclaw_entry("d2", "2026-11-18T02:31:00.000Z", "Keeper two, first"),
                            {
                                "triggeredBy": "main",
                                "triggeredAt": "2026-11-19T10:00:00.000Z",
                                "action": "crud_update",
                                "oldContent": "Keeper two, merged",
                            },
                        ]
                    ),
                ),
                turned(2, 0, 3),
            ),
            (make_note("d2", "main", "Dropped two", is_active=False), turned(2, 10, 3)),
            (
                make_note(
                    "k3",
                    "main",
                    "Keeper three, a later night",
                    evolution_history=[  # legacy: a plain list
                        openclaw_entry("d3", "2026-11-19T02:30:00.000Z", "Keeper three before")
                    ],
                ),
                axis(8).tolist(),
            ),
            (
                make_note(
                    "dk",
                    "dev",
                    "Dev keeper",
                    evolution_history=json.dumps(
                        [openclaw_entry("dd", "2026-11-18T02:30:30.000Z", "Dev keeper before")]
                    ),
                ),
                axis(9).tolist(),
            ),
        ],
    )


def test_history_rebuilds_openclaw_runs(engine: MemoryEngine) -> None:
    seed_openclaw(engine)
    runs = engine.agent("main").history()
    assert [r.trigger for r in runs] == ["openclaw", "openclaw"]
    later, first = runs
    assert later.started_at == "2026-11-19T02:30:00.000Z"
    assert [m.keeper for m in later.merges] == [nid("k3")]
    assert first.started_at == "2026-11-18T02:30:05.000Z"
    assert first.finished_at == "2026-11-18T02:31:00.000Z"
    assert [(m.keeper, m.dropped) for m in first.merges] == [
        (nid("k1"), [nid("d1")]),
        (nid("k2"), [nid("d2")]),
    ]
    one, two = first.merges
    assert (one.content_before, one.content_after) == (
        "Keeper one before the merge",
        "Keeper one after the merge",
    )
    # A later edit recorded its old content: that is the content right after the merge.
    assert (two.content_before, two.content_after) == ("Keeper two, first", "Keeper two, merged")
    assert one.similarity == pytest.approx(0.939693, abs=1e-5)  # cos 20deg, from stored vectors
    assert one.dropped_content == {nid("d1"): "Dropped one"}
    assert one.tags_before == ["x"] and one.tags_after == ["x", "y"]
    assert all(r.agent == "main" and r.collection == MODE_A for r in runs)


def test_history_of_all_agents_and_of_one(engine: MemoryEngine) -> None:
    seed_openclaw(engine)
    put(
        engine,
        MODE_B,
        [
            (make_note("s1", "sandbox", "Sandbox note, the longer one"), turned(0, 0, 1)),
            (make_note("s2", "sandbox", "Sandbox note"), turned(0, 5, 1)),
        ],
    )
    ours = engine.agent("sandbox").consolidate()
    everything = engine.history()
    assert {r.agent for r in everything} == {"main", "dev", "sandbox"}
    assert everything[0].id == ours.id  # newest first: our run is the latest
    starts = [r.started_at for r in everything]
    assert starts == sorted(starts, reverse=True)
    assert [r.agent for r in engine.agent("dev").history()] == ["dev"]
    assert [r.id for r in engine.agent("sandbox").history()] == [ours.id]


def test_our_merges_are_not_reported_twice(engine: MemoryEngine) -> None:
    put(
        engine,
        MODE_A,
        [
            (make_note("a", "main", "Our own merge, the keeper"), turned(0, 0, 1)),
            (make_note("b", "main", "Our own merge"), turned(0, 5, 1)),
        ],
    )
    run = engine.agent("main").consolidate()
    assert [(r.id, r.trigger) for r in engine.agent("main").history()] == [(run.id, "manual")]


def test_openclaw_runs_cannot_be_undone_here(engine: MemoryEngine) -> None:
    seed_openclaw(engine)
    run = engine.agent("main").history()[0]
    with pytest.raises(InvalidInput, match="made by openclaw-amem"):
        engine.agent("main").undo(run.id)


def test_run_log_is_not_listed_as_a_collection_of_notes(engine: MemoryEngine) -> None:
    put(
        engine,
        MODE_A,
        [
            (make_note("a", "main", "A note with a near copy, longer"), turned(0, 0, 1)),
            (make_note("b", "main", "A note with a near copy"), turned(0, 5, 1)),
        ],
    )
    engine.agent("main").consolidate()
    assert MODE_A + "__amem_runs" in engine.store.list_collections()
    assert all(not v.name.endswith("__amem_runs") for v in engine.collections())
