"""The demo's near-duplicates with the real embedding model, at the default threshold."""

from __future__ import annotations

import pytest

from amem_tui.config import Settings
from amem_tui.demo import demo_id, demo_settings, seed_demo
from amem_tui.engine.embed import FastEmbedder
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.consolidation_data import snapshot
from tests.support.engines import make_engine

pytestmark = pytest.mark.slow


def test_demo_near_duplicates_merge_and_nothing_else(fastembed_embedder: FastEmbedder) -> None:
    engine = make_engine(
        QdrantStore(path=":memory:"),
        settings=demo_settings(Settings()),
        embedder=fastembed_embedder,
    )
    seed_demo(engine)
    before = snapshot(engine.store)
    merges = {}
    runs = {}
    for agent in ("main", "dev", "sandbox"):
        runs[agent] = engine.agent(agent).consolidate()
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
        engine.agent(agent).undo(run.id)
    assert snapshot(engine.store) == before
