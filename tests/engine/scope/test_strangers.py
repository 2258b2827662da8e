"""What a store does not know of a scope, said with the nearest name it knows: an agent
neither configured nor in the store, and a mem0 view whose ``user_id`` holds nothing."""

from __future__ import annotations

from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.mem0_stores import mem0_engine


def test_a_known_agent_is_no_stranger_and_a_typo_is_told_the_nearest() -> None:
    engine = make_engine(QdrantStore(path=":memory:"))
    assert engine.stranger(engine.scope("dev")) is None  # configured: no store read
    stranger = engine.stranger(engine.scope("devv"))
    assert stranger is not None
    assert stranger.said == (
        "agent 'devv' is neither configured nor in the store (did you mean 'dev'?); "
        "known agents: dev, main, sandbox"
    )
    assert stranger.known == ["dev", "main", "sandbox"]


def test_a_mem0_user_or_agent_is_told_in_the_plugins_terms() -> None:
    known = mem0_engine(user="alice")
    assert known.stranger(known.scope()) is None
    engine = mem0_engine(user="alicee")
    stranger = engine.stranger(engine.scope())
    assert stranger is not None
    assert stranger.said.startswith("user 'alicee' has no memories in collection 'mem0_384d'")
    assert stranger.known == ["alice", "bob"]
    engine = mem0_engine(user="alice", agent="rezearch")
    stranger = engine.stranger(engine.scope())
    assert stranger is not None
    assert "(did you mean 'research'?); alice's agents: dev, main" in stranger.said
    engine = mem0_engine(namespace="bob:agent:devv")
    stranger = engine.stranger(engine.scope())
    assert stranger is not None
    assert stranger.said.startswith("user_id 'bob:agent:devv' holds no memories")
    assert "bob:agent:dev" in stranger.known
