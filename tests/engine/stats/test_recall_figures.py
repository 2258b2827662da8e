"""What gets recalled: each agent's most recalled notes (as it sees them) and how many
of them were never recalled, from the store's counts and from a read of every note,
on every backend. Expected figures are worked out by hand from the demo
(amem_tui/demo.py: each note's ``retrieval_count`` is its age in days modulo 7)."""

from __future__ import annotations

from pathlib import Path

from amem_tui.demo import demo_id, seed_demo
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.stats import AgentStats, StoreStats
from amem_tui.engine.store.edge import EdgeStore
from amem_tui.engine.store.ids import store_order
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.indexes import drop_index

# Visible to main: its 8 active private notes and the 4 shared ones; main-standup (21
# days: 0) was never recalled, main-deleted (60 days: 4) is soft-deleted. The shared
# freeze (6 days) and branches (20) notes lead with 6; main's knowledge (40), reviews
# (12) and trip (5) notes follow with 5.
MAIN_TOP = [
    (6, "shared-branches"),
    (6, "shared-freeze"),
    (5, "main-knowledge"),
    (5, "main-reviews"),
    (5, "main-trip"),
]
# dev: dev-selective (7 days: 0) never recalled; the shared 6s, then shared-oncall (11)
# and dev-tests-dup (4) with 4, then one of dev-tests (9) and dev-tests-dup2 (2) with 2:
# the first in the store's id order.
DEV_TOP = [
    (6, "shared-branches"),
    (6, "shared-freeze"),
    (4, "dev-tests-dup"),
    (4, "shared-oncall"),
    (2, min("dev-tests", "dev-tests-dup2", key=lambda k: store_order(demo_id(k)))),
]
# sandbox (Mode B): tools (14 days: 0) never recalled, then exp (2) and exp-dup (1).
SANDBOX_TOP = [(2, "sandbox-exp"), (1, "sandbox-exp-dup")]


def agent(stats: StoreStats, name: str) -> AgentStats:
    return next(a for a in stats.agents if a.agent == name)


def top(figures: AgentStats) -> list[tuple[int, str]]:
    return [(n.retrieval_count, n.id) for n in figures.most_recalled]


def expected(rows: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Most recalled first, ties in the store's id order."""
    found = [(count, demo_id(key)) for count, key in rows]
    return sorted(found, key=lambda row: (-row[0], store_order(row[1])))


def check_demo(stats: StoreStats) -> None:
    main, dev, sandbox = (agent(stats, name) for name in ("main", "dev", "sandbox"))
    assert (main.never_recalled, main.visible) == (1, 12)
    assert top(main) == expected(MAIN_TOP)
    assert (dev.never_recalled, dev.visible) == (1, 10)
    assert top(dev) == expected(DEV_TOP)
    assert (sandbox.never_recalled, sandbox.visible) == (1, 3)
    assert top(sandbox) == expected(SANDBOX_TOP)
    freeze = next(n for n in main.most_recalled if n.id == demo_id("shared-freeze"))
    assert freeze.agent_id == "shared" and freeze.owner == "main"
    assert freeze.content.startswith("Production deploy is frozen")
    assert freeze.last_accessed.startswith("2026-11-15")  # 5 days before the demo's epoch


def test_demo_recall_figures_by_hand_on_every_backend(store: QdrantStore) -> None:
    engine = make_engine(store)
    seed_demo(engine)
    check_demo(engine.stats())
    counted = engine.counted_stats(complete=True)
    if isinstance(store, QdrantStore) and store.embedded:
        assert counted is None  # local mode filters in Python: read every note instead
        return
    assert counted is not None
    # A server's store has no note index to name the malformed points (it holds none).
    assert counted.pending == ([] if store.embedded else ["malformed"])
    check_demo(counted)
    counted.pending = []
    assert counted.model_dump() == engine.stats().model_dump()


def test_without_an_index_on_the_count_the_recalled_notes_are_read(store: QdrantStore) -> None:
    if isinstance(store, QdrantStore) and store.embedded:
        return  # local mode keeps no indexes: its figures are read in full anyway
    engine = make_engine(store)
    seed_demo(engine)
    recall(engine, "main-standup", 5)  # a tie at main's fifth place, with more notes on it
    for name in ("amem_notes", "amem_notes_sandbox"):
        drop_index(store, name, "retrieval_count")
    # Counted without it, they are left for a complete count (the note index, or a read).
    early = engine.counted_stats()
    assert early is not None
    assert {"never_recalled", "most_recalled"} <= set(early.pending)
    assert all(not a.most_recalled and a.never_recalled == 0 for a in early.agents)
    counted = engine.counted_stats(complete=True)
    assert counted is not None
    read = engine.stats()
    counted.pending = read.pending
    assert counted.model_dump() == read.model_dump()
    assert [n.retrieval_count for n in agent(read, "main").most_recalled] == [6, 6, 5, 5, 5]
    assert agent(read, "main").never_recalled == 0


def recall(engine: MemoryEngine, key: str, times: int) -> None:
    """What openclaw-amem's search does to a note it returns, ``times`` over."""
    collection = "amem_notes_sandbox" if key.startswith("sandbox") else "amem_notes"
    point = engine.store.retrieve(collection, [demo_id(key)])[0]
    payload = dict(point.payload)
    payload["retrieval_count"] = int(payload.get("retrieval_count", 0)) + times
    payload["last_accessed"] = "2026-11-20T12:00:00.000Z"
    engine.store.set_payload(collection, point.id, payload)


def test_a_recall_moves_the_figures(store: QdrantStore) -> None:
    engine = make_engine(store)
    seed_demo(engine)
    recall(engine, "main-standup", 9)  # never recalled until now: first for main
    recall(engine, "dev-selective", 1)  # dev's private note: not in main's figures
    for stats in (engine.stats(), engine.counted_stats()):
        if stats is None:
            continue
        main, dev = agent(stats, "main"), agent(stats, "dev")
        assert main.never_recalled == 0 and dev.never_recalled == 0
        assert main.most_recalled[0].id == demo_id("main-standup")
        assert main.most_recalled[0].retrieval_count == 9
        assert main.most_recalled[0].last_accessed == "2026-11-20T12:00:00.000Z"
        assert demo_id("dev-selective") not in {n.id for n in main.most_recalled}


def test_quick_counts_leave_the_recall_figures_for_later(tmp_path: Path) -> None:
    engine = make_engine(EdgeStore(tmp_path / "s", background=False))
    seed_demo(engine)
    quick = engine.counted_stats(quick=True)
    assert quick is not None
    assert {"never_recalled", "most_recalled"} <= set(quick.pending)
    assert all(not a.most_recalled for a in quick.agents)
