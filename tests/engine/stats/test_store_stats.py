"""The store at a glance: per-agent figures, notes per week, the shared scope by owner,
consolidation savings, progress. Expected figures are worked out by hand from the seeds
(amem_tui/demo.py, tests/support/team_store.py, tests/support/mem0_stores.py)."""

from __future__ import annotations

from typing import Any

import pytest

from amem_tui.config import load_settings
from amem_tui.engine.embed import HashEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.stats import AgentStats, StoreStats
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.mem0_stores import TS_COLLECTION, build_mem0_stores
from tests.support.team_store import LAB, SANDBOX, build_team_store, team_settings
from tests.support.tui import demo_engine

FIGURES = (
    "private",
    "shared_by",
    "visible",
    "get_only",
    "soft_deleted",
    "selectively_shared",
    "legacy",
    "malformed",
)


def figures(stats: StoreStats) -> dict[str, dict[str, int]]:
    return {a.label: {key: getattr(a, key) for key in FIGURES} for a in stats.agents}


def agent(stats: StoreStats, label: str) -> AgentStats:
    return next(a for a in stats.agents if a.label == label)


def row(*values: int) -> dict[str, int]:
    return dict(zip(FIGURES, values, strict=True))


# The demo (DEMO_EPOCH 2026-11-20, a Friday): each note's "days ago" gives its week's
# Monday. main wrote 9 private notes (one soft-deleted, one legacy) and 2 shared ones;
# dev 6 private (one with readers naming main) and 2 shared; sandbox 3 in Mode B.
DEMO_FIGURES = {
    #          private shared_by visible get_only deleted selective legacy malformed
    # (dev's note naming main in its readers is main's to read by id, not in its view)
    "main": row(8, 2, 12, 1, 1, 0, 1, 0),
    "dev": row(6, 2, 10, 0, 0, 1, 0, 0),
    "sandbox": row(3, 0, 3, 0, 0, 0, 0, 0),
}
DEMO_WEEKS = {
    "main": {
        "2025-10-13": 1,  # main-old, 400 days
        "2026-09-21": 1,  # main-deleted, 60 days (a Monday)
        "2026-09-28": 1,  # shared-snake, 50
        "2026-10-05": 1,  # main-knowledge, 40
        "2026-10-19": 1,  # main-vendor, 30
        "2026-10-26": 1,  # main-standup, 21
        "2026-11-02": 1,  # main-reviews, 12
        "2026-11-09": 2,  # main-trip 5, shared-freeze 6
        "2026-11-16": 2,  # main-standup-dup 3, main-reviews-dup 2
    },
    "dev": {
        "2026-10-26": 1,  # shared-branches, 20
        "2026-11-02": 1,  # dev-lint, 15
        "2026-11-09": 3,  # dev-tests 9, dev-selective 7, shared-oncall 11
        "2026-11-16": 3,  # dev-jwt 1, dev-tests-dup 4, dev-tests-dup2 2
    },
    "sandbox": {"2026-11-02": 1, "2026-11-16": 2},  # tools 14; exp 2, exp-dup 1
}


@pytest.fixture
def demo() -> MemoryEngine:
    return demo_engine()


def test_demo_figures_by_hand(demo: MemoryEngine) -> None:
    stats = demo.stats()
    assert figures(stats) == DEMO_FIGURES
    assert {a.label: a.weeks for a in stats.agents} == DEMO_WEEKS
    assert [(a.mode, a.collection) for a in stats.agents] == [
        ("A", "amem_notes"),
        ("A", "amem_notes"),
        ("B", "amem_notes_sandbox"),
    ]
    assert stats.shared_owners == {"dev": 2, "main": 2}
    assert stats.shared_share == {"dev": 0.5, "main": 0.5}
    assert [(c.name, c.points, c.malformed) for c in stats.collections] == [
        ("amem_notes", 19, 0),
        ("amem_notes_sandbox", 3, 0),
    ]
    assert stats.weeks[0] == "2025-10-13" and stats.weeks[-1] == "2026-11-16"
    # The same counts the app shows in its header.
    for scope in demo.agents():
        assert agent(stats, scope.agent).visible == demo.agent(scope).count("visible")
        assert agent(stats, scope.agent).private == demo.agent(scope).count("private")


def test_consolidation_runs_merges_and_savings(demo: MemoryEngine) -> None:
    run = demo.agent("dev").consolidate()
    merged = sum(len(m.dropped) for m in run.merges)
    assert merged > 0
    stats = demo.stats()
    dev = agent(stats, "dev")
    assert (dev.runs, dev.merges, dev.merged_away) == (1, len(run.merges), merged)
    assert dev.private == 6 - merged and dev.soft_deleted == merged
    assert (agent(stats, "main").runs, agent(stats, "main").merged_away) == (0, 0)

    demo.agent("dev").undo(run.id)
    dev = agent(demo.stats(), "dev")
    assert (dev.runs, dev.undo_runs, dev.merges, dev.undone_merges) == (1, 1, 0, len(run.merges))
    assert dev.private == 6


def test_progress_reports_the_points_read(demo: MemoryEngine) -> None:
    seen: list[tuple[int, int]] = []
    demo.stats(progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (22, 22)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_a_failing_progress_stops_the_read(demo: MemoryEngine) -> None:
    class Stop(Exception):
        pass

    def stop(done: int, total: int) -> None:
        raise Stop

    with pytest.raises(Stop):
        demo.stats(progress=stop)


# --------------------------------------------------------- a built team store
TEAM_FIGURES = {
    #          private shared_by visible with_it deleted selective legacy malformed
    "main": row(1, 1, 3, 1, 1, 0, 0, 0),  # m1; m_shared; m1 m_shared o_shared; d_star; m_gone
    "dev": row(3, 0, 5, 0, 0, 1, 0, 0),  # d1 d_sel d_star; + both shared; d_sel
    "ops": row(2, 1, 4, 2, 0, 0, 1, 0),  # o1 o_old; o_shared; + m_shared; d_sel d_star; o_old
    "sandbox": row(1, 0, 1, 0, 0, 0, 0, 0),  # Mode B: its own collection
    "lab": row(1, 0, 1, 0, 0, 0, 0, 0),
}
TEAM_WEEKS: dict[str, dict[str, int]] = {
    "main": {"2026-11-16": 3},  # written at the fixed clock, 2026-11-20
    "dev": {"2026-11-02": 1, "2026-11-16": 2},  # d_sel on 2026-11-03
    "ops": {"2026-09-28": 1, "2026-11-16": 2},  # o_old on 2026-10-01
    "sandbox": {"2026-11-16": 1},
    "lab": {"2026-11-16": 1},
}


def test_team_figures_by_hand_on_every_backend(store: QdrantStore) -> None:
    engine = make_engine(store, settings=team_settings())
    build_team_store(engine)
    stats = engine.stats()
    assert figures(stats) == TEAM_FIGURES
    assert {a.label: a.weeks for a in stats.agents} == TEAM_WEEKS
    assert stats.shared_owners == {"main": 1, "ops": 1}
    collections = {c.name: (c.points, c.malformed, c.unattributed) for c in stats.collections}
    # The point with no agent_id is malformed and names nobody.
    assert collections == {"amem_notes": (10, 1, 1), LAB: (1, 0, 0), SANDBOX: (1, 0, 0)}


# --------------------------------------------------------------------- mem0
def test_mem0_figures_per_user_and_agent() -> None:
    store = QdrantStore(path=":memory:")
    embedder = HashEmbedder()
    build_mem0_stores(store.client, embedder)
    settings = load_settings({"collection": TS_COLLECTION, "user": "alice"}, {})
    engine = make_engine(store, settings=settings, embedder=embedder)
    stats = engine.stats()
    # One namespace per user_id (tests/support/mem0_stores.NAMESPACES); no shared scope.
    by_namespace: dict[str | None, dict[str, Any]] = {
        a.namespace: {"private": a.private, "visible": a.visible, "written": sum(a.weeks.values())}
        for a in stats.agents
    }
    one = {"private": 1, "visible": 1, "written": 1}
    assert by_namespace == {
        "alice": {"private": 3, "visible": 3, "written": 3},
        "alice:agent:dev": one,
        "alice:agent:research": one,
        "alice:agent:subagent-helper": one,
        "alice:agent:main": one,
        "bob": one,
        "bob:agent:dev": one,
    }
    assert stats.shared_owners == {} and stats.shared_total == 0
    # mem0 keeps no recall counts: no recall figures, rather than "never recalled".
    assert all(a.never_recalled is None and not a.most_recalled for a in stats.agents)
    assert {a.label for a in stats.agents} >= {"alice/main", "alice/main (agentId)", "bob/main"}
