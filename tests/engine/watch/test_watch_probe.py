"""Following an agent's memory: the probe finds what another writer changed, in few
reads, on every backend (the server one through a second client, as another process).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from amem_tui.engine.activity import new_runs, note_activity, run_activity
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.base import StoredPoint
from amem_tui.engine.store.filters import Filter, Since
from amem_tui.engine.store.qdrant import QdrantStore
from amem_tui.engine.watch import NEW_LIMIT, SWEEP_EVERY
from tests.support.consolidation_data import MODE_A, make_note, put, turned
from tests.support.engines import fixed_ids, make_engine, second_client
from tests.support.faults import FlakyStore


@pytest.fixture
def writer(store: QdrantStore) -> Iterator[MemoryEngine]:
    """An agent process writing the same store (its own client on a server)."""
    other = second_client(store)
    yield make_engine(other, new_id=fixed_ids(prefix=7))
    if other is not store:
        other.close()


def test_since_finds_points_dated_at_or_after_a_moment(store: QdrantStore) -> None:
    store.ensure_collection("c", 4, "m")
    dated = {
        "1": "2026-11-20T08:59:59.999Z",
        "2": "2026-11-20T09:00:00.000Z",
        "3": "2026-11-20T09:00:00.001Z",
        "4": "2026-11-20T10:00:00+00:00",
        "5": "2026-11-21T00:00:00Z",
        "6": "not a time",
        "7": 1700000000,
    }
    points = [StoredPoint(i, {"timestamp": t}, [1.0, 0.0, 0.0, 0.0]) for i, t in dated.items()]
    points.append(StoredPoint("8", {"other": 1}, [1.0, 0.0, 0.0, 0.0]))
    store.upsert("c", points)
    flt = Filter(must=(Since("timestamp", "2026-11-20T09:00:00.000Z"),))
    assert sorted(p.id for p in store.scroll("c", flt, limit=100)) == ["2", "3", "4", "5"]
    assert store.count("c", flt) == 4


def test_first_probe_learns_then_new_notes_are_found(
    engine: MemoryEngine, writer: MemoryEngine
) -> None:
    engine.agent("main").add("An old note written before following started")
    first = engine.agent("main").probe()
    assert not first.found_new  # the first probe only learns what is there
    assert first.counts["private"] == 1 and first.visible == first.everything == 1
    added = writer.agent("main").add("The deploy freeze starts on Friday at noon")
    shared = writer.agent("dev").add("Priya reviews every database migration", shared=True)
    second = engine.agent("main").probe(since=first)
    assert [n.id for n in second.new_notes["private"]] == [added.id]
    assert [n.id for n in second.new_notes["shared"]] == [shared.id]
    assert second.counts_moved(first)
    words = [note_activity(engine.scope("main"), None, n) for n in second.new_notes["private"]]
    assert words[0] is not None and words[0].text.startswith("main added “The deploy freeze")
    shared_words = note_activity(engine.scope("main"), None, second.new_notes["shared"][0])
    assert shared_words is not None and shared_words.text.startswith("dev added a shared note")
    # Found once: the next probe has nothing new.
    third = engine.agent("main").probe(since=second)
    assert not third.found_new and not third.counts_moved(second)


def test_watched_notes_show_each_change(engine: MemoryEngine, writer: MemoryEngine) -> None:
    scope = engine.scope("main")
    note = engine.agent("main").add("Staging runs on the blue cluster this week")
    shown = engine.agent("main").get(note.id)
    last = engine.agent("main").probe(watch=[note.id])

    def after(change: object) -> str:
        nonlocal last, shown
        last = engine.agent("main").probe(watch=[note.id], since=last)
        now = last.watched[note.id]
        activity = note_activity(scope, shown, now)
        assert activity is not None, change
        if now is not None:
            shown = now
        return f"{activity.kind}: {activity.text}"

    writer.agent("main").update(note.id, content="Staging runs on the green cluster this week")
    assert after("edit") == "edited: main edited “Staging runs on the green cluster this week”"
    writer.agent("main").publish(note.id)
    assert after("publish").startswith("published: main published")
    writer.agent("main").unpublish(note.id)
    assert after("unpublish").startswith("unpublished: main unpublished")
    writer.agent("main").delete(note.id)
    assert after("delete").startswith("deleted: ")
    writer.agent("main").restore(note.id)
    assert after("restore").startswith("restored: ")
    writer.agent("main").update(note.id, tags=["infra"])
    assert after("tags") == "changed: “Staging runs on the green cluster this week” changed: tags"
    assert note_activity(scope, shown, last.watched[note.id]) is None


def test_a_note_that_leaves_the_agents_view_is_gone(
    engine: MemoryEngine, writer: MemoryEngine
) -> None:
    note = writer.agent("main").add("The on-call rota is in the wiki", shared=True)
    shown = engine.agent("dev").get(note.id)
    first = engine.agent("dev").probe(watch=[note.id])
    writer.agent("main").unpublish(note.id)
    second = engine.agent("dev").probe(watch=[note.id], since=first)
    assert second.watched[note.id] is None
    gone = note_activity(engine.scope("dev"), shown, None)
    assert gone is not None and gone.kind == "gone" and "no longer visible to dev" in gone.text


def test_a_consolidation_run_is_seen_and_told(engine: MemoryEngine, writer: MemoryEngine) -> None:
    put(
        writer,
        MODE_A,
        [
            (make_note("a", "main", "Deploys need two approvals"), turned(3, 0, 4)),
            (make_note("b", "main", "Every deploy needs two approvals"), turned(3, 4, 4)),
            (make_note("c", "main", "Each deploy needs two approvals first"), turned(3, 8, 4)),
        ],
    )
    before = engine.agent("main").history()
    first = engine.agent("main").probe()
    writer.agent("main").consolidate()
    second = engine.agent("main").probe(since=first)
    assert second.counts_moved(first) and second.runs != first.runs
    fresh = new_runs(before, engine.agent("main").history())
    assert [run_activity(r).text for r in fresh] == [
        "a consolidation run of main merged 3 notes into 1"
    ]


def test_mode_b_agent_has_one_pane(engine: MemoryEngine, writer: MemoryEngine) -> None:
    first = engine.agent("sandbox").probe()
    note = writer.agent("sandbox").add("Sandbox experiments use the scratch bucket")
    second = engine.agent("sandbox").probe(since=first)
    assert set(second.counts) == {"private"}
    assert [n.id for n in second.new_notes["private"]] == [note.id]


def test_embedded_store_probe_reads_nothing_while_nothing_is_written(
    store: QdrantStore, request: pytest.FixtureRequest
) -> None:
    counting = FlakyStore(store)
    engine = make_engine(counting)  # type: ignore[arg-type]
    engine.agent("main").add("A note so that the collection exists")
    first = engine.agent("main").probe()
    calls = dict(counting.calls)
    again = engine.agent("main").probe(since=first)
    if store.embedded:
        assert counting.calls == calls and again.counts == first.counts
    else:  # a server: others write there, so every probe looks (a few calls, no scan)
        assert not again.found_new
        made = sum(counting.calls.values()) - sum(calls.values())
        assert counting.calls.get("scan", 0) == calls.get("scan", 0)
        assert made <= 6  # the listing, three counts, the watched notes by id


def test_many_new_notes_overflow_and_the_window_moves_on(
    engine: MemoryEngine, writer: MemoryEngine
) -> None:
    first = engine.agent("main").probe()
    notes = [
        MemoryNote.from_payload(
            f"00000000-0000-4000-8000-{i:012d}",
            {
                "content": f"Generated note number {i}",
                "agent_id": "main",
                "owner": "main",
                "readers": ["main"],
                "writers": ["main"],
                "timestamp": f"2026-11-20T09:{i // 60:02d}:{i % 60:02d}.000Z",
            },
        )
        for i in range(NEW_LIMIT + 5)
    ]
    writer.put_notes(MODE_A, notes)
    second = engine.agent("main").probe(since=first)
    assert second.overflow and len(second.new_notes["private"]) == NEW_LIMIT
    assert len(second.seen) < NEW_LIMIT  # only the notes at the window's new start
    third = engine.agent("main").probe(since=second)
    assert not third.counts_moved(second)


def test_sweep_finds_an_add_hidden_by_a_hard_delete(
    engine: MemoryEngine, writer: MemoryEngine
) -> None:
    gone = writer.agent("main").add("A note that another tool removes for good")
    last = engine.agent("main").probe()
    added = writer.agent("main").add("A note added while the other one was removed")
    writer.store.delete_points(MODE_A, [gone.id])
    found: list[str] = []
    for _ in range(SWEEP_EVERY + 1):
        last = engine.agent("main").probe(since=last)
        found += [n.id for n in last.new_notes["private"]]
    assert found == [added.id]
