"""A consolidation plan is what gets applied: exactly its merges, or nothing when the
agent's notes changed since it was made (the preview a user saw is never replaced)."""

from __future__ import annotations

import pytest

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import InvalidInput, PlanOutdated, ReadOnlyStore
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.consolidation_data import MODE_A, make_note, nid, put, snapshot, turned
from tests.support.engines import demo_like_settings, make_engine

PAIR = ("User prefers short bullet point summaries", "User prefers summaries as short bullets")


def seed(engine: MemoryEngine) -> None:
    """One near-duplicate pair of main's, a note of main's far from it, and dev's pair."""
    put(
        engine,
        MODE_A,
        [
            (make_note("a", "main", PAIR[0], tags=["style"]), turned(0, 0, 1)),
            (make_note("b", "main", PAIR[1], tags=["format"]), turned(0, 10, 1)),
            (make_note("far", "main", "The staging database lives in Frankfurt"), turned(5, 0, 6)),
            (make_note("dev-a", "dev", PAIR[0]), turned(0, 0, 1)),
            (make_note("dev-b", "dev", PAIR[1]), turned(0, 10, 1)),
        ],
    )


@pytest.fixture
def memory_engine() -> MemoryEngine:
    return make_engine(QdrantStore(path=":memory:"))


def test_an_unchanged_store_gets_exactly_the_planned_merges(engine: MemoryEngine) -> None:
    seed(engine)
    main = engine.agent("main")
    before = snapshot(engine.store)
    plan = main.plan_consolidation()
    assert snapshot(engine.store) == before  # planning writes nothing
    [merge] = plan.run.merges
    assert (merge.keeper, merge.dropped) == (nid("a"), [nid("b")])

    run = main.apply(plan)

    assert run.id == plan.id and not run.dry_run and run.status == "done"
    assert [(m.keeper, m.dropped, m.content_after, m.tags_after) for m in run.merges] == [
        (m.keeper, m.dropped, m.content_after, m.tags_after) for m in plan.run.merges
    ]
    assert [m.status for m in run.merges] == ["done"]
    keeper = main.get(nid("a"))
    assert (keeper.content, keeper.tags) == (merge.content_after, merge.tags_after)
    assert main.get(nid("b")).is_active is False
    assert engine.agent("dev").get(nid("dev-b")).is_active is not False  # dev's untouched
    assert [r.id for r in main.history()] == [plan.id]
    assert plan.run.dry_run and plan.run.status == "planned"  # the plan itself is unchanged


def test_a_plan_whose_planned_note_was_edited_is_refused_with_what_changed(
    engine: MemoryEngine,
) -> None:
    seed(engine)
    main = engine.agent("main")
    plan = main.plan_consolidation()
    main.update(nid("b"), content="User prefers summaries as long flowing paragraphs")
    edited = snapshot(engine.store)

    with pytest.raises(PlanOutdated) as refused:
        main.apply(plan)

    assert refused.value.modified == (nid("b"),)
    assert (refused.value.deleted, refused.value.added) == ((), ())
    assert f"modified: {nid('b')}" in str(refused.value)
    assert isinstance(refused.value, InvalidInput)
    assert snapshot(engine.store) == edited  # nothing merged
    assert main.history() == []  # and nothing recorded


def test_a_plan_is_refused_when_a_near_duplicate_was_added_since(engine: MemoryEngine) -> None:
    seed(engine)
    main = engine.agent("main")
    plan = main.plan_consolidation()
    put(engine, MODE_A, [(make_note("c", "main", PAIR[0] + " please"), turned(0, 5, 1))])
    added = snapshot(engine.store)

    with pytest.raises(PlanOutdated) as refused:
        main.apply(plan)

    assert (refused.value.modified, refused.value.deleted) == ((), ())
    assert refused.value.added == (nid("c"),)
    assert f"added: {nid('c')}" in str(refused.value)
    assert snapshot(engine.store) == added
    # Planned again, the new note is in the merge the user now sees, and that applies.
    again = main.plan_consolidation()
    [merge] = again.run.merges
    assert {merge.keeper, *merge.dropped} == {nid("a"), nid("b"), nid("c")}
    assert main.apply(again).merges[0].status == "done"


def test_a_soft_deleted_planned_note_counts_as_deleted(memory_engine: MemoryEngine) -> None:
    seed(memory_engine)
    main = memory_engine.agent("main")
    plan = main.plan_consolidation()
    main.delete(nid("a"))
    with pytest.raises(PlanOutdated) as refused:
        main.apply(plan)
    assert refused.value.deleted == (nid("a"),)
    assert "deleted: " in str(refused.value)


def test_changes_outside_the_agents_candidates_do_not_outdate_a_plan(
    memory_engine: MemoryEngine,
) -> None:
    seed(memory_engine)
    main = memory_engine.agent("main")
    plan = main.plan_consolidation()
    memory_engine.agent("dev").update(nid("dev-b"), content="Dev prefers long paragraphs now")
    main.add("A shared note written after the plan", shared=True)
    assert main.apply(plan).id == plan.id


def test_a_plan_applies_once_and_only_as_its_agent(memory_engine: MemoryEngine) -> None:
    seed(memory_engine)
    plan = memory_engine.agent("main").plan_consolidation()
    with pytest.raises(InvalidInput, match="agent 'main''s"):
        memory_engine.agent("dev").apply(plan)
    memory_engine.agent("main").apply(plan)
    with pytest.raises(InvalidInput, match="applied already"):
        memory_engine.agent("main").apply(plan)


def test_a_read_only_store_plans_but_never_applies(tmp_path) -> None:
    store_path = tmp_path / "store"
    writer = make_engine(QdrantStore(path=str(store_path)))
    seed(writer)
    writer.close()
    settings = demo_like_settings().model_copy(update={"read_only": True})
    reader = make_engine(QdrantStore(path=str(store_path)), settings=settings)
    plan = reader.agent("main").plan_consolidation()
    assert len(plan.run.merges) == 1
    with pytest.raises(ReadOnlyStore):
        reader.agent("main").apply(plan)
    reader.close()
