"""Each agent's recent queries, kept on disk: newest first, a repeat moves up, each
agent and the file capped, each store's apart, and the file survives a new process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import amem_tui.engine.isolation.history as history
from amem_tui.engine import MemoryEngine
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine


@pytest.fixture
def engine() -> MemoryEngine:
    """One backend is enough: the history is a file beside the store, not in it."""
    return make_engine(QdrantStore(path=":memory:"))


def test_queries_are_kept_per_agent_newest_first(engine: MemoryEngine, tmp_path: Path) -> None:
    kept = engine.query_history(tmp_path / "q.json")
    for query in ("deploy freeze", "on-call rotation", "  ", "deploy freeze"):
        kept.record("dev", query)
    kept.record("main", "travel")
    assert kept.recent("dev") == ["deploy freeze", "on-call rotation"]
    assert kept.recent("main") == ["travel"]
    again = engine.query_history(tmp_path / "q.json")  # as the next process reads it
    assert [(q.agent, q.query) for q in again.everyone()] == [
        ("main", "travel"),
        ("dev", "deploy freeze"),
        ("dev", "on-call rotation"),
    ]
    again.forget("dev")
    assert again.recent("dev") == [] and again.recent("main") == ["travel"]


def test_the_history_is_capped_and_each_store_keeps_its_own(
    engine: MemoryEngine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(history, "PER_AGENT", 3)
    monkeypatch.setattr(history, "TOTAL", 6)
    path = tmp_path / "q.json"
    other = history.QueryHistory(path, "another store", engine.clock)
    other.record("dev", "elsewhere")
    kept = engine.query_history(path)
    for n in range(6):
        kept.record("dev", f"query {n}")
        kept.record("main", f"query {n}")
    kept.record("dev", "x" * (history.LONGEST + 1))  # a pasted page is not kept
    assert kept.recent("dev") == ["query 5", "query 4", "query 3"]
    assert len(json.loads(path.read_text())["queries"]) == 6
    assert other.recent("dev") == []  # pushed out by the cap on the whole file
    path.write_text("not json")  # a damaged file is started afresh, never an error
    assert kept.recent("dev") == []
    kept.record("dev", "fresh")
    assert kept.recent("dev") == ["fresh"]


def test_the_default_file_is_in_the_data_folder(engine: MemoryEngine) -> None:
    kept = engine.query_history()
    kept.record("main", "hello")
    assert kept.path.name == "query_history.json"
    assert kept.path.parent.name == "data"  # AMEM_DATA_DIR, set for every test


def test_a_query_is_kept_with_its_filters(engine: MemoryEngine, tmp_path: Path) -> None:
    """The subject and topics a query was searched with are part of it: the same words
    with another subject are another query, and a file kept before filters still reads."""
    path = tmp_path / "q.json"
    old = {"store": engine.settings.store_label, "agent": "dev", "query": "old", "at": "2026"}
    path.write_text(json.dumps({"version": 1, "queries": [old]}), encoding="utf-8")
    kept = engine.query_history(path)
    kept.record("dev", "deploy freeze", "Priya")
    kept.record("dev", "deploy freeze", "Bob", ["ops", "ci"])
    kept.record("dev", "deploy freeze", "Priya")  # asked again: moves up, not repeated
    entries = kept.recent_entries("dev")
    assert [(e.query, e.subject, e.topics) for e in entries] == [
        ("deploy freeze", "Priya", []),
        ("deploy freeze", "Bob", ["ops", "ci"]),
        ("old", None, []),
    ]
    assert kept.recent("dev") == ["deploy freeze", "deploy freeze", "old"]


def test_a_querys_limit_is_kept_but_is_not_another_question(
    engine: MemoryEngine, tmp_path: Path
) -> None:
    """The limit a query asked for comes back with it; asked again with another limit it
    is the same question, moved up with the newer limit."""
    kept = engine.query_history(tmp_path / "q.json")
    kept.record("dev", "deploy freeze", limit=20)
    kept.record("dev", "on-call")
    assert [(e.query, e.limit) for e in kept.recent_entries("dev")] == [
        ("on-call", None),
        ("deploy freeze", 20),
    ]
    kept.record("dev", "deploy freeze")
    assert [(e.query, e.limit) for e in kept.recent_entries("dev")] == [
        ("deploy freeze", None),
        ("on-call", None),
    ]
