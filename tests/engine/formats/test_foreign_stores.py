"""Opening stores that openclaw-amem and mem0 wrote: payload variants, malformed points,
the mem0 mapping onto agents, and read-only collections."""

from __future__ import annotations

import json

import pytest

from amem_tui.engine.errors import NotFound, ReadOnlyStore
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.real_stores import (
    AMEM_ALIAS,
    BAD_ACTIVE_STR,
    BAD_AGENT_LIST,
    BAD_CONTENT_INT,
    BAD_NO_AGENT,
    BAD_NO_CONTENT_SHARED,
    BAD_READERS_STR,
    CAMEL,
    DELETED,
    DEV_PRIVATE,
    DEV_READERS,
    DEV_SHARED,
    LEGACY,
    MAIN_PRIVATE,
    MAIN_SHARED,
    MEM0,
    MEM0_BAD,
    MEM0_CAMEL,
    MEM0_DEV,
    MEM0_MAIN,
    MEM0_OPS,
    MEM0_SMALL,
    OPS_PRIVATE,
    SANDBOX,
    SANDBOX_NOTE,
    amem_points,
    nid,
    real_settings,
    snapshot,
)


def ids(notes: list[MemoryNote]) -> set[str]:
    return {n.id for n in notes}


def test_every_payload_variant_reads(real_store: QdrantStore) -> None:
    engine = make_engine(real_store, settings=real_settings())
    legacy = engine.agent("main").get(LEGACY)
    assert legacy.legacy and legacy.active
    assert (legacy.effective_owner, legacy.effective_readers, legacy.effective_writers) == (
        "main",
        ["main"],
        ["main"],
    )
    assert [e.action for e in legacy.evolution_history] == ["update_neighbor"]  # a list
    current = engine.agent("main").get(MAIN_PRIVATE)
    assert [e.action for e in current.evolution_history] == ["strengthen"]  # a JSON string
    assert isinstance(amem_points()[MAIN_PRIVATE]["evolution_history"], str)
    camel = engine.agent("main").get(CAMEL)
    assert camel.effective_timestamp == "2025-06-01T03:00:00.000Z"
    assert camel.effective_last_accessed == "2025-06-02T03:00:00.000Z"
    assert camel.created_at() is not None and camel.created_at().year == 2025
    # Each payload reads back unchanged.
    for point_id, payload in amem_points().items():
        note = MemoryNote.from_payload(point_id, payload)
        assert json.dumps(note.to_payload(), sort_keys=True) == json.dumps(payload, sort_keys=True)


def test_strict_reading_reports_instead_of_coercing() -> None:
    note = MemoryNote.from_payload("1", amem_points()[BAD_ACTIVE_STR])
    assert note.malformed and any("is_active" in p for p in note.problems)
    assert note.active  # a string is not a soft delete; the store agrees
    assert note.to_payload()["is_active"] == "false"
    counted = MemoryNote.from_payload(
        "2", {"content": "x" * 12, "agent_id": "a", "retrieval_count": "5"}
    )
    assert counted.to_payload()["retrieval_count"] == "5"


def test_reading_never_writes_anything(real_store: QdrantStore) -> None:
    before = snapshot(real_store.client)
    engine = make_engine(real_store, settings=real_settings())
    for agent in ("main", "dev", "ops", "sandbox"):
        for which in ("private", "shared", "visible"):
            engine.agent(agent).list_notes(which, include_inactive=True)
            engine.agent(agent).count(which)
    for point_id in (MAIN_PRIVATE, LEGACY, CAMEL, BAD_READERS_STR):
        try:
            note = engine.agent("main").get(point_id)
            engine.agent("main").linked(note)
        except NotFound:
            pass
    engine.agents()
    engine.collections()
    engine.audit()
    engine.audit([AMEM_ALIAS, SANDBOX, MEM0, MEM0_SMALL])
    mem0 = make_engine(real_store, settings=real_settings(collection=MEM0_SMALL))
    mem0.agent("dev").list_notes()
    mem0.agent("dev").search("pnpm workspace")
    mem0.agent("dev").get(MEM0_DEV)
    assert snapshot(real_store.client) == before


def test_malformed_points_are_never_shared(real_store: QdrantStore) -> None:
    engine = make_engine(real_store, settings=real_settings())
    for agent in ("main", "dev", "ops"):
        shared = engine.agent(agent).list_notes("shared", include_inactive=True).notes
        assert ids(shared) == {MAIN_SHARED, DEV_SHARED}  # the shared scope only
        # dev's note whose readers name main is main's to read by id, listed apart.
        get_only = ids(engine.agent(agent).list_notes("get_only", limit=100).notes)
        assert get_only == ({DEV_READERS} if agent == "main" else set())
        visible = ids(engine.agent(agent).list_notes("visible", limit=100).notes)
        assert not visible & {BAD_NO_AGENT, BAD_AGENT_LIST, BAD_NO_CONTENT_SHARED}
        for point_id in (BAD_NO_AGENT, BAD_AGENT_LIST, BAD_NO_CONTENT_SHARED):
            with pytest.raises(NotFound):
                engine.agent(agent).get(point_id)
    # readers written as a string naming main does not let main read dev's note.
    assert BAD_READERS_STR not in ids(engine.agent("main").list_notes(limit=100).notes)
    with pytest.raises(NotFound):
        engine.agent("main").get(BAD_READERS_STR)
    # Its own agent still sees it (the pane shows it; nothing crashes).
    assert BAD_READERS_STR in ids(engine.agent("dev").list_notes("private", limit=100).notes)
    assert BAD_CONTENT_INT in ids(engine.agent("dev").list_notes("private", limit=100).notes)


def test_mode_a_views(real_store: QdrantStore) -> None:
    engine = make_engine(real_store, settings=real_settings())
    main = ids(engine.agent("main").list_notes(limit=100).notes)
    assert {MAIN_PRIVATE, MAIN_SHARED, DEV_SHARED, LEGACY, CAMEL} <= main
    # Not DEV_READERS: its readers name main, and the agent filter ignores readers.
    assert not main & {DELETED, DEV_PRIVATE, OPS_PRIVATE, DEV_READERS}
    dev = ids(engine.agent("dev").list_notes(limit=100).notes)
    assert not dev & {MAIN_PRIVATE, LEGACY, CAMEL, OPS_PRIVATE}
    assert ids(engine.agent("sandbox").list_notes(limit=100).notes) == {SANDBOX_NOTE}
    assert [a.agent for a in engine.agents()] == ["main", "dev", "sandbox", "ops"]


def test_mem0_memories_map_onto_agents(real_store: QdrantStore) -> None:
    engine = make_engine(real_store, settings=real_settings(collection=MEM0))
    assert engine.status().format == "mem0"
    # One user (alice): her main, dev and ops namespaces, then the Mode B agent.
    assert [(a.user, a.agent) for a in engine.agents()] == [
        ("alice", "main"),
        ("alice", "dev"),
        ("alice", "ops"),
        (None, "sandbox"),
    ]
    main = engine.agent("main").list_notes().notes
    assert ids(main) == {MEM0_MAIN, MEM0_CAMEL}
    by_id = {n.id: n for n in main}
    assert by_id[MEM0_MAIN].content == "Alice prefers dark roast coffee"
    assert by_id[MEM0_MAIN].timestamp == "2026-01-05T10:00:00.000000+00:00"
    assert by_id[MEM0_MAIN].model_extra["run_id"] == "run-1"
    assert by_id[MEM0_CAMEL].timestamp == "2026-01-09T10:00:00.000Z"
    # The update time is an update time, never an access time.
    assert by_id[MEM0_CAMEL].model_extra["updated_at"] == "2026-01-10T10:00:00.000Z"
    assert by_id[MEM0_CAMEL].last_accessed == ""
    dev = {n.id: n for n in engine.agent("dev").list_notes().notes}
    # mem0's own agent_id names no namespace: the plugin filters on user_id alone.
    assert set(dev) == {MEM0_DEV, MEM0_BAD}
    assert dev[MEM0_DEV].model_extra["mem0_agent_id"] == "openclaw"
    assert dev[MEM0_DEV].model_extra["user_id"] == "alice:agent:dev"
    assert dev[MEM0_BAD].malformed
    assert ids(engine.agent("ops").list_notes().notes) == {MEM0_OPS}
    assert engine.agent("main").list_notes("shared").notes == []
    assert engine.agent("dev").count() == 2
    assert engine.agent("dev").get(MEM0_DEV).owner == "dev"
    with pytest.raises(NotFound):
        engine.agent("main").get(MEM0_DEV)


def test_mem0_is_read_only(real_store: QdrantStore) -> None:
    before = snapshot(real_store.client)
    engine = make_engine(real_store, settings=real_settings(collection=MEM0_SMALL))
    with pytest.raises(ReadOnlyStore, match="mem0"):
        engine.agent("main").add("A note that must not land in a mem0 collection")
    with pytest.raises(ReadOnlyStore):
        engine.agent("main").delete(MEM0_MAIN)
    with pytest.raises(ReadOnlyStore):
        engine.put_notes(MEM0_SMALL, [MemoryNote(id=MEM0_MAIN, content="x" * 20)])
    assert snapshot(real_store.client) == before


def test_mem0_search_stays_in_the_agents_scope(real_store: QdrantStore) -> None:
    engine = make_engine(real_store, settings=real_settings(collection=MEM0_SMALL))
    for agent, mine in (
        ("dev", {MEM0_DEV, MEM0_BAD}),
        ("main", {MEM0_MAIN, MEM0_CAMEL}),
        ("ops", {MEM0_OPS}),
    ):
        query = "pnpm web workspace runbook coffee standup"
        # The plugin's own ranking (its threshold may keep none here) and ours (hybrid).
        for mode in ("plugin", "hybrid"):
            hits = engine.agent(agent).search(query, limit=20, mode=mode).hits  # type: ignore[arg-type]
            assert {h.note.id for h in hits} <= mine
            assert all(h.because == "private" for h in hits)
            assert hits or mode == "plugin"


def test_mem0_memories_are_never_consolidated(real_store: QdrantStore) -> None:
    before = snapshot(real_store.client)
    engine = make_engine(real_store, settings=real_settings(collection=MEM0_SMALL))
    for dry_run in (True, False):
        with pytest.raises(ReadOnlyStore, match="mem0"):
            engine.agent("dev").consolidate(dry_run=dry_run)
    with pytest.raises(ReadOnlyStore, match="mem0"):
        engine.agent("dev").undo(nid(900))
    assert snapshot(real_store.client) == before


def test_read_only_refuses_every_write(real_store: QdrantStore) -> None:
    before = snapshot(real_store.client)
    engine = make_engine(real_store, settings=real_settings(collection="fresh", read_only=True))
    assert engine.read_only
    with pytest.raises(ReadOnlyStore, match="read-only"):
        engine.agent("main").add("A note a read-only engine must refuse")
    ro = make_engine(real_store, settings=real_settings(read_only=True))
    main = ro.agent("main")
    for action in (main.delete, main.restore, main.publish, main.unpublish):
        with pytest.raises(ReadOnlyStore):
            action(MAIN_PRIVATE)
    with pytest.raises(ReadOnlyStore):
        ro.put_notes(AMEM_ALIAS, [MemoryNote(id=MAIN_PRIVATE, content="y" * 20)])
    # Even the store itself refuses, whatever path asks.
    with pytest.raises(ReadOnlyStore):
        ro.store.set_payload(AMEM_ALIAS, MAIN_PRIVATE, {})
    assert ro.agent("main").list_notes().notes  # reading still works
    assert snapshot(real_store.client) == before


class CountingStore:
    """Counts the engine's alias look-ups (each is a server round trip)."""

    def __init__(self, inner: QdrantStore) -> None:
        self.inner = inner
        self.resolves = 0

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def resolve_alias(self, name: str) -> str:
        self.resolves += 1
        return self.inner.resolve_alias(name)


def test_reading_points_costs_no_store_call_per_point(real_store: QdrantStore) -> None:
    counting = CountingStore(real_store)
    engine = make_engine(counting, settings=real_settings())  # type: ignore[arg-type]
    engine.agent("main").list_notes(limit=1)
    counting.resolves = 0
    engine.agent("main").list_notes(limit=100)
    few = counting.resolves
    for _ in range(5):
        engine.agent("main").list_notes(limit=100)
    assert counting.resolves == few * 6 and few <= 2
