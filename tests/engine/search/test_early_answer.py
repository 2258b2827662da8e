"""A query typed while the store is still opening is answered from the saved note index:
the same notes, scores and reasons as the full keyword search, or no early answer at
all when the index cannot be exact."""

from __future__ import annotations

from pathlib import Path

import pytest

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.search.early import EARLY_PARTIAL, SavedIndexSearch
from amem_tui.engine.store.edge import EdgeStore
from tests.support.engines import (
    demo_like_settings,
    fixed_ids,
    make_engine,
    store_with_saved_index,
)

QUERIES = ("deploy freeze", "billing review", "staging cache token", "nothing matches this")


def full_answer(folder: Path, agent: str, query: str) -> list[tuple[str, str, float]]:
    engine = make_engine(EdgeStore(folder), settings=demo_like_settings(store_path=folder))
    try:
        result = engine.agent(agent).search(query, mode="keyword", limit=10)
        return [(h.note.id, h.because, round(h.score, 9)) for h in result.hits]
    finally:
        engine.close()


@pytest.fixture
def store(tmp_path: Path) -> Path:
    store_with_saved_index(tmp_path)
    return tmp_path


@pytest.mark.parametrize("agent", ["main", "dev", "sandbox"])
def test_early_answer_is_the_keyword_search_of_the_open_store(store: Path, agent: str) -> None:
    early = SavedIndexSearch.open(demo_like_settings(store_path=store), agent)
    assert early is not None
    for query in QUERIES:
        answer = early.search(query, limit=10)
        got = [(h.note_id, h.because, round(h.score, 9)) for h in answer.hits]
        assert got == full_answer(store, agent, query), query
        assert answer.partial == EARLY_PARTIAL
        assert (answer.agent, answer.query) == (agent, query)


def test_early_answer_keeps_each_agent_to_what_it_can_search(store: Path) -> None:
    early = SavedIndexSearch.open(demo_like_settings(store_path=store), "main")
    assert early is not None
    found = early.search("deploy freeze sandbox auth hotfix billing draft deleted")
    snippets = " | ".join(h.snippet for h in found.hits)
    assert "starts Friday" in snippets  # its own
    assert "auth hotfix" not in snippets  # dev's private note
    assert "sandbox" not in snippets  # another collection (Mode B)
    assert "deleted" not in snippets  # soft-deleted
    assert "readers main only" not in snippets  # readers grant reads by id, not searches
    assert {h.because for h in found.hits} <= {"private", "shared"}
    sandbox = SavedIndexSearch.open(demo_like_settings(store_path=store), "sandbox")
    assert sandbox is not None
    assert [h.because for h in sandbox.search("deploy freeze").hits] == ["collection"]


def test_snippet_is_the_first_words_of_the_content(store: Path) -> None:
    early = SavedIndexSearch.open(demo_like_settings(store_path=store), "main")
    assert early is not None
    top = early.search("Friday noon").hits[0]
    assert top.snippet == "deploy freeze starts Friday at noon for the billing review"
    assert top.agent_id == "main"


def test_no_early_answer_once_a_write_overtook_the_saved_index(store: Path) -> None:
    # Another process writes and quits without its index being saved (killed, say).
    engine: MemoryEngine = make_engine(
        EdgeStore(store), settings=demo_like_settings(store_path=store), new_id=fixed_ids(7)
    )
    engine.agent("dev").add("deploy freeze lifted early", shared=True)
    engine.store.close()
    assert SavedIndexSearch.open(demo_like_settings(store_path=store), "main") is None


def test_no_early_answer_without_an_index_a_store_or_an_embedded_folder(tmp_path: Path) -> None:
    assert SavedIndexSearch.open(demo_like_settings(store_path=tmp_path / "none"), "main") is None
    settings = demo_like_settings(url="http://localhost:6333")
    assert SavedIndexSearch.open(settings, "main") is None
    store_with_saved_index(tmp_path)
    for saved in tmp_path.rglob("index.bin"):
        saved.unlink()
    assert SavedIndexSearch.open(demo_like_settings(store_path=tmp_path), "main") is None
