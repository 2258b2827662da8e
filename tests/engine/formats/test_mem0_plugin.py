"""mem0 stores read exactly as the OpenClaw mem0 plugin reads them: users, agents,
subagent sessions, the ``:agent:main`` namespace, models and fields.

The expected views are worked out by hand from the plugin's rules (see
``tests/support/mem0_stores.py``); the stores are built with qdrant-client in both
SDKs' payload shapes, never with our own writer.
"""

from __future__ import annotations

import getpass
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from amem_tui.config import load_settings
from amem_tui.engine.embed import FastEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import InvalidInput, NotFound, ReadOnlyStore
from amem_tui.engine.formats import mem0
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.mem0_stores import (
    ALICE_COFFEE,
    ALICE_EXPLICIT_MAIN,
    ALICE_RUN,
    ALICE_STANDUP,
    ALICE_SUBAGENT,
    BOB_TEA,
    DELETED,
    MIGRATIONS,
    NAMESPACES,
    PY_COLLECTION,
    SESSION,
    SUBAGENT_SESSION,
    TS_COLLECTION,
    build_mem0_stores,
    openclaw_json,
)

pytestmark = pytest.mark.slow  # the stores hold real-model vectors


# ------------------------------------------------------------ the plugin's rules
@pytest.mark.parametrize(
    ("session_key", "agent", "subagent"),
    [
        (None, None, False),
        ("", None, False),
        ("agent:main:5f2c", None, False),
        ("agent:dev:5f2c", "dev", False),
        ("agent:research:5f2c:extra", "research", False),
        ("agent:main:5f2c:subagent:helper", "subagent-helper", True),
        ("agent:dev:5f2c:subagent:lint", "subagent-lint", True),
        ("cron:nightly", None, False),
    ],
)
def test_session_keys_pick_agents_as_the_plugin_does(
    session_key: str | None, agent: str | None, subagent: bool
) -> None:
    assert mem0.session_agent(session_key) == agent
    assert mem0.is_subagent_session(session_key) is subagent


@pytest.mark.parametrize(
    ("user", "agent", "session", "tool"),
    [
        ("alice", "main", "alice", "alice:agent:main"),
        ("alice", "dev", "alice:agent:dev", "alice:agent:dev"),
        ("bob", "subagent-helper", "bob:agent:subagent-helper", "bob:agent:subagent-helper"),
    ],
)
def test_namespaces_as_the_plugin_builds_them(
    user: str, agent: str, session: str, tool: str
) -> None:
    assert mem0.namespace(user, agent) == session
    assert mem0.tool_namespace(user, agent) == tool
    parsed = mem0.parse_namespace(session)
    assert (parsed.user, parsed.agent, parsed.explicit) == (user, agent, False)
    explicit = mem0.parse_namespace(mem0.tool_namespace(user, "main"))
    assert (explicit.user, explicit.agent, explicit.explicit) == (user, "main", True)


# -------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def mem0_folder(tmp_path_factory: pytest.TempPathFactory, fastembed_embedder: FastEmbedder) -> Path:
    """A qdrant-client folder holding both shapes, built once for the module."""
    folder = tmp_path_factory.mktemp("mem0-store")
    store = QdrantStore(path=str(folder))
    build_mem0_stores(store.client, fastembed_embedder)
    store.close()
    return folder


@pytest.fixture
def mem0_store(mem0_folder: Path, tmp_path: Path) -> Iterator[QdrantStore]:
    """A private copy of the built store (each test may look at it as it likes)."""
    import shutil

    copy = tmp_path / "store"
    shutil.copytree(mem0_folder, copy)
    store = QdrantStore(path=str(copy))
    yield store
    store.close()


@pytest.fixture(params=[TS_COLLECTION, PY_COLLECTION])
def shape(request: pytest.FixtureRequest) -> str:
    """The TypeScript-shaped and the Python-shaped collection."""
    return str(request.param)


def engine_with(
    store: QdrantStore,
    embedder: FastEmbedder,
    tmp_path: Path,
    config: dict[str, Any] | None = None,
    env: dict[str, str] | None = None,
    **flags: Any,
) -> MemoryEngine:
    """An engine whose settings come the way a user's do: openclaw.json, env, flags."""
    if config is not None:
        path = tmp_path / "openclaw.json"
        path.write_text(json.dumps(config), encoding="utf-8")
        flags["config_file"] = path
    settings = load_settings(flags, env or {})
    return make_engine(store, settings=settings, embedder=embedder)


def listed(engine: MemoryEngine, agent: str | None = None) -> set[str]:
    scope = engine.scope(agent)
    return {n.id for n in engine.agent(scope).list_notes(limit=100).notes}


# ------------------------------------------------------------------ the views
@pytest.mark.parametrize(
    ("user", "agent", "namespace"),
    [
        ("alice", "main", "alice"),
        ("alice", "dev", "alice:agent:dev"),
        ("alice", "research", "alice:agent:research"),
        ("bob", "main", "bob"),
        ("bob", "dev", "bob:agent:dev"),
    ],
)
def test_each_view_reads_exactly_its_users_namespace(
    mem0_store: QdrantStore,
    fastembed_embedder: FastEmbedder,
    tmp_path: Path,
    shape: str,
    user: str,
    agent: str,
    namespace: str,
) -> None:
    engine = engine_with(
        mem0_store, fastembed_embedder, tmp_path, collection=shape, user=user, agent=agent
    )
    scope = engine.scope()
    assert (scope.user, scope.agent, scope.namespace) == (user, agent, namespace)
    assert scope.is_mem0_view
    assert listed(engine) == NAMESPACES[namespace]
    assert engine.agent(scope).count() == len(NAMESPACES[namespace])
    assert (
        engine.agent(scope).count("shared") == 0
        and not engine.agent(scope).list_notes("shared").notes
    )
    others = set().union(*(ids for ns, ids in NAMESPACES.items() if ns != namespace))
    for memory in sorted(others):
        with pytest.raises(NotFound):
            engine.agent(scope).get(memory)
    assert all(engine.agent(scope).get(m).id == m for m in NAMESPACES[namespace])
    assert DELETED not in listed(engine)  # mem0 deletes for good: nothing to show


def test_users_are_never_merged(
    mem0_store: QdrantStore, fastembed_embedder: FastEmbedder, tmp_path: Path
) -> None:
    unnamed = engine_with(mem0_store, fastembed_embedder, tmp_path, collection=TS_COLLECTION)
    with pytest.raises(InvalidInput, match=r"several users \(alice, bob\).*--user"):
        unnamed.scope("main")
    # The plugin's entry names the user; AMEM_USER and --user name another.
    from_config = engine_with(
        mem0_store, fastembed_embedder, tmp_path, openclaw_json("bob"), collection=TS_COLLECTION
    )
    assert listed(from_config, "main") == NAMESPACES["bob"]
    from_env = engine_with(
        mem0_store,
        fastembed_embedder,
        tmp_path,
        openclaw_json("bob"),
        {"AMEM_USER": "alice"},
        collection=TS_COLLECTION,
    )
    assert listed(from_env, "main") == NAMESPACES["alice"]
    flag = engine_with(
        mem0_store,
        fastembed_embedder,
        tmp_path,
        openclaw_json("bob"),
        {"AMEM_USER": "bob"},
        collection=TS_COLLECTION,
        user="alice",
    )
    assert listed(flag, "main") == NAMESPACES["alice"]
    # An entry without userId: the plugin's own fallback (the account name, or default).
    no_user = engine_with(
        mem0_store, fastembed_embedder, tmp_path, openclaw_json(None), collection=TS_COLLECTION
    )
    assert no_user.scope("main").user == getpass.getuser()
    assert listed(no_user, "main") == set()


def test_every_user_and_agent_pair_is_listed_with_the_explicit_main_apart(
    mem0_store: QdrantStore, fastembed_embedder: FastEmbedder, tmp_path: Path, shape: str
) -> None:
    engine = engine_with(mem0_store, fastembed_embedder, tmp_path, collection=shape, user="alice")
    pairs = [(s.user, s.agent, s.namespace, s.view) for s in engine.agents()]
    assert pairs == [
        ("alice", "main", "alice", "search"),
        ("alice", "dev", "alice:agent:dev", "search"),
        ("alice", "main", "alice:agent:main", "agentId"),
        ("alice", "research", "alice:agent:research", "search"),
        ("alice", "subagent-helper", "alice:agent:subagent-helper", "search"),
        ("bob", "main", "bob", "search"),
        ("bob", "dev", "bob:agent:dev", "search"),
    ]
    # main's sessions never recall the explicit agentId "main" namespace ...
    assert ALICE_EXPLICIT_MAIN not in listed(engine, "main")
    # ... which is read on its own, and only there.
    explicit = engine_with(
        mem0_store,
        fastembed_embedder,
        tmp_path,
        collection=shape,
        namespace="alice:agent:main",
    )
    scope = explicit.scope()
    assert (scope.user, scope.agent, scope.view) == ("alice", "main", "agentId")
    assert listed(explicit) == {ALICE_EXPLICIT_MAIN}


def test_a_subagent_session_searches_its_namespace_and_recalls_the_users(
    mem0_store: QdrantStore, fastembed_embedder: FastEmbedder, tmp_path: Path, shape: str
) -> None:
    search_view = engine_with(
        mem0_store,
        fastembed_embedder,
        tmp_path,
        collection=shape,
        user="alice",
        session_key=SUBAGENT_SESSION,
    )
    scope = search_view.scope()
    assert (scope.agent, scope.namespace, scope.view) == (
        "subagent-helper",
        "alice:agent:subagent-helper",
        "search",
    )
    assert listed(search_view) == {ALICE_SUBAGENT}
    result = search_view.agent(session_key=SUBAGENT_SESSION).search("release checklist")
    assert [h.note.id for h in result.hits] == [ALICE_SUBAGENT]
    recall_view = engine_with(
        mem0_store,
        fastembed_embedder,
        tmp_path,
        collection=shape,
        user="alice",
        session_key=SUBAGENT_SESSION,
        mem0_view="recall",
    )
    scope = recall_view.scope()
    assert (scope.agent, scope.namespace, scope.view) == ("subagent-helper", "alice", "recall")
    assert listed(recall_view) == NAMESPACES["alice"]


def test_fields_are_read_faithfully(
    mem0_store: QdrantStore, fastembed_embedder: FastEmbedder, tmp_path: Path
) -> None:
    ts = engine_with(
        mem0_store, fastembed_embedder, tmp_path, collection=TS_COLLECTION, user="alice"
    )
    notes = {n.id: n for n in ts.agent("main").list_notes().notes}
    coffee, standup, run = notes[ALICE_COFFEE], notes[ALICE_STANDUP], notes[ALICE_RUN]
    assert coffee.timestamp == "2026-02-01T08:00:00.000Z"
    assert coffee.last_accessed == ""  # mem0 keeps no access time
    assert "updated_at" not in (coffee.model_extra or {})
    assert standup.model_extra["updated_at"] == "2026-02-03T09:15:00.000Z"
    assert coffee.model_extra["mem0_metadata"] == {
        "source": "OPENCLAW",
        "category": "preference",
        "importance": 0.8,
    }
    assert run.model_extra["run_id"] == SESSION
    assert run.model_extra["user_id"] == "alice"
    py = engine_with(
        mem0_store, fastembed_embedder, tmp_path, collection=PY_COLLECTION, user="alice"
    )
    notes = {n.id: n for n in py.agent("main").list_notes().notes}
    assert notes[ALICE_STANDUP].model_extra["updated_at"] == "2026-02-03T09:15:00.000000-08:00"
    assert notes[ALICE_COFFEE].model_extra["role"] == "user"
    assert notes[ALICE_COFFEE].model_extra["actor_id"] == "alice"
    assert notes[ALICE_RUN].model_extra["run_id"] == SESSION


def test_hidden_matches_name_the_other_user(
    mem0_store: QdrantStore, fastembed_embedder: FastEmbedder, tmp_path: Path, shape: str
) -> None:
    engine = engine_with(mem0_store, fastembed_embedder, tmp_path, collection=shape, user="alice")
    result = engine.agent("main").search("green tea", hidden=True)
    assert BOB_TEA not in {h.note.id for h in result.hits}
    hidden = {h.id: h for h in result.hidden}
    assert hidden[BOB_TEA].kind == "user"
    assert hidden[BOB_TEA].reason == "belongs to user 'bob' (user_id 'bob')"
    matches, _ = engine.agent("main").hidden_matches("travel budget")
    explicit = next(h for h in matches if h.id == ALICE_EXPLICIT_MAIN)
    assert "explicit agentId 'main'" in explicit.reason


# --------------------------------------------------------------------- models
def test_the_plugin_entrys_embedder_names_the_model(
    mem0_store: QdrantStore, fastembed_embedder: FastEmbedder, tmp_path: Path, shape: str
) -> None:
    engine = engine_with(
        mem0_store, fastembed_embedder, tmp_path, openclaw_json("alice"), collection=shape
    )
    status = engine.status()
    assert status.searchable, status.model_reason
    assert status.model_source == "mem0 plugin"
    result = engine.agent("main").search("caffeine beverage")
    assert result.search_mode == "plugin" and result.notice is None
    assert result.hits[0].note.id == ALICE_COFFEE


def test_without_a_named_model_search_falls_back_to_keywords_and_says_what_to_set(
    mem0_store: QdrantStore, fastembed_embedder: FastEmbedder, tmp_path: Path
) -> None:
    engine = engine_with(
        mem0_store,
        fastembed_embedder,
        tmp_path,
        openclaw_json("alice", model=None),
        collection=TS_COLLECTION,
    )
    result = engine.agent("main").search("caffeine beverage")
    assert result.search_mode == "keyword" and result.hits == []
    assert result.notice is not None
    assert f"AMEM_COLLECTION_MODELS='{TS_COLLECTION}=" in result.notice
    # --model, or a per-collection setting, names it.
    for flags, env in (
        ({"model": "sentence-transformers/all-MiniLM-L6-v2"}, {}),
        ({}, {"AMEM_COLLECTION_MODELS": f"{TS_COLLECTION}=all-minilm"}),
    ):
        named = engine_with(
            mem0_store,
            fastembed_embedder,
            tmp_path,
            openclaw_json("alice", model=None),
            env,
            collection=TS_COLLECTION,
            **flags,
        )
        hits = named.agent("main").search("caffeine beverage").hits
        assert hits and hits[0].note.id == ALICE_COFFEE


# --------------------------------------------------- collections and writes
def test_collections_are_found_as_the_plugin_names_them(
    mem0_store: QdrantStore, fastembed_embedder: FastEmbedder, tmp_path: Path
) -> None:
    found = engine_with(mem0_store, fastembed_embedder, tmp_path, openclaw_json("alice"))
    assert found.shared_collection == TS_COLLECTION  # mem0_<dims>d from the entry
    assert listed(found, "main") == NAMESPACES["alice"]
    named = openclaw_json("alice")
    config = named["plugins"]["entries"]["openclaw-mem0"]["config"]
    config["oss"]["vectorStore"]["config"]["collectionName"] = PY_COLLECTION
    assert (
        engine_with(mem0_store, fastembed_embedder, tmp_path, named).shared_collection
        == PY_COLLECTION
    )
    views = {v.name: v for v in found.collections()}
    assert views[MIGRATIONS].bookkeeping is not None and views[MIGRATIONS].read_only
    report = found.audit(all_collections=True)
    assert MIGRATIONS not in {c.name for c in report.collections}
    assert not report.malformed


def test_mem0_memories_are_read_only_and_say_why(
    mem0_store: QdrantStore, fastembed_embedder: FastEmbedder, tmp_path: Path
) -> None:
    engine = engine_with(
        mem0_store, fastembed_embedder, tmp_path, collection=TS_COLLECTION, user="alice"
    )
    note = engine.agent("main").get(ALICE_COFFEE)
    for action in ("update", "delete", "publish"):
        refusal = engine.agent("main").write_refusal(note, action)
        assert isinstance(refusal, ReadOnlyStore) and "mem0" in str(refusal)
    with pytest.raises(ReadOnlyStore, match="mem0"):
        engine.agent("main").update(ALICE_COFFEE, content="Changed through amem-tui")
    with pytest.raises(ReadOnlyStore, match="mem0"):
        engine.agent("main").delete(ALICE_COFFEE)
    assert engine.agent("main").get(ALICE_COFFEE).content == note.content


def test_export_keeps_sparse_vectors_and_import_writes_them_back(
    mem0_store: QdrantStore, fastembed_embedder: FastEmbedder, tmp_path: Path
) -> None:
    engine = engine_with(
        mem0_store, fastembed_embedder, tmp_path, collection=PY_COLLECTION, user="alice"
    )
    records = {r["id"]: r for r in engine.export_lines(PY_COLLECTION, vectors=True)}
    assert records[ALICE_COFFEE]["sparse"]["bm25"] == {"indices": [1, 100], "values": [0.5, 0.25]}
    # An openclaw-amem note that carries a sparse vector keeps it through an import.
    note = {
        "id": "c0000000-0000-0000-0000-000000000001",
        "payload": {"content": "A note with a keyword vector", "agent_id": "main"},
        "sparse": {"bm25": {"indices": [3, 9], "values": [0.7, 0.1]}},
    }
    result = engine.import_lines([json.dumps(note)], "restored")
    assert result.complete and result.written == 1
    (point,) = mem0_store.retrieve("restored", [note["id"]], with_vectors=True)
    assert point.sparse["bm25"].indices == (3, 9)
    assert point.sparse["bm25"].values == pytest.approx((0.7, 0.1))
    assert mem0_store.collection_info("restored").sparse_vectors == ["bm25"]  # type: ignore[union-attr]
