"""Opening stores that openclaw-amem and mem0 wrote: aliases, models, payload variants,
malformed points, mem0 mapping, read-only, and the audit."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from amem_tui.engine.embed import HashEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import ModelMismatch, NotFound, ReadOnlyStore
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.qdrant import QdrantStore
from tests.conftest import fixed_clock, fixed_ids
from tests.realstore_data import (
    AMEM_ALIAS,
    AMEM_REAL,
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
    MALFORMED,
    MEM0,
    MEM0_AGENT_ONLY,
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
    build_real_store,
    nid,
    real_settings,
    snapshot,
)


@pytest.fixture(params=["memory", "path"])
def real_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[QdrantStore]:
    """A store written as openclaw-amem and mem0 write theirs (local mode stands in for
    the server: same client API, aliases included)."""
    store = QdrantStore(path=":memory:" if request.param == "memory" else str(tmp_path / "s"))
    build_real_store(store.client)
    yield store
    store.close()


def make_engine(store: QdrantStore, **settings: object) -> MemoryEngine:
    return MemoryEngine(
        real_settings(**settings),
        store=store,
        embedder=HashEmbedder(),
        clock=fixed_clock(),
        new_id=fixed_ids(7),
    )


def ids(notes: list[MemoryNote]) -> set[str]:
    return {n.id for n in notes}


# ------------------------------------------------------------- collections
def test_collections_resolve_the_alias_and_detect_models(real_store: QdrantStore) -> None:
    engine = make_engine(real_store)
    views = {v.name: v for v in engine.collections()}
    main = views[AMEM_REAL]
    assert main.aliases == [AMEM_ALIAS]
    assert main.configured_as == [AMEM_ALIAS]
    assert main.used_by == ["main", "dev"]
    assert (main.model, main.vector_size, main.model_source) == ("Xenova/bge-m3", 1024, "metadata")
    assert main.searchable is False and "keyword" in main.model_reason
    assert AMEM_ALIAS not in views  # an alias is not a second collection
    sandbox = views[SANDBOX]
    assert sandbox.model == "Xenova/paraphrase-multilingual-MiniLM-L12-v2"
    assert sandbox.used_by == ["sandbox"] and sandbox.mode == "B"
    assert views[MEM0].format == "mem0" and views[MEM0].read_only
    assert views[MEM0].model is None and views[MEM0].vector_size == 1536
    assert views[MEM0].model_source == "vector size" and views[MEM0].searchable is False
    assert views[MEM0_SMALL].searchable is True


def test_model_status_foreign_models_fall_back(
    real_store: QdrantStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An empty fastembed cache: the legacy model cannot come from anywhere offline.
    monkeypatch.setenv("FASTEMBED_CACHE_PATH", str(tmp_path / "empty-cache"))
    engine = make_engine(real_store)
    usable, reason = engine.model_status(AMEM_ALIAS)
    assert usable is False
    assert "Xenova/bge-m3" in reason and "keyword" in reason
    assert engine.embedder_for(AMEM_ALIAS) is None
    usable, reason = engine.model_status(SANDBOX)
    assert usable is False and "paraphrase-multilingual" in reason
    assert engine.model_status("not_there")[0] is True


def test_model_status_of_our_own_collection(store: QdrantStore) -> None:
    engine = MemoryEngine(real_settings(collection="ours"), store=store, embedder=HashEmbedder())
    engine.add("main", "A note in a collection this engine built")
    assert engine.model_status("ours") == (
        True,
        "collection 'ours' was built with amem-test/hash-embedder",
    )
    assert engine.embedder_for("ours") is engine.embedder


def test_model_guessed_from_vector_size_without_metadata(store: QdrantStore) -> None:
    from qdrant_client import models as qm

    for name, size in (("big", 1024), ("legacy", 384), ("our_size", 64)):
        store.client.create_collection(
            name, vectors_config=qm.VectorParams(size=size, distance=qm.Distance.COSINE)
        )
    engine = MemoryEngine(real_settings(), store=store, embedder=HashEmbedder())
    big = engine.model_info("big")
    assert big is not None and (big.name, big.source) == ("Xenova/bge-m3", "vector size")
    legacy = engine.model_info("legacy")
    assert legacy is not None and legacy.name == "Xenova/paraphrase-multilingual-MiniLM-L12-v2"
    assert engine.model_status("big")[0] is False
    # Our vector size but no metadata: another tool built it, so it is not ours.
    same_size = engine.model_info("our_size")
    assert same_size is not None and same_size.name is None
    usable, reason = engine.model_status("our_size")
    assert usable is False and "no embedding_model metadata" in reason
    with pytest.raises(ModelMismatch, match="names no embedding_model"):
        engine.put_notes(
            "our_size", [MemoryNote(id=MAIN_PRIVATE, content="z" * 20, agent_id="main")]
        )
    assert store.count("our_size") == 0


def test_foreign_model_collection_opens_lists_and_gets_but_refuses_our_vectors(
    real_store: QdrantStore,
) -> None:
    engine = make_engine(real_store)
    assert engine.list_notes("main").notes
    assert engine.get("main", MAIN_PRIVATE).content.startswith("Vendor")
    assert engine.count("dev", "shared") >= 2
    with pytest.raises(ModelMismatch):
        engine.add("main", "This would mix our vectors into a bge-m3 collection")
    # A payload-only change needs no vector, so it is allowed.
    assert engine.delete("main", MAIN_PRIVATE).is_active is False


# ------------------------------------------------------------ payload variants
def test_every_payload_variant_reads(real_store: QdrantStore) -> None:
    engine = make_engine(real_store)
    legacy = engine.get("main", LEGACY)
    assert legacy.legacy and legacy.active
    assert (legacy.effective_owner, legacy.effective_readers, legacy.effective_writers) == (
        "main",
        ["main"],
        ["main"],
    )
    assert [e.action for e in legacy.evolution_history] == ["update_neighbor"]  # a list
    current = engine.get("main", MAIN_PRIVATE)
    assert [e.action for e in current.evolution_history] == ["strengthen"]  # a JSON string
    assert isinstance(amem_points()[MAIN_PRIVATE]["evolution_history"], str)
    camel = engine.get("main", CAMEL)
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
    engine = make_engine(real_store)
    for agent in ("main", "dev", "ops", "sandbox"):
        for which in ("private", "shared", "visible"):
            engine.list_notes(agent, which, include_inactive=True)
            engine.count(agent, which)
    for point_id in (MAIN_PRIVATE, LEGACY, CAMEL, BAD_READERS_STR):
        try:
            note = engine.get("main", point_id)
            engine.linked("main", note)
        except NotFound:
            pass
    engine.agents()
    engine.collections()
    engine.audit()
    engine.audit([AMEM_ALIAS, SANDBOX, MEM0, MEM0_SMALL])
    mem0 = make_engine(real_store, collection=MEM0_SMALL)
    mem0.list_notes("dev")
    mem0.search("dev", "pnpm workspace")
    mem0.get("dev", MEM0_DEV)
    assert snapshot(real_store.client) == before


# ----------------------------------------------------------- malformed points
def test_malformed_points_are_never_shared(real_store: QdrantStore) -> None:
    engine = make_engine(real_store)
    for agent in ("main", "dev", "ops"):
        shared = engine.list_notes(agent, "shared", include_inactive=True).notes
        assert ids(shared) == {MAIN_SHARED, DEV_SHARED}
        visible = ids(engine.list_notes(agent, "visible", limit=100).notes)
        assert not visible & {BAD_NO_AGENT, BAD_AGENT_LIST, BAD_NO_CONTENT_SHARED}
        for point_id in (BAD_NO_AGENT, BAD_AGENT_LIST, BAD_NO_CONTENT_SHARED):
            with pytest.raises(NotFound):
                engine.get(agent, point_id)
    # readers written as a string naming main does not let main read dev's note.
    assert BAD_READERS_STR not in ids(engine.list_notes("main", limit=100).notes)
    with pytest.raises(NotFound):
        engine.get("main", BAD_READERS_STR)
    # Its own agent still sees it (the pane shows it; nothing crashes).
    assert BAD_READERS_STR in ids(engine.list_notes("dev", "private", limit=100).notes)
    assert BAD_CONTENT_INT in ids(engine.list_notes("dev", "private", limit=100).notes)


def test_mode_a_views(real_store: QdrantStore) -> None:
    engine = make_engine(real_store)
    main = ids(engine.list_notes("main", limit=100).notes)
    assert {MAIN_PRIVATE, MAIN_SHARED, DEV_SHARED, LEGACY, CAMEL, DEV_READERS} <= main
    assert not main & {DELETED, DEV_PRIVATE, OPS_PRIVATE}
    dev = ids(engine.list_notes("dev", limit=100).notes)
    assert not dev & {MAIN_PRIVATE, LEGACY, CAMEL, OPS_PRIVATE}
    assert ids(engine.list_notes("sandbox", limit=100).notes) == {SANDBOX_NOTE}
    assert [a.agent for a in engine.agents()] == ["main", "dev", "sandbox", "ops"]


# ----------------------------------------------------------------------- mem0
def test_mem0_memories_map_onto_agents(real_store: QdrantStore) -> None:
    engine = make_engine(real_store, collection=MEM0)
    assert engine.collection_format(MEM0) == "mem0"
    assert [a.agent for a in engine.agents()] == ["main", "dev", "sandbox", "ops"]
    main = engine.list_notes("main").notes
    assert ids(main) == {MEM0_MAIN, MEM0_CAMEL}
    by_id = {n.id: n for n in main}
    assert by_id[MEM0_MAIN].content == "Alice prefers dark roast coffee"
    assert by_id[MEM0_MAIN].timestamp == "2026-01-05T10:00:00.000000+00:00"
    assert by_id[MEM0_MAIN].model_extra["run_id"] == "run-1"
    assert by_id[MEM0_CAMEL].timestamp == "2026-01-09T10:00:00.000Z"
    assert by_id[MEM0_CAMEL].last_accessed == "2026-01-10T10:00:00.000Z"
    dev = {n.id: n for n in engine.list_notes("dev").notes}
    assert set(dev) == {MEM0_DEV, MEM0_AGENT_ONLY, MEM0_BAD}
    assert dev[MEM0_DEV].model_extra["mem0_agent_id"] == "openclaw"
    assert dev[MEM0_DEV].model_extra["user_id"] == "alice:agent:dev"
    assert dev[MEM0_BAD].malformed
    assert ids(engine.list_notes("ops").notes) == {MEM0_OPS}
    assert engine.list_notes("main", "shared").notes == []
    assert engine.count("dev") == 3
    assert engine.get("dev", MEM0_DEV).owner == "dev"
    with pytest.raises(NotFound):
        engine.get("main", MEM0_DEV)


def test_mem0_is_read_only(real_store: QdrantStore) -> None:
    before = snapshot(real_store.client)
    engine = make_engine(real_store, collection=MEM0_SMALL)
    with pytest.raises(ReadOnlyStore, match="mem0"):
        engine.add("main", "A note that must not land in a mem0 collection")
    with pytest.raises(ReadOnlyStore):
        engine.delete("main", MEM0_MAIN)
    with pytest.raises(ReadOnlyStore):
        engine.put_notes(MEM0_SMALL, [MemoryNote(id=MEM0_MAIN, content="x" * 20)])
    assert snapshot(real_store.client) == before


def test_mem0_search_stays_in_the_agents_scope(real_store: QdrantStore) -> None:
    engine = make_engine(real_store, collection=MEM0_SMALL)
    for agent, mine in (
        ("dev", {MEM0_DEV, MEM0_AGENT_ONLY, MEM0_BAD}),
        ("main", {MEM0_MAIN, MEM0_CAMEL}),
        ("ops", {MEM0_OPS}),
    ):
        hits = engine.search(agent, "pnpm web workspace runbook coffee standup", limit=20).hits
        assert hits and {h.note.id for h in hits} <= mine
        assert all(h.because == "private" for h in hits)


# ------------------------------------------------------------------ read-only
def test_read_only_refuses_every_write(real_store: QdrantStore) -> None:
    before = snapshot(real_store.client)
    engine = make_engine(real_store, collection="fresh", read_only=True)
    assert engine.read_only
    with pytest.raises(ReadOnlyStore, match="read-only"):
        engine.add("main", "A note a read-only engine must refuse")
    ro = make_engine(real_store, read_only=True)
    for action in (ro.delete, ro.restore, ro.publish, ro.unpublish):
        with pytest.raises(ReadOnlyStore):
            action("main", MAIN_PRIVATE)
    with pytest.raises(ReadOnlyStore):
        ro.put_notes(AMEM_ALIAS, [MemoryNote(id=MAIN_PRIVATE, content="y" * 20)])
    # Even the store itself refuses, whatever path asks.
    with pytest.raises(ReadOnlyStore):
        ro.store.set_payload(AMEM_ALIAS, MAIN_PRIVATE, {})
    assert ro.list_notes("main").notes  # reading still works
    assert snapshot(real_store.client) == before


# ---------------------------------------------------------------------- audit
def test_audit_reports_each_section(real_store: QdrantStore) -> None:
    engine = make_engine(real_store)
    report = engine.audit()
    assert [c.name for c in report.collections] == [AMEM_REAL, SANDBOX]
    assert {o: [r.id for r in refs] for o, refs in report.shared_by_owner.items()} == {
        "main": [MAIN_SHARED],
        "dev": [DEV_SHARED],
    }
    assert [r.id for r in report.readers_beyond_owner] == [DEV_READERS]
    assert {m.id for m in report.malformed} == MALFORMED
    bad = {m.id: m for m in report.malformed}
    assert "agent_id is missing" in bad[BAD_NO_AGENT].problems
    assert any("list" in p for p in bad[BAD_AGENT_LIST].problems)
    legacy = {n.id: n for n in report.legacy}
    assert set(legacy) == {LEGACY, CAMEL}
    assert legacy[LEGACY].missing == ["is_active", "owner", "readers", "writers"]
    assert legacy[LEGACY].owner == "main"
    assert [(link.source, link.target, link.exposed_to) for link in report.cross_scope_links] == [
        (MAIN_SHARED, MAIN_PRIVATE, ["*"])
    ]
    assert [(a.agent, a.collections) for a in report.unconfigured_agents] == [("ops", [AMEM_REAL])]
    # The same report on a mem0 collection: agents come from user_id.
    mem0 = engine.audit([MEM0])
    assert [m.id for m in mem0.malformed] == [MEM0_BAD]
    assert [a.agent for a in mem0.unconfigured_agents] == ["ops"]
    assert mem0.shared_by_owner == {}


def test_search_on_a_foreign_model_collection_falls_back_to_keywords(
    real_store: QdrantStore,
) -> None:
    before = snapshot(real_store.client)
    engine = make_engine(real_store)
    result = engine.search("dev", "deploy frozen audit snake_case", hidden=True)
    assert result.search_mode == "keyword"
    assert result.notice and "Xenova/bge-m3" in result.notice
    found = {h.note.id for h in result.hits}
    assert found and found <= {MAIN_SHARED, DEV_SHARED, DEV_PRIVATE, DEV_READERS}
    assert not found & MALFORMED
    # mem0 with 1536-dimensional vectors: keywords too, and only the agent's memories.
    mem0 = make_engine(real_store, collection=MEM0)
    result = mem0.search("ops", "runbook pnpm coffee standup", hidden=True)
    assert result.search_mode == "keyword" and result.notice
    assert {h.note.id for h in result.hits} == {MEM0_OPS}
    assert {h.id for h in result.hidden} <= {MEM0_MAIN, MEM0_DEV, MEM0_CAMEL, MEM0_AGENT_ONLY}
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
    engine = MemoryEngine(real_settings(), store=counting, embedder=HashEmbedder())  # type: ignore[arg-type]
    engine.list_notes("main", limit=1)
    counting.resolves = 0
    engine.list_notes("main", limit=100)
    few = counting.resolves
    for _ in range(5):
        engine.list_notes("main", limit=100)
    assert counting.resolves == few * 6 and few <= 2


def test_mem0_memories_are_never_consolidated(real_store: QdrantStore) -> None:
    before = snapshot(real_store.client)
    engine = make_engine(real_store, collection=MEM0_SMALL)
    for dry_run in (True, False):
        with pytest.raises(ReadOnlyStore, match="mem0"):
            engine.consolidate("dev", dry_run=dry_run)
    with pytest.raises(ReadOnlyStore, match="mem0"):
        engine.undo("dev", nid(900))
    assert snapshot(real_store.client) == before
