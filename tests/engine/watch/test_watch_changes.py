"""What a probe means for an app that shows an agent's panes: notes put in, taken out,
moved between panes, highlighted, said in words; unexplained counts re-listed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from amem_tui.engine.activity import changes, relisted
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.qdrant import QdrantStore
from amem_tui.engine.watch import PaneName
from tests.support.engines import fixed_ids, make_engine, second_client


@pytest.fixture
def writer(store: QdrantStore) -> Iterator[MemoryEngine]:
    other = second_client(store)
    yield make_engine(other, new_id=fixed_ids(prefix=9))
    if other is not store:
        other.close()


def shown_panes(engine: MemoryEngine, agent: str) -> dict[PaneName, dict[str, MemoryNote]]:
    return {
        which: {n.id: n for n in engine.agent(agent).list_notes(which, limit=200).notes}
        for which in ("private", "shared")
    }


def test_publish_moves_delete_removes_and_new_notes_come_in(
    engine: MemoryEngine, writer: MemoryEngine
) -> None:
    kept = engine.agent("main").add("Kept as it is for the whole test")
    moving = engine.agent("main").add("This note gets published by main")
    leaving = engine.agent("main").add("This note gets deleted by main")
    shown = shown_panes(engine, "main")
    watch = [*shown["private"], *shown["shared"]]
    before = engine.agent("main").probe(watch=watch)
    writer.agent("main").publish(moving.id)
    writer.agent("main").delete(leaving.id)
    added = writer.agent("main").add("A brand new private note from the agent")
    now = engine.agent("main").probe(watch=watch, since=before)
    found = changes(engine.scope("main"), shown, now, before, include_inactive=False)
    private, shared = found.panes["private"], found.panes["shared"]
    assert sorted(private.removed) == sorted([moving.id, leaving.id])
    assert [n.id for n in private.changed] == [added.id]
    assert [n.id for n in shared.changed] == [moving.id]
    assert private.marks == {added.id: "added"} and shared.marks == {moving.id: "published"}
    assert kept.id not in private.removed
    kinds = sorted(a.kind for a in found.activities)
    assert kinds == ["added", "deleted", "published"]
    assert found.relist == set()  # every count move is explained


def test_deleted_notes_stay_when_they_are_shown(engine: MemoryEngine, writer: MemoryEngine) -> None:
    note = engine.agent("main").add("Deleted while soft-deleted notes are shown")
    shown = shown_panes(engine, "main")
    before = engine.agent("main").probe(watch=[note.id])
    writer.agent("main").delete(note.id)
    now = engine.agent("main").probe(watch=[note.id], since=before)
    found = changes(engine.scope("main"), shown, now, before, include_inactive=True)
    assert found.panes["private"].removed == []
    assert [n.active for n in found.panes["private"].changed] == [False]


def test_a_count_the_probe_cannot_explain_is_relisted(
    engine: MemoryEngine, writer: MemoryEngine
) -> None:
    old = engine.agent("main").add("Published later, but not watched by the app")
    shown = shown_panes(engine, "main")
    before = engine.agent("main").probe()  # nothing watched
    writer.agent("main").publish(old.id)
    now = engine.agent("main").probe(since=before)
    found = changes(engine.scope("main"), shown, now, before, include_inactive=False)
    assert found.relist == {"private", "shared"}
    listing = engine.agent("main").list_notes("shared").notes
    update, words = relisted(engine.scope("main"), shown["shared"], listing, now)
    assert [n.id for n in update.changed] == [old.id]
    assert [w.text for w in words] == [
        "main published “Published later, but not watched by the app”"
    ]
