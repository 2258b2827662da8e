"""The views a session key reads (``MemoryEngine.session_views``), as the plugin reads them."""

from __future__ import annotations

import pytest

from amem_tui.engine.errors import InvalidInput
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.mem0_stores import NAMESPACES, SESSION, SUBAGENT_SESSION, mem0_engine


def listed(engine: object, scope: object) -> set[str]:
    return {n.id for n in engine.agent(scope).list_notes(limit=100).notes}  # type: ignore[attr-defined]


def test_a_subagent_key_has_a_search_view_then_an_auto_recall_view() -> None:
    engine = mem0_engine(user="alice")
    search, recall = engine.session_views(SUBAGENT_SESSION)
    assert (search.agent, search.view, search.namespace) == (
        "subagent-helper",
        "search",
        "alice:agent:subagent-helper",
    )
    assert (recall.agent, recall.view, recall.namespace) == ("subagent-helper", "recall", "alice")
    assert listed(engine, search) == NAMESPACES["alice:agent:subagent-helper"]
    assert listed(engine, recall) == NAMESPACES["alice"]


def test_other_keys_search_their_agent_and_recall_it_and_the_current_user_is_kept() -> None:
    engine = mem0_engine()  # two users, none named in the settings
    with pytest.raises(InvalidInput, match="several users"):
        engine.session_views(SESSION)
    bob = next(s for s in engine.agents() if s.user == "bob" and s.agent == "main")
    search, recall = engine.session_views("agent:dev:42", bob)
    # Not a subagent: auto-recall reads the same user_id as memory_search.
    for view, kind in ((search, "search"), (recall, "recall")):
        assert (view.user, view.agent, view.namespace, view.view) == (
            "bob",
            "dev",
            "bob:agent:dev",
            kind,
        )


def test_an_openclaw_amem_key_names_its_agent() -> None:
    engine = make_engine(QdrantStore(path=":memory:"))
    (view,) = engine.session_views("agent:dev:1234")
    assert (view.agent, view.mode) == ("dev", "A")
    with pytest.raises(InvalidInput, match="session key"):
        engine.session_views("dev")
