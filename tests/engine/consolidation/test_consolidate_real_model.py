"""The demo's near-duplicates with the real embedding model, at the default threshold."""

from __future__ import annotations

import pytest

from amem_tui.config import cache_dir
from amem_tui.demo import demo_id, demo_settings, seed_demo
from amem_tui.engine.embed import FastEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.store.qdrant import QdrantStore
from tests.conftest import fixed_clock, fixed_ids
from tests.engine.consolidation_data import snapshot

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def model() -> FastEmbedder:
    embedder = FastEmbedder(cache_dir=cache_dir())
    embedder.load()
    return embedder


def test_demo_near_duplicates_merge_and_nothing_else(model: FastEmbedder) -> None:
    from amem_tui.config import Settings

    engine = MemoryEngine(
        demo_settings(Settings()),
        store=QdrantStore(path=":memory:"),
        embedder=model,
        clock=fixed_clock(),
        new_id=fixed_ids(),
    )
    seed_demo(engine)
    before = snapshot(engine.store)
    merges = {}
    runs = {}
    for agent in ("main", "dev", "sandbox"):
        runs[agent] = engine.consolidate(agent)
        merges[agent] = {(m.keeper, tuple(m.dropped)) for m in runs[agent].merges}
        assert all(m.similarity >= 0.85 for m in runs[agent].merges)
    assert merges["main"] == {
        (demo_id("main-standup-dup"), (demo_id("main-standup"),)),
        (demo_id("main-reviews"), (demo_id("main-reviews-dup"),)),
    }
    assert merges["dev"] == {
        (demo_id("dev-tests"), tuple(sorted([demo_id("dev-tests-dup"), demo_id("dev-tests-dup2")])))
    }
    assert merges["sandbox"] == {(demo_id("sandbox-exp-dup"), (demo_id("sandbox-exp"),))}
    after = snapshot(engine.store)
    changed = {key.split("/")[1] for key in before if before[key] != after[key]}
    touched = {i for agent in merges for k, d in merges[agent] for i in (k, *d)}
    assert changed == touched  # shared notes, knowledge and everything else untouched
    for agent, run in runs.items():
        engine.undo(agent, run.id)
    assert snapshot(engine.store) == before
