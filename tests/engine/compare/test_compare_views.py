"""Comparing two agents' views: the three groups, each side's access, and both searches.

Every expected group is written out by hand from the seed rules (the demo's notes in
amem_tui/demo.py, the team store in tests/support/team_store.py): private notes are
their agent's, shared notes every Mode A agent's (``readers`` adds nobody to a view:
the agents it names read the note by id only, as openclaw-amem's agent filter has
it), a Mode B agent reads its whole collection and nothing else, soft-deleted notes
are in nobody's view.
"""

from __future__ import annotations

import pytest

from amem_tui.demo import demo_id
from amem_tui.engine.compare import Comparison
from amem_tui.engine.embed import HashEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import InvalidInput
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.fixed_vectors import FixedEmbedder, put_word_ranked
from tests.support.mem0_stores import (
    ALICE_COFFEE,
    ALICE_DEV,
    ALICE_EXPLICIT_MAIN,
    ALICE_RUN,
    ALICE_STANDUP,
    BOB_DEV,
    BOB_TEA,
    TS_COLLECTION,
    build_mem0_stores,
)
from tests.support.team_store import build_team_store, team_settings
from tests.support.tui import demo_engine

# The demo's notes by hand (amem_tui/demo.py). main-deleted is soft-deleted: in no view.
MAIN_PRIVATE = {
    "main-vendor",
    "main-standup",
    "main-standup-dup",
    "main-trip",
    "main-reviews",
    "main-reviews-dup",
    "main-old",
    "main-knowledge",
}
DEV_PRIVATE = {"dev-jwt", "dev-tests", "dev-tests-dup", "dev-tests-dup2", "dev-lint"}
DEV_SELECTIVE = {"dev-selective"}  # dev's private note whose readers name main: get only
SHARED = {"shared-snake", "shared-freeze", "shared-oncall", "shared-branches"}
SANDBOX = {"sandbox-exp", "sandbox-exp-dup", "sandbox-tools"}
NOTHING: set[str] = set()

DEMO_CASES = [
    # (A, B, scope): (A only, B only, both)
    (("main", "dev", "visible"), (MAIN_PRIVATE, DEV_PRIVATE | DEV_SELECTIVE, SHARED)),
    (("main", "dev", "private"), (MAIN_PRIVATE, DEV_PRIVATE | DEV_SELECTIVE, NOTHING)),
    (("main", "dev", "shared"), (NOTHING, NOTHING, SHARED)),
    (("dev", "main", "shared"), (NOTHING, NOTHING, SHARED)),
    (("main", "sandbox", "visible"), (MAIN_PRIVATE | SHARED, SANDBOX, NOTHING)),
    (("sandbox", "dev", "private"), (SANDBOX, DEV_PRIVATE | DEV_SELECTIVE, NOTHING)),
    (("sandbox", "dev", "shared"), (NOTHING, SHARED, NOTHING)),
    (("main", "main", "visible"), (NOTHING, NOTHING, MAIN_PRIVATE | SHARED)),
]


def groups(comparison: Comparison) -> tuple[set[str], set[str], set[str]]:
    """The ids of each group, checking each group's total against its page."""
    assert comparison.groups is not None
    out = []
    for name in ("a_only", "b_only", "both"):
        group = comparison.groups[name]  # type: ignore[index]
        assert group.total == len(group.notes)
        out.append({note.id for note in group.notes})
    return out[0], out[1], out[2]


def demo_ids(keys: set[str]) -> set[str]:
    return {demo_id(key) for key in keys}


@pytest.fixture(scope="module")
def demo() -> MemoryEngine:
    return demo_engine()


@pytest.mark.parametrize(("case", "expected"), DEMO_CASES, ids=["-".join(c) for c, _ in DEMO_CASES])
def test_demo_groups_follow_the_seed_rules(
    demo: MemoryEngine,
    case: tuple[str, str, str],
    expected: tuple[set[str], set[str], set[str]],
) -> None:
    a, b, which = case
    comparison = demo.compare(a, b, which, limit=100)  # type: ignore[arg-type]
    assert groups(comparison) == tuple(demo_ids(keys) for keys in expected)
    assert (comparison.a.agent, comparison.b.agent, comparison.scope) == case


def test_each_side_says_which_rule_lets_it_in_or_keeps_it_out(demo: MemoryEngine) -> None:
    comparison = demo.compare("main", "dev", limit=100)
    assert comparison.groups is not None
    notes = {n.id: n for group in comparison.groups.values() for n in group.notes}
    selective = notes[demo_id("dev-selective")]
    assert (selective.a.because, selective.b.because) == (None, "private")
    assert (selective.a.kind, selective.a.readable) == ("get_only", True)
    assert "getNote returns it to main" in selective.a.reason
    assert selective.readers == ["dev", "main"] and selective.owner == "dev"
    trip = notes[demo_id("main-trip")]
    assert (trip.a.listed, trip.a.because) == (True, "private")
    assert (trip.b.listed, trip.b.kind, trip.b.readable) == (False, "private", False)
    assert "private to agent 'main'" in trip.b.reason
    freeze = notes[demo_id("shared-freeze")]
    assert (freeze.a.because, freeze.b.because) == ("shared", "shared")
    assert demo_id("main-deleted") not in notes

    across = demo.compare("main", "sandbox", limit=100)
    assert across.groups is not None
    notes = {n.id: n for group in across.groups.values() for n in group.notes}
    experiment = notes[demo_id("sandbox-exp")]
    assert (experiment.a.kind, experiment.b.because) == ("mode_b", "collection")
    assert experiment.collection == "amem_notes_sandbox"
    vendor = notes[demo_id("main-vendor")]
    assert (vendor.a.because, vendor.b.kind) == ("private", "outside")
    assert (across.a.mode, across.b.mode) == ("A", "B")


def test_a_page_of_each_group_with_the_full_counts(demo: MemoryEngine) -> None:
    comparison = demo.compare("main", "dev", "visible", limit=2)
    assert comparison.groups is not None
    totals = {name: (g.total, len(g.notes)) for name, g in comparison.groups.items()}
    assert totals == {"a_only": (8, 2), "b_only": (6, 2), "both": (4, 2)}


def test_progress_counts_the_points_read(demo: MemoryEngine) -> None:
    seen: list[tuple[int, int]] = []
    demo.compare("main", "sandbox", progress=lambda done, total: seen.append((done, total)))
    # main's view (12 notes) and sandbox's collection (3 notes), each read once.
    assert seen[-1] == (15, 15)


def test_bad_requests_are_refused(demo: MemoryEngine) -> None:
    with pytest.raises(InvalidInput):
        demo.compare("main", "dev", limit=0)
    with pytest.raises(InvalidInput):
        demo.compare("main", "dev", "everything")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        demo.compare("main", "shared")


# ------------------------------------------------------------------- search
def test_a_query_searches_as_both_and_marks_what_only_one_gets(demo: MemoryEngine) -> None:
    comparison = demo.compare("main", "dev", query="deploy freeze", limit=5)
    assert comparison.groups is None and comparison.search is not None
    search = comparison.search
    # The same ranking as each agent's own search.
    for hits, agent in ((search.a_hits, "main"), (search.b_hits, "dev")):
        own = demo.agent(agent).search("deploy freeze", limit=5)
        assert [h.note.id for h in hits] == [h.note.id for h in own.hits]
        assert [h.rank for h in hits] == list(range(1, len(hits) + 1))
    b_ranks = {h.note.id: h.rank for h in search.b_hits}
    for hit in search.a_hits:
        assert hit.other_rank == b_ranks.get(hit.note.id)
    # The freeze is shared: both recall it first. main's own notes dev can never get.
    assert search.a_hits[0].note.id == demo_id("shared-freeze")
    assert (search.a_hits[0].other_rank, search.b_hits[0].other_rank) == (1, 1)
    main_only = [h for h in search.a_hits if h.note.agent_id == "main"]
    assert main_only
    for hit in main_only:
        assert hit.other_rank is None and hit.note.b.kind == "private"
        assert hit.other_reason.startswith("dev cannot see it: private to agent 'main'")


def test_a_query_without_a_limit_shows_what_each_agents_own_search_returns(
    store: QdrantStore,
) -> None:
    """Each side is that agent's memory_search: its 5, ranked for 5. A search for more
    would put the query's word first, which neither agent gets by default."""
    engine = make_engine(store, embedder=FixedEmbedder())
    put_word_ranked(engine, "dev")
    put_word_ranked(engine, "ops", first_id=400)
    comparison = engine.compare("dev", "ops", query="zanzibar")
    assert comparison.limit is None and comparison.search is not None
    search = comparison.search
    assert (search.a_limit, search.b_limit, search.top()) == (5, 5, "5")
    for hits, agent in ((search.a_hits, "dev"), (search.b_hits, "ops")):
        own = engine.agent(agent).search("zanzibar")
        assert [h.note.id for h in hits] == [h.note.id for h in own.hits]
        assert len(hits) == 5
    wider = engine.compare("dev", "ops", query="zanzibar", limit=40).search
    assert wider is not None and wider.top() == "40"
    assert wider.a_hits[0].note.content.startswith("zanzibar")
    assert not search.a_hits[0].note.content.startswith("zanzibar")


def test_a_query_keeps_the_hits_of_the_compared_scope(demo: MemoryEngine) -> None:
    comparison = demo.compare("main", "dev", "shared", query="deploy freeze", limit=10)
    assert comparison.search is not None
    for hit in [*comparison.search.a_hits, *comparison.search.b_hits]:
        mine = hit.note.a if hit in comparison.search.a_hits else hit.note.b
        assert mine.because == "shared"


# --------------------------------------------------------- a built team store
TEAM_CASES = [
    (
        ("dev", "ops", "visible"),
        ({"d1", "d_star", "d_sel"}, {"o1", "o_old"}, {"m_shared", "o_shared"}),
    ),
    (("main", "dev", "private"), ({"m1"}, {"d1", "d_sel", "d_star"}, set())),
    (("ops", "main", "shared"), (set(), set(), {"m_shared", "o_shared"})),
    (("main", "lab", "visible"), ({"m1", "m_shared", "o_shared"}, {"l1"}, set())),
    (("sandbox", "lab", "visible"), ({"s1"}, {"l1"}, set())),
    (("sandbox", "lab", "private"), ({"s1"}, {"l1"}, set())),
    (("sandbox", "lab", "shared"), (set(), set(), set())),
]


@pytest.mark.parametrize(("case", "expected"), TEAM_CASES, ids=["-".join(c) for c, _ in TEAM_CASES])
def test_team_groups_on_every_backend(
    store: QdrantStore,
    case: tuple[str, str, str],
    expected: tuple[set[str], set[str], set[str]],
) -> None:
    engine = make_engine(store, settings=team_settings())
    ids = build_team_store(engine)
    a, b, which = case
    comparison = engine.compare(a, b, which, limit=100)  # type: ignore[arg-type]
    assert groups(comparison) == tuple({ids[key] for key in keys} for keys in expected)


def test_a_note_anyone_may_read_by_id_is_still_in_nobody_elses_view(store: QdrantStore) -> None:
    engine = make_engine(store, settings=team_settings())
    ids = build_team_store(engine)
    comparison = engine.compare("dev", "ops", limit=100)
    assert comparison.groups is not None
    star = next(n for n in comparison.groups["a_only"].notes if n.id == ids["d_star"])
    assert (star.b.listed, star.b.kind, star.b.readable) == (False, "get_only", True)
    assert "readers hold '*'" in star.b.reason and "ops's memory_search" in star.b.reason


# --------------------------------------------------------------------- mem0
@pytest.fixture
def mem0_engine() -> MemoryEngine:
    store = QdrantStore(path=":memory:")
    embedder = HashEmbedder()
    build_mem0_stores(store.client, embedder)
    from amem_tui.config import load_settings

    settings = load_settings({"collection": TS_COLLECTION, "user": "alice"}, {})
    return make_engine(store, settings=settings, embedder=embedder)


def test_mem0_views_compare_per_user_and_namespace(mem0_engine: MemoryEngine) -> None:
    alice_main = {ALICE_COFFEE, ALICE_STANDUP, ALICE_RUN}
    # Agents of the chosen user (alice), then any user's namespace by its user_id.
    assert groups(mem0_engine.compare("main", "dev")) == (alice_main, {ALICE_DEV}, set())
    across = mem0_engine.compare("main", "bob")
    assert groups(across) == (alice_main, {BOB_TEA}, set())
    assert (across.a.label, across.b.label) == ("alice/main", "bob/main")
    assert across.groups is not None
    tea = across.groups["b_only"].notes[0]
    assert (tea.a.kind, tea.b.because) == ("user", "private")
    assert "belongs to user 'bob'" in tea.a.reason
    explicit = mem0_engine.compare("alice:agent:main", "main")
    assert groups(explicit) == ({ALICE_EXPLICIT_MAIN}, alice_main, set())
    assert explicit.a.label == "alice/main (agentId)"
    assert groups(mem0_engine.compare("bob", "bob:agent:dev")) == ({BOB_TEA}, {BOB_DEV}, set())


def test_mem0_query_marks_the_other_users_memory(mem0_engine: MemoryEngine) -> None:
    comparison = mem0_engine.compare("main", "bob", query="coffee", limit=3)
    assert comparison.search is not None
    assert {h.note.id for h in comparison.search.a_hits} <= {ALICE_COFFEE, ALICE_STANDUP, ALICE_RUN}
    assert [h.note.id for h in comparison.search.b_hits] == [BOB_TEA]
    for hit in comparison.search.a_hits:
        assert hit.other_rank is None
        assert hit.other_reason.startswith("bob/main cannot see it: belongs to user 'alice'")
