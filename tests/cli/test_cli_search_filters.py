"""``search --subject NAME --topics A,B`` (openclaw-amem's memory_search filters) and
``--remote-embeddings`` (a mem0 query embedded by the plugin's own embedder)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from qdrant_client import models as qm

from amem_tui.cli import main
from amem_tui.engine.embed import TEST_MODEL, HashEmbedder
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import demo_like_settings, make_engine
from tests.support.ollama_standin import OllamaStandIn


def _note(n: int, content: str, **extra: object) -> MemoryNote:
    return MemoryNote(
        id=f"00000000-0000-0000-0000-{n:012d}",
        content=content,
        agent_id="main",
        owner="main",
        readers=["main"],
        writers=["main"],
        **extra,  # type: ignore[arg-type]
    )


def _search(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    code = main(["--json", *argv])
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else {}


def test_subject_and_topics(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "store"
    engine = make_engine(QdrantStore(path=str(folder)), settings=demo_like_settings())
    engine.put_notes(
        "amem_notes",
        [
            _note(1, "Alice wants the deploy freeze lifted", subjects=["alice"]),
            _note(2, "Bob wants the deploy freeze kept", subjects=["bob"]),
            _note(3, "The deploy freeze runbook", note_type="knowledge", topics=["ops"]),
            _note(4, "The deploy freeze checklist", note_type="knowledge", topics=["ops", "ci"]),
        ],
    )
    engine.close()
    common = ["--store", str(folder), "--model", TEST_MODEL, "search", "deploy freeze"]
    code, found = _search(capsys, *common, "--subject", "alice")
    ids = {hit["id"] for hit in found["hits"]}  # type: ignore[index, union-attr]
    assert code == 0 and _note(1, "x").id in ids and _note(2, "x").id not in ids
    code, found = _search(capsys, *common, "--topics", "OPS, ci")
    ids = {hit["id"] for hit in found["hits"]}  # type: ignore[index, union-attr]
    assert code == 0 and _note(4, "x").id in ids and _note(3, "x").id not in ids
    assert {_note(1, "x").id, _note(2, "x").id} <= ids  # memory notes pass
    assert found["embedding"]["verdict"] == "exact"  # type: ignore[index]
    code, _ = _search(capsys, *common, "--topics", "ops,,ci")
    assert code == 2


def test_remote_embeddings_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = QdrantStore(path=str(tmp_path / "store"))
    store.client.create_collection(
        "mem0_64d", vectors_config=qm.VectorParams(size=64, distance=qm.Distance.COSINE)
    )
    text = "Alice prefers dark roast coffee"
    store.client.upsert(
        "mem0_64d",
        points=[
            qm.PointStruct(
                id="00000000-0000-0000-0000-000000000001",
                vector=HashEmbedder().embed_query(text).tolist(),
                payload={"data": text, "user_id": "alice", "hash": "0" * 32},
            )
        ],
        wait=True,
    )
    store.close()
    with OllamaStandIn(HashEmbedder(), models=("bge-m3-q4",)) as ollama:
        entry = {
            "mode": "open-source",
            "userId": "alice",
            "oss": {
                "embedder": {
                    "provider": "ollama",
                    "config": {"model": "bge-m3-q4", "url": ollama.url},
                }
            },
        }
        config = tmp_path / "openclaw.json"
        config.write_text(
            json.dumps({"plugins": {"entries": {"openclaw-mem0": {"config": entry}}}})
        )
        common = ["--store", str(tmp_path / "store"), "--config", str(config)]
        code, found = _search(capsys, *common, "search", "coffee")
        assert code == 0 and found["search_mode"] == "keyword"
        assert "--remote-embeddings" in str(found["notice"]) and ollama.requests == []
        code, found = _search(capsys, *common, "--remote-embeddings", "search", "coffee")
        assert code == 0 and found["search_mode"] == "plugin" and found["notice"] is None
        assert found["embedding"]["verdict"] == "exact"  # type: ignore[index]
        assert ollama.requests == ["POST /api/embed"]
