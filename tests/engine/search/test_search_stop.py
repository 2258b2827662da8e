"""A caller can stop a search whose answer it no longer wants (an app's typed-over query)."""

from __future__ import annotations

from pathlib import Path

import pytest

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import SearchStopped
from amem_tui.engine.store.edge import EdgeStore
from tests.support.engines import make_engine


@pytest.fixture
def engine(tmp_path: Path) -> MemoryEngine:
    engine = make_engine(EdgeStore(tmp_path / "store"))
    engine.agent("main").add("Production deploy is frozen until the audit ends")
    engine.agent("main").add("The billing review is on Thursday")
    return engine


def test_a_search_asked_to_go_on_finds_what_it_finds_without_asking(
    engine: MemoryEngine,
) -> None:
    asked: list[bool] = []

    def go_on() -> bool:
        asked.append(True)
        return False

    plain = engine.agent("main").search("deploy freeze")
    watched = engine.agent("main").search("deploy freeze", stop=go_on)
    assert [h.note.id for h in watched.hits] == [h.note.id for h in plain.hits]
    # before the model runs, after the query's embedding, and before the notes are read
    assert len(asked) == 3


@pytest.mark.parametrize("stage", [0, 1, 2])
def test_a_stopped_search_raises_at_the_next_stage(engine: MemoryEngine, stage: int) -> None:
    asked: list[bool] = []

    def stop_at_stage() -> bool:
        asked.append(True)
        return len(asked) > stage

    with pytest.raises(SearchStopped):
        engine.agent("main").search("deploy freeze", stop=stop_at_stage)
    assert len(asked) == stage + 1
