"""Search with the REAL offline fastembed model (all-MiniLM-L6-v2 int8), as users run it.

Marked ``slow``: one model is loaded per test process (the session fixture
``fastembed_embedder``) and shared by every test here.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from amem_tui.config import Settings
from amem_tui.demo import demo_id, demo_notes, demo_settings
from amem_tui.engine.embed import DEFAULT_MODEL, FastEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import ModelMismatch
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def demo_vectors(fastembed_embedder: FastEmbedder) -> dict[str, list[list[float]]]:
    """The demo notes embedded once by the real model (embedding is the slow part)."""
    return {
        collection: fastembed_embedder.embed_documents([n.content for n in notes]).tolist()
        for collection, notes in demo_notes().items()
    }


@pytest.fixture
def demo_engine(
    store: QdrantStore, fastembed_embedder: FastEmbedder, demo_vectors: dict[str, list[list[float]]]
) -> MemoryEngine:
    """The demo memory, embedded by the real model, on :memory: and on a folder store."""
    engine = make_engine(store, settings=demo_settings(Settings()), embedder=fastembed_embedder)
    for collection, notes in demo_notes().items():
        engine.put_notes(collection, notes, vectors=demo_vectors[collection])
    return engine


def ids(engine: MemoryEngine, agent: str, query: str, limit: int = 5) -> list[str]:
    return [h.note.id for h in engine.agent(agent).search(query, limit=limit).hits]


def all_payloads(engine: MemoryEngine) -> dict[str, Any]:
    return {
        (c, p.id): p.payload
        for c in engine.store.list_collections()
        for p in engine.store.scroll(c, None, limit=1000)
    }


def test_real_model_is_the_offline_minilm(fastembed_embedder: FastEmbedder) -> None:
    assert fastembed_embedder.model_name == DEFAULT_MODEL
    assert fastembed_embedder.dim == 384
    vectors = fastembed_embedder.embed_documents(["deploy freeze", "production release is blocked"])
    assert vectors.shape == (2, 384)
    assert abs(float((vectors[0] ** 2).sum()) - 1.0) < 1e-3  # unit length: cosine = dot
    related = float(vectors[0] @ vectors[1])
    unrelated = float(vectors[0] @ fastembed_embedder.embed_query("my cat likes tuna"))
    assert related > unrelated


def test_dev_finds_the_shared_freeze_first(demo_engine: MemoryEngine) -> None:
    result = demo_engine.agent("dev").search("deploy freeze", limit=5)
    assert (result.agent, result.mode, result.collection) == ("dev", "A", "amem_notes")
    assert result.hits[0].note.id == demo_id("shared-freeze")
    assert result.hits[0].because == "shared"
    scores = [h.score for h in result.hits]
    assert scores == sorted(scores, reverse=True)
    assert all(-1.0 <= s <= 1.0 for s in scores)


def test_paraphrased_query_finds_the_meaning(demo_engine: MemoryEngine) -> None:
    assert ids(demo_engine, "dev", "when can we ship to production?")[0] == demo_id("shared-freeze")
    query = "how should JSON keys be named"
    dense = [h.note.id for h in demo_engine.agent("dev").search(query, limit=5, mode="dense").hits]
    assert dense[0] == demo_id("shared-snake")  # the meaning, by cosine
    # openclaw-amem's own order lifts a note retrieved six times over it: its heat boost
    # is computed after the search bumped its dense candidates (retrieved just now).
    hybrid = demo_engine.agent("dev").search(query, limit=5).hits
    assert [h.note.id for h in hybrid[:2]] == [demo_id("shared-branches"), demo_id("shared-snake")]
    assert hybrid[0].boost == pytest.approx(1 + 0.05 * math.log(1 + 7))


def test_private_notes_stay_private_even_when_they_match_best(demo_engine: MemoryEngine) -> None:
    query = "vendor account cloud bill"
    assert ids(demo_engine, "main", query)[0] == demo_id("main-vendor")
    assert demo_id("main-vendor") not in ids(demo_engine, "dev", query, limit=50)
    assert demo_id("main-trip") not in ids(demo_engine, "dev", "Lisbon flight", limit=50)
    assert ids(demo_engine, "main", "Lisbon flight")[0] == demo_id("main-trip")


def test_selective_readers_and_legacy_notes(demo_engine: MemoryEngine) -> None:
    # dev's note naming main in its readers: main reads it by id, its search never finds it.
    result = demo_engine.agent("main").search("staging database credentials", limit=3, hidden=True)
    assert demo_id("dev-selective") not in {h.note.id for h in result.hits}
    assert result.hidden[0].id == demo_id("dev-selective")
    assert result.hidden[0].kind == "get_only"
    # An old note without is_active is active.
    assert ids(demo_engine, "main", "team wiki docs")[0] == demo_id("main-old")


def test_soft_deleted_notes_are_not_found(demo_engine: MemoryEngine) -> None:
    assert demo_id("main-deleted") not in ids(demo_engine, "main", "VPN password rotation", 50)


def test_mode_b_sees_its_own_collection_only(demo_engine: MemoryEngine) -> None:
    result = demo_engine.agent("sandbox").search("deploy freeze", limit=50)
    assert (result.mode, result.collection) == ("B", "amem_notes_sandbox")
    assert {h.note.id for h in result.hits} == {
        demo_id("sandbox-exp"),
        demo_id("sandbox-exp-dup"),
        demo_id("sandbox-tools"),
    }
    assert ids(demo_engine, "sandbox", "ssh key access")[0] in {
        demo_id("sandbox-exp"),
        demo_id("sandbox-exp-dup"),
    }
    sandbox_ids = {demo_id(k) for k in ("sandbox-exp", "sandbox-exp-dup", "sandbox-tools")}
    for agent in ("main", "dev"):
        assert not sandbox_ids & set(ids(demo_engine, agent, "untrusted plugin ssh", 50))


def test_search_changes_nothing(demo_engine: MemoryEngine) -> None:
    before = all_payloads(demo_engine)
    for agent in ("main", "dev", "sandbox"):
        demo_engine.agent(agent).search("deploy freeze", limit=20)
    assert all_payloads(demo_engine) == before


def test_new_note_is_found_by_meaning(store: QdrantStore, fastembed_embedder: FastEmbedder) -> None:
    engine = make_engine(store, settings=Settings(), embedder=fastembed_embedder)
    engine.agent("main").add("The production release is blocked until the audit is over")
    engine.agent("main").add("My cat prefers salmon over tuna")
    target = engine.agent("main").add("Lunch on Fridays is at the Thai place")
    info = engine.store.collection_info("amem_notes")
    assert info is not None
    assert (info.vector_size, info.embedding_model) == (384, DEFAULT_MODEL)
    hits = engine.agent("main").search("where do we eat at the end of the week", limit=3).hits
    assert hits[0].note.id == target.id
    updated = engine.agent("main").update(
        target.id, content="The weekly team lunch moved to Mondays"
    )
    assert updated.content.startswith("The weekly")
    hits = engine.agent("main").search("team lunch day changed", limit=1).hits
    assert hits[0].note.id == target.id  # re-embedded on update


def test_collection_of_another_model_is_never_searched(
    store: QdrantStore, fastembed_embedder: FastEmbedder
) -> None:
    other = make_engine(store, settings=Settings())
    other.agent("main").add("A note embedded by another model entirely")
    engine = make_engine(store, settings=Settings(), embedder=fastembed_embedder)
    before = engine.store.scroll("amem_notes", None, limit=10)
    # Search falls back to keywords (our vectors never meet theirs) and says so.
    result = engine.agent("main").search("note embedded")
    assert result.search_mode == "keyword" and result.notice
    assert [h.note.content for h in result.hits] == ["A note embedded by another model entirely"]
    with pytest.raises(ModelMismatch) as err:
        engine.agent("main").add("A note that must not be written with our vectors")
    assert err.value.exit_code == 5
    assert engine.store.scroll("amem_notes", None, limit=10) == before
