"""Which model built a collection (metadata, alias, vector size), and what the engine does
with a collection whose model it cannot run: it reads, refuses our vectors, searches by
keywords."""

from __future__ import annotations

from pathlib import Path

import pytest

from amem_tui.engine.embed import TEST_MODEL
from amem_tui.engine.errors import ModelMismatch
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.real_stores import (
    AMEM_ALIAS,
    AMEM_REAL,
    DEV_PRIVATE,
    DEV_READERS,
    DEV_SHARED,
    MAIN_PRIVATE,
    MAIN_SHARED,
    MALFORMED,
    MEM0,
    MEM0_AGENT_ONLY,
    MEM0_CAMEL,
    MEM0_DEV,
    MEM0_MAIN,
    MEM0_OPS,
    MEM0_SMALL,
    SANDBOX,
    real_settings,
    snapshot,
)


def test_collections_resolve_the_alias_and_detect_models(real_store: QdrantStore) -> None:
    engine = make_engine(real_store, settings=real_settings())
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
    assert views[MEM0].model_source == "none" and views[MEM0].searchable is False
    assert views[MEM0_SMALL].searchable is True


def test_model_status_foreign_models_fall_back(
    real_store: QdrantStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An empty fastembed cache: the legacy model cannot come from anywhere offline.
    monkeypatch.setenv("FASTEMBED_CACHE_PATH", str(tmp_path / "empty-cache"))
    engine = make_engine(real_store, settings=real_settings())
    main = engine.status("main")
    assert main.searchable is False
    assert "Xenova/bge-m3" in main.model_reason and "keyword" in main.model_reason
    result = engine.agent("main").search("deploy freeze", mode="dense")
    assert result.notice is not None and "keyword-only" in result.notice
    sandbox = engine.status("sandbox")
    assert sandbox.searchable is False and "paraphrase-multilingual" in sandbox.model_reason
    missing = make_engine(real_store, settings=real_settings(collection="not_there"))
    assert missing.status("main").searchable is True


def test_model_status_of_our_own_collection(store: QdrantStore) -> None:
    engine = make_engine(store, settings=real_settings(collection="ours"))
    engine.agent("main").add("A note in a collection this engine built")
    status = engine.status("main")
    assert (status.searchable, status.model_reason) == (
        True,
        "collection 'ours' was built with amem-test/hash-embedder",
    )
    result = engine.agent("main").search("a note this engine built", mode="dense")
    assert result.notice is None and result.hits


@pytest.mark.qdrant_client_only
def test_no_model_is_guessed_from_the_vector_size_alone(store: QdrantStore) -> None:
    from qdrant_client import models as qm

    for name, size in (("big", 1024), ("legacy", 384), ("our_size", 64)):
        store.client.create_collection(
            name, vectors_config=qm.VectorParams(size=size, distance=qm.Distance.COSINE)
        )
    engine = make_engine(store, settings=real_settings())
    views = {v.name: v for v in engine.collections()}
    big = views["big"]
    # The size only gives a hint in messages; nothing is taken as the model.
    assert (big.model, big.model_source, big.searchable) == (None, "none", False)
    assert "the size suggests Xenova/bge-m3" in big.model_reason
    assert "AMEM_COLLECTION_MODELS='big=" in big.model_reason
    legacy = views["legacy"]
    assert legacy.model is None and "the size suggests a MiniLM" in legacy.model_reason
    # Our vector size but no metadata: another tool built it, so it is not ours.
    same_size = views["our_size"]
    assert same_size.model is None and same_size.searchable is False
    assert "names no embedding model" in same_size.model_reason
    with pytest.raises(ModelMismatch, match="names no embedding_model"):
        engine.put_notes(
            "our_size", [MemoryNote(id=MAIN_PRIVATE, content="z" * 20, agent_id="main")]
        )
    assert store.count("our_size") == 0


@pytest.mark.qdrant_client_only
def test_a_configured_model_names_a_collection_without_metadata(store: QdrantStore) -> None:
    from qdrant_client import models as qm

    store.client.create_collection(
        "legacy", vectors_config=qm.VectorParams(size=64, distance=qm.Distance.COSINE)
    )
    per_collection = make_engine(
        store, settings=real_settings(collection_models={"legacy": TEST_MODEL})
    )
    legacy = {v.name: v for v in per_collection.collections()}["legacy"]
    assert (legacy.model, legacy.model_source, legacy.searchable) == (TEST_MODEL, "setting", True)
    by_flag = make_engine(store, settings=real_settings(model=TEST_MODEL))
    legacy = {v.name: v for v in by_flag.collections()}["legacy"]
    assert legacy.model_source == "--model"


def test_foreign_model_collection_opens_lists_and_gets_but_refuses_our_vectors(
    real_store: QdrantStore,
) -> None:
    engine = make_engine(real_store, settings=real_settings())
    assert engine.agent("main").list_notes().notes
    assert engine.agent("main").get(MAIN_PRIVATE).content.startswith("Vendor")
    assert engine.agent("dev").count("shared") >= 2
    with pytest.raises(ModelMismatch):
        engine.agent("main").add("This would mix our vectors into a bge-m3 collection")
    # A payload-only change needs no vector, so it is allowed.
    assert engine.agent("main").delete(MAIN_PRIVATE).is_active is False


def test_search_on_a_foreign_model_collection_falls_back_to_keywords(
    real_store: QdrantStore,
) -> None:
    before = snapshot(real_store.client)
    engine = make_engine(real_store, settings=real_settings())
    result = engine.agent("dev").search("deploy frozen audit snake_case", hidden=True)
    assert result.search_mode == "keyword"
    assert result.notice and "Xenova/bge-m3" in result.notice
    found = {h.note.id for h in result.hits}
    assert found and found <= {MAIN_SHARED, DEV_SHARED, DEV_PRIVATE, DEV_READERS}
    assert not found & MALFORMED
    # mem0 with 1536-dimensional vectors: keywords too, and only the agent's memories.
    mem0 = make_engine(real_store, settings=real_settings(collection=MEM0))
    result = mem0.agent("ops").search("runbook pnpm coffee standup", hidden=True)
    assert result.search_mode == "keyword" and result.notice
    assert {h.note.id for h in result.hits} == {MEM0_OPS}
    assert {h.id for h in result.hidden} <= {MEM0_MAIN, MEM0_DEV, MEM0_CAMEL, MEM0_AGENT_ONLY}
    assert snapshot(real_store.client) == before
