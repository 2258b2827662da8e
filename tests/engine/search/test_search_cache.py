"""Searches on a long-lived engine match a freshly opened one after any mix of writes.

An embedded engine keeps the notes it searched and patches them after each
write; this checks that what it finds then is exactly what an engine opened
afterwards on the same folder finds by reading everything again.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import AmemError
from amem_tui.engine.store.edge import EdgeStore
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import fixed_ids, make_engine

WORDS = ("deploy", "freeze", "billing", "review", "auth", "cache", "token", "staging", "lint")
QUERIES = ("deploy freeze", "billing review", "auth token cache", "staging", "lint lint deploy")
AGENTS = ("main", "dev", "sandbox")
ACTIONS = ("add", "add", "publish", "unpublish", "update", "delete", "restore")


def open_engine(kind: str, folder: Path, id_prefix: int) -> MemoryEngine:
    store = EdgeStore(folder) if kind == "edge" else QdrantStore(path=str(folder))
    return make_engine(store, new_id=fixed_ids(id_prefix))  # type: ignore[arg-type]


def answers(engine: MemoryEngine, agents: tuple[str, ...] = AGENTS) -> list[object]:
    """Everything the searches of ``agents`` show, as plain values."""
    out: list[object] = []
    for agent in agents:
        for query in QUERIES:
            result = engine.agent(agent).search(query, hidden=True)
            hits = result.hits
            out.append(
                (
                    agent,
                    query,
                    result.total,
                    [(h.note.id, round(h.score, 9), h.note.content, h.because) for h in hits],
                    [(h.id, h.reason) for h in result.hidden],
                )
            )
    return out


# Edge only: qdrant-client local mode, reopened, may order equal cosines differently
# from the process that wrote them, with or without any cache.
@pytest.mark.parametrize("kind", ["edge"])
def test_patched_cache_matches_a_fresh_read(kind: str, tmp_path: Path) -> None:
    rng = random.Random(11)
    folder = tmp_path / "store"
    engine = open_engine(kind, folder, 1)
    ids: dict[str, list[str]] = {agent: [] for agent in AGENTS}
    # Few distinct words: many notes tie on their keyword scores.
    for i in range(40):
        agent = AGENTS[i % 3]
        text = " ".join(rng.choices(WORDS, k=4)) + f" seed {i}"
        shared = agent != "sandbox" and i % 5 == 0
        ids[agent].append(engine.agent(agent).add(text, shared=shared).id)
    answers(engine, ("main",))  # fills the cache; other agents' views come after writes
    for round_number in range(4):
        for step in range(12):
            agent = rng.choice(AGENTS)
            action = rng.choice(ACTIONS)
            try:
                if action == "add":
                    text = " ".join(rng.choices(WORDS, k=3)) + f" later {rng.random():.6f}"
                    ids[agent].append(engine.agent(agent).add(text).id)
                else:
                    target = rng.choice(ids[agent])
                    if action == "update":
                        engine.agent(agent).update(target, content=f"rewritten {rng.choice(WORDS)}")
                    else:
                        getattr(engine.agent(agent), action)(target)
            except AmemError:
                pass  # refused (already shared, Mode B, ...): the store is unchanged
            if step % 4 == 3:
                engine.agent(agent).warm_up()  # what the TUI does in the background after a write
            # Searches between writes patch the same cache, one agent's view at a time
            # (only main's in the first round, so the others' views are made later
            # from the patched notes).
            answers(engine, (AGENTS[(step * round_number) % 3],))
        seen = answers(engine)
        engine.close()
        # The next engine reads everything again: the index the first one saved is
        # removed (reusing a saved index is tests/engine/search/test_saved_index.py).
        for saved in {p.parent for p in folder.rglob("index.json")}:
            shutil.rmtree(saved)
        engine = open_engine(kind, folder, 100 + round_number)
        assert answers(engine) == seen, f"round {round_number}"
    engine.close()
