"""Real stores with the real fastembed model: a collection openclaw-amem built with the
same model under its Xenova name, and an import that re-embeds."""

from __future__ import annotations

import json

import pytest
from qdrant_client import models as qm

from amem_tui.engine.embed import FastEmbedder
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.real_stores import (
    DEV_SHARED,
    MAIN_PRIVATE,
    MAIN_SHARED,
    MALFORMED,
    amem_points,
    real_settings,
)

pytestmark = pytest.mark.slow


def test_a_collection_built_with_our_model_under_another_name_is_searched_by_vector(
    fastembed_embedder: FastEmbedder,
) -> None:
    store = QdrantStore(path=":memory:")
    good = {k: v for k, v in amem_points().items() if k not in MALFORMED}
    store.client.create_collection(
        "amem_v1",
        vectors_config=qm.VectorParams(size=384, distance=qm.Distance.COSINE),
        metadata={"embedding_model": "Xenova/all-MiniLM-L6-v2"},
    )
    store.client.update_collection_aliases(
        change_aliases_operations=[
            qm.CreateAliasOperation(
                create_alias=qm.CreateAlias(collection_name="amem_v1", alias_name="amem_notes")
            )
        ]
    )
    vectors = fastembed_embedder.embed_documents([p["content"] for p in good.values()])
    store.client.upsert(
        "amem_v1",
        points=[
            qm.PointStruct(id=pid, vector=vec.tolist(), payload=payload)
            for (pid, payload), vec in zip(good.items(), vectors, strict=True)
        ],
        wait=True,
    )
    engine = make_engine(store, settings=real_settings(), embedder=fastembed_embedder)
    # The same model, but amem-tui's int8 build rather than openclaw-amem's files.
    embedding = engine.query_embedding("amem_notes")
    assert embedding.verdict == "approximate" and embedding.collection == "amem_v1"
    assert "Xenova/all-MiniLM-L6-v2" in embedding.reason and "AMEM_MODEL_DIR" in embedding.reason
    result = engine.agent("dev").search("is the production deploy frozen?", mode="dense")
    assert result.search_mode == "dense" and result.notice is None
    assert result.hits[0].note.id == MAIN_SHARED
    assert MAIN_PRIVATE not in {h.note.id for h in result.hits}
    store.close()


def test_import_without_vectors_re_embeds_with_the_real_model(
    fastembed_embedder: FastEmbedder,
) -> None:
    store = QdrantStore(path=":memory:")
    engine = make_engine(
        store, settings=real_settings(collection="restored"), embedder=fastembed_embedder
    )
    lines = [
        json.dumps({"id": pid, "payload": payload})
        for pid, payload in amem_points().items()
        if pid not in MALFORMED
    ]
    result = engine.import_lines(lines, "restored")
    assert result.complete and result.reembedded == len(lines)
    hits = engine.agent("main").search("which case style do API JSON keys use?", mode="dense").hits
    assert hits[0].note.id == DEV_SHARED
    store.close()
