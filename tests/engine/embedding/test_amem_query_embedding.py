"""An openclaw-amem collection is searched with the agent's own model: its files where
openclaw-amem keeps them, its pooling, its weights file; else by words, saying where
it looked and naming AMEM_MODEL_DIR."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from qdrant_client import models as qm

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.amem_models import (
    BGE_SMALL,
    DIM,
    MINILM,
    lay_out,
    plugin_cache,
    reference_vector,
)
from tests.support.engines import make_engine
from tests.support.real_stores import MALFORMED, amem_points, real_settings

pytestmark = pytest.mark.slow  # runs the packaged model through onnxruntime

COLLECTION = "amem_bge"
QUERY = "is the production deploy frozen?"


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """AMEM_MODEL_DIR: the packaged model under a CLS-pooled and a mean-pooled name."""
    root = tmp_path_factory.mktemp("amem-models")
    lay_out(root, BGE_SMALL)
    lay_out(root, MINILM)
    return root


def _store(model: str | None, pooling: str, models: Path) -> QdrantStore:
    """A collection as openclaw-amem writes it, its vectors made by its own model."""
    store = QdrantStore(path=":memory:")
    metadata = {"embedding_model": model} if model else None
    store.client.create_collection(
        COLLECTION,
        vectors_config=qm.VectorParams(size=DIM, distance=qm.Distance.COSINE),
        metadata=metadata,
    )
    folder = models / (model or BGE_SMALL)
    points = {k: v for k, v in amem_points().items() if k not in MALFORMED}
    store.client.upsert(
        COLLECTION,
        points=[
            qm.PointStruct(
                id=pid,
                vector=reference_vector(folder, payload["content"], pooling).tolist(),
                payload=payload,
            )
            for pid, payload in points.items()
        ],
        wait=True,
    )
    return store


@pytest.fixture
def bge_store(models: Path) -> Iterator[QdrantStore]:
    store = _store(BGE_SMALL, "cls", models)
    yield store
    store.close()


def _engine(store: QdrantStore, **settings: Any) -> MemoryEngine:
    return make_engine(store, settings=real_settings(collection=COLLECTION, **settings))


def test_a_bge_collection_is_searched_hybrid_with_amem_s_own_query_vector(
    bge_store: QdrantStore, models: Path
) -> None:
    engine = _engine(bge_store, amem_model_dir=models)
    embedding = engine.query_embedding()
    assert embedding.verdict == "exact" and embedding.found_in == "AMEM_MODEL_DIR"
    assert (embedding.pooling, embedding.weights) == ("cls", "onnx/model.onnx")
    assert embedding.pooling_source == "amem's table of CLS-pooled models"
    assert embedding.folder == str(models / BGE_SMALL)
    result = engine.agent("dev").search(QUERY)
    assert result.search_mode == "hybrid" and result.notice is None
    assert result.embedding == embedding
    theirs = reference_vector(models / BGE_SMALL, QUERY, "cls")
    stored = {
        p.id: np.asarray(p.vector)
        for p in bge_store.client.retrieve(
            COLLECTION, [h.note.id for h in result.hits], with_vectors=True
        )
    }
    assert result.hits
    for hit in result.hits:
        assert hit.similarity == pytest.approx(float(stored[hit.note.id] @ theirs), abs=1e-5)
    assert np.allclose(engine.agent("dev").embed_query(QUERY), theirs, atol=1e-5)


def test_amem_embed_pooling_overrides_the_table(bge_store: QdrantStore, models: Path) -> None:
    engine = _engine(bge_store, amem_model_dir=models, amem_embed_pooling="MEAN")
    embedding = engine.query_embedding()
    assert (embedding.pooling, embedding.pooling_source) == ("mean", "AMEM_EMBED_POOLING")
    vector = engine.agent("dev").embed_query(QUERY)
    assert np.allclose(vector, reference_vector(models / BGE_SMALL, QUERY, "mean"), atol=1e-5)
    assert not np.allclose(vector, reference_vector(models / BGE_SMALL, QUERY, "cls"), atol=1e-3)
    # A value amem does not know leaves its table in charge.
    unknown = _engine(bge_store, amem_model_dir=models, amem_embed_pooling="max")
    assert unknown.query_embedding().pooling == "cls"


def test_a_mean_pooled_name_is_mean_pooled(models: Path) -> None:
    store = _store(MINILM, "mean", models)
    engine = _engine(store, amem_model_dir=models)
    assert engine.query_embedding().pooling == "mean"
    vector = engine.agent("dev").embed_query(QUERY)
    assert np.allclose(vector, reference_vector(models / MINILM, QUERY, "mean"), atol=1e-5)
    store.close()


def test_amem_model_cache_finds_the_files(bge_store: QdrantStore, tmp_path: Path) -> None:
    cache = tmp_path / "shared-cache"
    lay_out(cache, BGE_SMALL)
    engine = _engine(bge_store, amem_model_cache=cache)
    embedding = engine.query_embedding()
    assert embedding.verdict == "exact" and embedding.found_in == "AMEM_MODEL_CACHE"
    assert engine.agent("dev").search(QUERY).search_mode == "hybrid"


@pytest.mark.parametrize("npm", [False, True], ids=["extensions", "npm-project"])
def test_the_installed_plugin_s_transformers_cache_is_found(
    bge_store: QdrantStore, tmp_path: Path, npm: bool
) -> None:
    openclaw = tmp_path / ".openclaw"
    lay_out(plugin_cache(openclaw, npm=npm), BGE_SMALL)
    engine = _engine(bge_store, openclaw_state_dir=openclaw)
    embedding = engine.query_embedding()
    assert embedding.verdict == "exact"
    assert embedding.found_in == "the openclaw-amem plugin's Transformers.js cache"


def test_our_own_model_folders_are_looked_in(bge_store: QdrantStore, tmp_path: Path) -> None:
    lay_out(tmp_path / "mine", BGE_SMALL)
    engine = _engine(bge_store, model_folders=[tmp_path / "elsewhere", tmp_path / "mine"])
    assert engine.query_embedding().found_in == "amem-tui's model folders"


@pytest.mark.parametrize(
    ("dtype", "files", "weights"),
    [
        (None, ["model.onnx", "model_quantized.onnx"], "onnx/model.onnx"),
        ("q8", ["model.onnx", "model_quantized.onnx"], "onnx/model_quantized.onnx"),
        ("fp16", ["model_fp16.onnx"], "onnx/model_fp16.onnx"),
        ("int8", ["model_int8.onnx"], "onnx/model_int8.onnx"),
        ("q4f16", ["model_q4f16.onnx"], "onnx/model_q4f16.onnx"),
        ("auto", ["model.onnx"], "onnx/model.onnx"),
        ("not-a-dtype", ["model.onnx"], "onnx/model.onnx"),
    ],
)
def test_amem_embed_dtype_picks_the_weights_file(
    bge_store: QdrantStore, tmp_path: Path, dtype: str | None, files: list[str], weights: str
) -> None:
    lay_out(tmp_path, BGE_SMALL, weights=files)
    engine = _engine(bge_store, amem_model_dir=tmp_path, amem_embed_dtype=dtype)
    embedding = engine.query_embedding()
    assert embedding.verdict == "exact" and embedding.weights == weights
    assert engine.agent("dev").search(QUERY).search_mode == "hybrid"


def test_the_model_s_config_and_device_choose_the_dtype(
    bge_store: QdrantStore, tmp_path: Path
) -> None:
    configured = {"transformers.js_config": {"dtype": "q8"}}
    lay_out(tmp_path / "a", BGE_SMALL, weights=["model_quantized.onnx"], config=configured)
    by_config = _engine(bge_store, amem_model_dir=tmp_path / "a").query_embedding()
    assert (by_config.weights, by_config.dtype_source) == (
        "onnx/model_quantized.onnx",
        "config.json",
    )
    lay_out(tmp_path / "b", BGE_SMALL, weights=["model_quantized.onnx"])
    wasm = _engine(bge_store, amem_model_dir=tmp_path / "b", amem_embed_device="wasm")
    assert wasm.query_embedding().weights == "onnx/model_quantized.onnx"


def test_external_data_the_config_asks_for_must_be_there(
    bge_store: QdrantStore, tmp_path: Path
) -> None:
    asks = {"transformers.js_config": {"use_external_data_format": {"model.onnx": True}}}
    lay_out(tmp_path / "without", BGE_SMALL, config=asks)
    missing = _engine(bge_store, amem_model_dir=tmp_path / "without").query_embedding()
    assert missing.verdict == "words only"
    assert any("onnx/model.onnx_data" in place for place in missing.looked_in)
    lay_out(tmp_path / "with", BGE_SMALL, config=asks, extra=["onnx/model.onnx_data"])
    found = _engine(bge_store, amem_model_dir=tmp_path / "with").query_embedding()
    assert found.verdict == "exact" and found.weights == "onnx/model.onnx"


def test_without_the_files_it_searches_by_words_and_names_amem_model_dir(
    bge_store: QdrantStore, tmp_path: Path
) -> None:
    openclaw = tmp_path / ".openclaw"
    plugin_cache(openclaw)  # the plugin is installed, its cache holds nothing
    lay_out(tmp_path / "fp32-only", BGE_SMALL)
    engine = _engine(
        bge_store,
        openclaw_state_dir=openclaw,
        amem_model_dir=tmp_path / "fp32-only",
        amem_embed_dtype="fp16",
    )
    embedding = engine.query_embedding()
    assert embedding.verdict == "words only" and not embedding.by_meaning
    looked = "\n".join(embedding.looked_in)
    assert "AMEM_MODEL_DIR" in looked and "onnx/model_fp16.onnx" in looked
    assert "the openclaw-amem plugin's Transformers.js cache" in looked
    assert "amem-tui's default model folder" in looked
    result = engine.agent("dev").search(QUERY)
    assert result.search_mode == "keyword" and result.hits
    assert result.notice is not None and "AMEM_MODEL_DIR" in result.notice
    assert BGE_SMALL in result.notice and str(openclaw) in result.notice
    assert engine.agent("dev").embed_query(QUERY) is None


def test_amem_embed_model_names_a_collection_without_metadata(
    models: Path,
) -> None:
    store = _store(None, "cls", models)
    unnamed = _engine(store, amem_model_dir=models).query_embedding()
    assert unnamed.verdict == "words only" and unnamed.model is None
    engine = _engine(store, amem_model_dir=models, amem_embed_model=BGE_SMALL)
    embedding = engine.query_embedding()
    assert (embedding.model, embedding.model_source) == (BGE_SMALL, "AMEM_EMBED_MODEL")
    assert embedding.verdict == "exact" and engine.agent("dev").search(QUERY).notice is None
    # The metadata outranks it: it says which model made the vectors.
    named = _store(BGE_SMALL, "cls", models)
    other = _engine(named, amem_model_dir=models, amem_embed_model=MINILM).query_embedding()
    assert other.model == BGE_SMALL and other.pooling == "cls"
    store.close()
    named.close()


def test_loading_is_left_to_the_caller_s_worker(bge_store: QdrantStore, models: Path) -> None:
    engine = _engine(bge_store, amem_model_dir=models)
    view = engine.agent("dev")
    # Asking how it embeds, or searching without waiting, loads nothing.
    assert engine.query_embedding().verdict == "exact"
    partial = view.search(QUERY, wait=False)
    assert partial.search_mode == "keyword" and partial.partial is not None
    assert not engine.models_loaded()
    engine.load_models()  # what an app's worker thread calls
    assert engine.models_loaded()
    after = view.search(QUERY, wait=False)
    assert after.search_mode in ("dense", "hybrid") and "model" not in (after.partial or "")
