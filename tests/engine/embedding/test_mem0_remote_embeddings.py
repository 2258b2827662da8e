"""A mem0 collection is searched with the plugin's own embedder over its HTTP API, and
only when the user allows remote embeddings: without that, nothing is sent and the
search says it is by words and why. A failing endpoint falls back to words; the key
never shows."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from qdrant_client import models as qm

from amem_tui.config import load_settings
from amem_tui.engine.embed import HashEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.ollama_standin import OllamaStandIn
from tests.support.openai_standin import OpenAIStandIn
from tests.support.real_stores import MEM0_CAMEL, MEM0_MAIN, mem0_points

COLLECTION = "mem0_768d"
#: nomic-embed-text's size; the other providers are asked for it (``embeddingDims``).
DIM = 768
KEY = "sk-test-0123456789abcdef"
QUERY = "what coffee does alice drink"
#: The plugin's model: no local copy of it exists, so only its endpoint embeds like it.
OLLAMA_MODEL = "nomic-embed-text"


@pytest.fixture
def store() -> Iterator[QdrantStore]:
    """A mem0 collection as the plugin's SDK writes it (no model metadata), its vectors
    made by the model the plugin's endpoint serves."""
    store = QdrantStore(path=":memory:")
    store.client.create_collection(
        COLLECTION, vectors_config=qm.VectorParams(size=DIM, distance=qm.Distance.COSINE)
    )
    points = {k: v for k, v in mem0_points().items() if "data" in v}
    vectors = HashEmbedder(DIM).embed_documents([p["data"] for p in points.values()])
    store.client.upsert(
        COLLECTION,
        points=[
            qm.PointStruct(id=pid, vector=vec.tolist(), payload=payload)
            for (pid, payload), vec in zip(points.items(), vectors, strict=True)
        ],
        wait=True,
    )
    yield store
    store.close()


def _engine(
    store: QdrantStore,
    tmp_path: Path,
    embedder: dict[str, Any],
    env: dict[str, str] | None = None,
    openclaw: dict[str, Any] | None = None,
) -> MemoryEngine:
    """amem-tui as a user runs it: the plugin's entry in openclaw.json."""
    entry = {
        "mode": "open-source",
        "userId": "alice",
        "oss": {
            "embedder": embedder,
            "vectorStore": {"provider": "qdrant", "config": {"collectionName": COLLECTION}},
        },
    }
    config = tmp_path / "openclaw.json"
    config.write_text(
        json.dumps(
            {"plugins": {"entries": {"openclaw-mem0": {"config": entry}}}, **(openclaw or {})}
        )
    )
    settings = load_settings({"config_file": config}, env=env or {})
    # amem-tui's own model: the test embedder at the collection's size.
    return make_engine(store, settings=settings, embedder=HashEmbedder(DIM))


def _ollama(url: str) -> dict[str, Any]:
    return {"provider": "ollama", "config": {"model": OLLAMA_MODEL, "url": url}}


def _scores(store: QdrantStore, query: str) -> dict[str, float]:
    """The cosine of the endpoint's query vector with each stored memory."""
    vector = HashEmbedder(DIM).embed_query(query)
    points, _ = store.client.scroll(COLLECTION, limit=100, with_vectors=True)
    return {str(p.id): float(np.asarray(p.vector) @ vector) for p in points}


def test_nothing_is_sent_without_permission_and_the_notice_names_the_flag(
    store: QdrantStore, tmp_path: Path
) -> None:
    with OllamaStandIn(HashEmbedder(DIM), models=(OLLAMA_MODEL,)) as ollama:
        engine = _engine(store, tmp_path, _ollama(ollama.url))
        embedding = engine.query_embedding()
        assert embedding.verdict == "words only" and "--remote-embeddings" in embedding.reason
        result = engine.agent("main").search(QUERY)
        assert result.search_mode == "keyword" and result.hits
        assert result.notice is not None and "--remote-embeddings" in result.notice
        assert engine.agent("main").embed_query(QUERY) is None
        assert ollama.requests == []  # the stand-in counts every request: none came


def test_an_ollama_store_is_searched_through_the_plugin_s_endpoint_when_allowed(
    store: QdrantStore, tmp_path: Path
) -> None:
    with OllamaStandIn(HashEmbedder(DIM), models=(OLLAMA_MODEL,)) as ollama:
        engine = _engine(store, tmp_path, _ollama(ollama.url), env={"AMEM_REMOTE_EMBEDDINGS": "1"})
        embedding = engine.query_embedding()
        assert embedding.verdict == "exact" and embedding.runtime == "ollama"
        assert embedding.endpoint == f"{ollama.url}/api/embed"
        result = engine.agent("main").search(QUERY)
        assert result.search_mode == "plugin" and result.notice is None
        scores = _scores(store, QUERY)
        assert {h.note.id for h in result.hits} <= {MEM0_MAIN, MEM0_CAMEL}
        for hit in result.hits:
            assert hit.score == pytest.approx(scores[hit.note.id], abs=1e-5)
        assert ollama.requests == ["POST /api/embed"]  # no model list, no pull
        engine.agent("main").search(QUERY)  # the same query again: its vector is kept
        assert ollama.requests == ["POST /api/embed"]


def test_a_config_toml_key_allows_remote_embeddings(store: QdrantStore, tmp_path: Path) -> None:
    from amem_tui.paths import config_dir

    config_dir().mkdir(parents=True, exist_ok=True)
    (config_dir() / "config.toml").write_text("[embeddings]\nremote = true\n")
    with OllamaStandIn(HashEmbedder(DIM), models=(OLLAMA_MODEL,)) as ollama:
        engine = _engine(store, tmp_path, _ollama(ollama.url))
        assert engine.query_embedding().verdict == "exact"
        # The environment still says no, over the file.
        off = _engine(store, tmp_path, _ollama(ollama.url), env={"AMEM_REMOTE_EMBEDDINGS": "0"})
        assert off.query_embedding().verdict == "words only"


@pytest.mark.parametrize(
    ("embedder", "env", "route"),
    [
        (
            {
                "provider": "openai",
                "config": {"apiKey": "${MY_KEY}", "baseURL": "{v1}", "embeddingDims": DIM},
            },
            {"MY_KEY": KEY},
            "POST /v1/embeddings",
        ),
        (
            {"provider": "openai", "config": {"embeddingDims": DIM}},
            {"OPENAI_BASE_URL": "{v1}"},
            "POST /v1/embeddings",
        ),
        (
            {
                "provider": "lmstudio",
                "config": {"url": "{v1}", "apiKey": KEY, "embeddingDims": DIM},
            },
            {},
            "POST /v1/embeddings",
        ),
        (
            {
                "provider": "azure_openai",
                "config": {
                    "apiKey": KEY,
                    "embeddingDims": DIM,
                    "modelProperties": {
                        "endpoint": "{root}",
                        "deployment": "emb",
                        "apiVersion": "v9",
                    },
                },
            },
            {},
            "POST /openai/deployments/emb/embeddings?api-version=v9",
        ),
        (
            {"provider": "gemini", "config": {"embeddingDims": DIM}},
            {"GEMINI_API_KEY": KEY, "GOOGLE_GEMINI_BASE_URL": "{root}"},
            "POST /v1beta/models/text-embedding-3-small:batchEmbedContents",
        ),
    ],
    ids=["openai-key-in-entry", "openai-key-from-env", "lmstudio", "azure", "gemini"],
)
def test_openai_compatible_and_other_http_embedders(
    store: QdrantStore,
    tmp_path: Path,
    embedder: dict[str, Any],
    env: dict[str, str],
    route: str,
) -> None:
    with OpenAIStandIn(HashEmbedder(DIM), KEY) as server:

        def filled(value: Any) -> Any:
            if isinstance(value, dict):
                return {k: filled(v) for k, v in value.items()}
            if isinstance(value, str):
                return value.replace("{v1}", server.url).replace("{root}", server.root)
            return value

        environment = {"AMEM_REMOTE_EMBEDDINGS": "1", "OPENAI_API_KEY": KEY, **filled(env)}
        engine = _engine(store, tmp_path, filled(embedder), env=environment)
        result = engine.agent("main").search(QUERY)
        assert result.search_mode == "plugin" and result.notice is None, result.notice
        scores = _scores(store, QUERY)
        assert result.hits
        for hit in result.hits:
            assert hit.score == pytest.approx(scores[hit.note.id], abs=1e-5)
        assert [line for line, _, _ in server.requests] == [route]
        assert KEY not in engine.query_embedding().model_dump_json()


def test_the_key_comes_from_openclaw_s_state_folder_and_dimensions_are_asked(
    store: QdrantStore, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / ".env").write_text(f'export OPENAI_API_KEY="{KEY}"\n')
    with OpenAIStandIn(HashEmbedder(DIM), KEY) as server:
        embedder = {"provider": "openai", "config": {"baseURL": server.url, "embeddingDims": DIM}}
        env = {"AMEM_REMOTE_EMBEDDINGS": "1", "OPENCLAW_STATE_DIR": str(state)}
        engine = _engine(store, tmp_path, embedder, env=env)
        assert engine.query_embedding().key_source == "OPENAI_API_KEY"
        assert engine.agent("main").search(QUERY).notice is None
        (_, headers, body) = server.requests[0]
        assert headers["Authorization"] == f"Bearer {KEY}"
        assert body == {
            "model": "text-embedding-3-small",
            "input": QUERY,
            "encoding_format": "float",
            "dimensions": DIM,
        }


def test_the_env_block_of_openclaw_json_gives_the_key(store: QdrantStore, tmp_path: Path) -> None:
    with OpenAIStandIn(HashEmbedder(DIM), KEY) as server:
        embedder = {"provider": "openai", "config": {"baseURL": server.url, "embeddingDims": DIM}}
        engine = _engine(
            store,
            tmp_path,
            embedder,
            env={"AMEM_REMOTE_EMBEDDINGS": "1"},
            openclaw={"env": {"vars": {"OPENAI_API_KEY": KEY}}},
        )
        assert engine.agent("main").search(QUERY).notice is None


def test_a_refused_key_falls_back_to_words_and_is_never_shown(
    store: QdrantStore, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    wrong = "sk-wrong-key-that-must-not-show"
    with OpenAIStandIn(HashEmbedder(DIM), KEY) as server:
        embedder = {
            "provider": "openai",
            "config": {"baseURL": server.url, "apiKey": wrong, "embeddingDims": DIM},
        }
        engine = _engine(store, tmp_path, embedder, env={"AMEM_REMOTE_EMBEDDINGS": "1"})
        result = engine.agent("main").search(QUERY)
        assert server.embeddings_asked == 1  # the endpoint was asked, and refused it
    assert result.search_mode == "keyword" and result.hits
    assert result.notice is not None and "HTTP 401" in result.notice
    shown = " ".join(
        [
            result.model_dump_json(),
            repr(engine.settings),
            repr(engine.agent("main").query_embedding()),
            caplog.text,
        ]
    )
    assert wrong not in shown


def test_an_endpoint_that_does_not_answer_falls_back_to_words(
    store: QdrantStore, tmp_path: Path
) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    engine = _engine(
        store,
        tmp_path,
        _ollama(f"http://user:secret@127.0.0.1:{port}"),
        env={"AMEM_REMOTE_EMBEDDINGS": "1"},
    )
    result = engine.agent("main").search(QUERY)
    assert result.search_mode == "keyword" and result.hits
    assert result.notice is not None and "did not answer" in result.notice
    assert "secret" not in result.notice and "***@127.0.0.1" in result.notice


def test_a_model_available_here_is_used_without_sending_anything(
    store: QdrantStore, tmp_path: Path
) -> None:
    """The plugin's model under its local name: approximate, and nothing leaves."""
    with OllamaStandIn(HashEmbedder(DIM), models=("amem-test/hash-embedder",)) as ollama:
        embedder = {"provider": "huggingface", "config": {"model": "amem-test/hash-embedder"}}
        engine = _engine(store, tmp_path, embedder)
        embedding = engine.query_embedding()
        assert embedding.verdict == "approximate"
        assert engine.agent("main").search(QUERY).search_mode == "plugin"
        assert ollama.requests == []


def test_remote_embeddings_can_be_allowed_and_stopped_while_running(
    store: QdrantStore, tmp_path: Path
) -> None:
    with OllamaStandIn(HashEmbedder(DIM), models=(OLLAMA_MODEL,)) as ollama:
        engine = _engine(store, tmp_path, _ollama(ollama.url))
        assert engine.agent("main").search(QUERY).search_mode == "keyword"
        engine.allow_remote_embeddings(True)
        assert engine.settings.remote_embeddings
        assert engine.query_embedding().verdict == "exact"
        assert engine.agent("main").search(QUERY).search_mode == "plugin"
        assert ollama.requests == ["POST /api/embed"]
        engine.allow_remote_embeddings(False)
        assert engine.query_embedding().verdict == "words only"
        assert engine.agent("main").search("who drinks tea").search_mode == "keyword"
        assert ollama.requests == ["POST /api/embed"]  # nothing more was sent
