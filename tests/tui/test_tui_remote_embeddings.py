"""Remote embeddings allowed and stopped from the command palette, on a mem0 store
whose plugin embeds with Ollama: the header says how searches rank, and nothing is
sent until they are allowed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from qdrant_client import models as qm

from amem_tui.config import load_settings
from amem_tui.engine.embed import HashEmbedder
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.ollama_standin import OllamaStandIn
from tests.support.tui import demo_app, header_text, main_screen, settle, started

COLLECTION = "mem0_64d"
MODEL = "nomic-embed-text"  # no local copy: only the plugin's endpoint embeds like it


async def _palette(pilot: Any, words: str) -> None:
    await pilot.press("ctrl+p")
    await settle(pilot)
    await pilot.press(*words)
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)


async def test_the_palette_allows_and_stops_remote_embeddings(tmp_path: Path) -> None:
    store = QdrantStore(path=":memory:")
    store.client.create_collection(
        COLLECTION, vectors_config=qm.VectorParams(size=64, distance=qm.Distance.COSINE)
    )
    text = "Alice prefers dark roast coffee"
    store.client.upsert(
        COLLECTION,
        points=[
            qm.PointStruct(
                id="00000000-0000-0000-0000-000000000001",
                vector=HashEmbedder().embed_query(text).tolist(),
                payload={"data": text, "user_id": "alice", "hash": "0" * 32},
            )
        ],
        wait=True,
    )
    with OllamaStandIn(HashEmbedder(), models=(MODEL,)) as ollama:
        entry = {
            "mode": "open-source",
            "userId": "alice",
            "oss": {
                "embedder": {
                    "provider": "ollama",
                    "config": {"model": MODEL, "url": ollama.url, "embeddingDims": 64},
                },
                "vectorStore": {"provider": "qdrant", "config": {"collectionName": COLLECTION}},
            },
        }
        config = tmp_path / "openclaw.json"
        config.write_text(
            json.dumps({"plugins": {"entries": {"openclaw-mem0": {"config": entry}}}})
        )
        settings = load_settings({"config_file": config}, env={})
        engine = make_engine(store, settings=settings, embedder=HashEmbedder())
        app = demo_app(engine)
        async with started(app) as pilot:
            assert "search by words only" in header_text(app)
            await pilot.press("slash", *"coffee")
            await settle(pilot)
            assert ollama.requests == []  # nothing is sent before it is allowed
            await _palette(pilot, "remote embeddings")
            assert engine.settings.remote_embeddings
            assert "words only" not in header_text(app)
            result = main_screen(app).search_box.result
            assert result is not None and result.search_mode == "plugin"
            assert ollama.requests == ["POST /api/embed"]
            await _palette(pilot, "remote embeddings")
            assert not engine.settings.remote_embeddings
            assert "search by words only" in header_text(app)
