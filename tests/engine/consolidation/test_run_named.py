"""A run found by its id or the start of it, as a person types it: any case, and the
runs an ambiguous start could mean named; a run's kept notes alike."""

from __future__ import annotations

import itertools

import pytest

from amem_tui.demo import seed_demo
from amem_tui.engine.embed import TEST_MODEL
from amem_tui.engine.for_apps import AmbiguousId
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import demo_like_settings, make_engine


def test_a_run_is_found_by_the_start_of_its_id_in_any_case() -> None:
    counter = itertools.count(1)
    engine = make_engine(
        QdrantStore(path=":memory:"),
        settings=demo_like_settings(model=TEST_MODEL),
        new_id=lambda: f"ab{next(counter):06d}-0000-4000-8000-000000000000",
    )
    seed_demo(engine)
    runs = [engine.agent(agent).consolidate(threshold=0.65) for agent in ("main", "dev")]
    assert all(run.merges for run in runs)

    assert engine.run_named(runs[1].id) == engine.agent("dev").history()[0]
    found = engine.run_named(runs[0].id[:8].upper())
    assert found is not None and found.id == runs[0].id
    assert engine.run_named("ff") is None
    with pytest.raises(AmbiguousId, match="run id 'ab' is the start of 2 runs: ") as refused:
        engine.run_named("ab")
    assert sorted(refused.value.matches) == sorted(run.id for run in runs)

    keeper = runs[0].merges[0].keeper
    assert runs[0].keepers_named(keeper[:13].upper()) == [keeper]
    assert runs[0].keepers_named(" ") == []
