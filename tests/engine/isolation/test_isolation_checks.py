"""Running memory checks: each searches as its agent searches (mem0 views included),
the failing checks are named, the exit status is 1 until the store is fixed, then 0."""

from __future__ import annotations

import pytest

from amem_tui.engine import MemoryEngine
from amem_tui.engine.isolation import parse_checks
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.fixed_vectors import FixedEmbedder, put_word_ranked
from tests.support.leak_store import C_COPY, P_LINK, plant_leaks
from tests.support.mem0_stores import ALICE_COFFEE, BOB_TEA, mem0_engine

CHECKS = f"""\
[[check]]
name = "dev never recalls main's VPN key rotation"
agent = "dev"
query = "staging VPN pre-shared key rotation"
forbid = ["pre-shared key rotation happens"]

[[check]]
name = "dev recalls the CI credentials note"
agent = "dev"
query = "CI deploy credentials staging bucket"
expect = ["CI deploy credentials"]

[[check]]
name = "main's offsite booking stays hidden from dev"
agent = "dev"
query = "offsite hotel booking reference Lisbon"
forbid = ["{P_LINK}"]
hidden_because = "private"

[[check]]
name = "dev's own note is at the top"
agent = "dev"
query = "flaky integration test payments suite"
top = 1
expect = ["flaky integration test"]
"""


@pytest.fixture
def planted(engine: MemoryEngine) -> MemoryEngine:
    plant_leaks(engine)
    return engine


def test_failing_checks_are_named_until_the_store_is_fixed(planted: MemoryEngine) -> None:
    file = parse_checks(CHECKS, "ci.toml")
    run = planted.check(file)
    assert [v.passed for v in run.verdicts] == [False, True, True, True]
    assert run.exit_code == 1
    (failing,) = run.failing
    assert failing.name == "dev never recalls main's VPN key rotation"
    assert failing.failures[0].startswith("forbid 'pre-shared key rotation happens': found at rank")
    assert C_COPY in {hit.id for hit in failing.hits}
    hidden = next(v for v in run.verdicts if v.number == 3).hidden
    assert any(h.id == P_LINK and h.kind == "private" for h in hidden)
    # The fix: main takes its summary back; now every check holds.
    planted.agent("main").unpublish(C_COPY)
    fixed = planted.check(file)
    assert fixed.passed and fixed.exit_code == 0


def test_each_rule_of_a_check_can_fail(planted: MemoryEngine) -> None:
    text = f"""\
[[check]]
agent = "dev"
query = "flaky integration test payments suite"
expect = ["no such words anywhere"]

[[check]]
agent = "main"
query = "offsite hotel booking reference Lisbon"
hidden_because = {{ "{P_LINK}" = "private" }}

[[check]]
agent = "dev"
query = "offsite hotel booking reference Lisbon"
hidden_because = {{ "hotel booking reference" = "get_only" }}
"""
    run = planted.check(parse_checks(text, "ci.toml"))
    assert [v.passed for v in run.verdicts] == [False, False, False]
    assert run.verdicts[0].failures == ["expect 'no such words anywhere': not among the hits"]
    assert "not hidden, the agent finds it" in run.verdicts[1].failures[0]
    assert "hidden for another reason (private:" in run.verdicts[2].failures[0]


def test_a_mem0_check_searches_as_the_plugin_reads_a_users_namespace() -> None:
    engine = mem0_engine()
    text = f"""\
[[check]]
agent = "main"
user = "alice"
query = "coffee every morning"
expect = ["{ALICE_COFFEE}"]
forbid = ["green tea"]
hidden_because = {{ "{BOB_TEA}" = "user" }}
"""
    (verdict,) = engine.check(parse_checks(text, "mem0.toml")).verdicts
    assert verdict.passed, verdict.failures
    assert [h.kind for h in verdict.hidden if h.id == BOB_TEA] == ["user"]


def test_a_check_ranks_as_the_agents_own_search(store: QdrantStore) -> None:
    """A check gets what the agent's memory_search returns: its 5, ranked for 5 (or as
    many as ``top`` asks for). A search for 10 ranks the query's word first here, so it
    would wrongly say the agent recalls a note it does not."""
    engine = make_engine(store, embedder=FixedEmbedder())
    put_word_ranked(engine, "dev")
    text = """\
[[check]]
agent = "dev"
query = "zanzibar"
expect = ["zanzibar 31"]

[[check]]
agent = "dev"
query = "zanzibar"
top = 10
expect = ["zanzibar 31"]
"""
    default, ten = engine.check(parse_checks(text, "ci.toml")).verdicts
    assert default.failures == ["expect 'zanzibar 31': not among the hits"]
    assert len(default.hits) == 5
    assert ten.passed and len(ten.hits) == 10
