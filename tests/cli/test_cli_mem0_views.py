"""A mem0 store through the CLI as the OpenClaw mem0 plugin reads it: users (``--user``,
``AMEM_USER``, the plugin's ``userId``), user and agent pairs, subagent views, the
``:agent:main`` namespace, ``list --run``, status and collections, and every write
refused with the reason.

The store is a qdrant-client folder built with the real model (see
``tests/support/mem0_stores.py``); the CLI opens it with ``--store``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from amem_tui.engine.embed import FastEmbedder
from amem_tui.engine.formats.mem0 import READ_ONLY_REASON
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.cli import in_this_process as cli
from tests.support.mem0_stores import (
    ALICE_COFFEE,
    ALICE_EXPLICIT_MAIN,
    ALICE_RUN,
    ALICE_SUBAGENT,
    MIGRATIONS,
    NAMESPACES,
    PY_COLLECTION,
    SESSION,
    SUBAGENT_SESSION,
    TS_COLLECTION,
    build_mem0_stores,
    openclaw_json,
)

pytestmark = pytest.mark.slow  # real-model vectors, and the CLI loads the real model


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, fastembed_embedder: FastEmbedder) -> Path:
    """The store folder, built once for the module."""
    folder = tmp_path_factory.mktemp("mem0-cli") / "store"
    store = QdrantStore(path=str(folder))
    build_mem0_stores(store.client, fastembed_embedder)
    store.close()
    return folder


@pytest.fixture
def store(built: Path, tmp_path: Path) -> Path:
    """A private copy of the built folder."""
    copy = tmp_path / "store"
    shutil.copytree(built, copy)
    return copy


def config(tmp_path: Path, user: str | None = "alice", model: str | None = "all-minilm") -> str:
    """An openclaw.json holding the mem0 plugin's entry."""
    path = tmp_path / f"openclaw-{user}-{model}.json"
    path.write_text(json.dumps(openclaw_json(user, model)), encoding="utf-8")
    return str(path)


def listed(
    capsys: pytest.CaptureFixture[str], *argv: str, run: str | None = None
) -> tuple[dict[str, object], set[str]]:
    """``list --json`` (of one session with ``run``): the answer and its note ids."""
    code, out, err = cli(capsys, *argv, "list", "--json", *(["--run", run] if run else []))
    assert (code, err) == (0, ""), err
    data = json.loads(out)
    return data, {note["id"] for note in data["notes"]}  # type: ignore[attr-defined]


# ----------------------------------------------------------------- users
def test_the_user_comes_from_the_flag_the_environment_or_the_plugin_entry(
    store: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    base = ["--store", str(store), "--collection", TS_COLLECTION]
    data, ids = listed(capsys, *base, "--config", config(tmp_path, "alice"))
    assert ids == NAMESPACES["alice"]
    assert (data["user"], data["namespace"], data["view"]) == ("alice", "alice", "search")
    _, ids = listed(capsys, *base, "--config", config(tmp_path, "alice"), "--user", "bob")
    assert ids == NAMESPACES["bob"]
    monkeypatch.setenv("AMEM_USER", "bob")
    _, ids = listed(capsys, *base, "--config", config(tmp_path, "alice"), "--agent", "dev")
    assert ids == NAMESPACES["bob:agent:dev"]
    monkeypatch.delenv("AMEM_USER")
    # No user anywhere and two in the collection: refused, never merged.
    code, _, err = cli(capsys, *base, "list")
    assert code == 2 and "several users (alice, bob)" in err and "--user" in err


@pytest.mark.parametrize("collection", [TS_COLLECTION, PY_COLLECTION])
def test_agents_lists_every_user_and_agent_pair_with_its_view(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], collection: str
) -> None:
    base = ["--store", str(store), "--config", config(tmp_path), "--collection", collection]
    code, out, _ = cli(capsys, *base, "agents", "--json")
    assert code == 0
    pairs = [(r["user"], r["agent"], r["namespace"], r["view"]) for r in json.loads(out)]
    assert pairs == [
        ("alice", "main", "alice", "search"),
        ("alice", "dev", "alice:agent:dev", "search"),
        ("alice", "main", "alice:agent:main", "agentId"),
        ("alice", "research", "alice:agent:research", "search"),
        ("alice", "subagent-helper", "alice:agent:subagent-helper", "search"),
        ("bob", "main", "bob", "search"),
        ("bob", "dev", "bob:agent:dev", "search"),
    ]
    code, text, _ = cli(capsys, *base, "agents")
    assert text.splitlines()[0].split() == ["user", "agent", "user_id", "view"]
    assert "alice      subagent-helper    alice:agent:subagent-helper      search" in text
    assert "read it with --namespace alice:agent:main" in text and "--view recall" in text
    assert "user read by default: alice" in text


def test_the_agent_main_namespace_and_a_subagents_views_are_read_apart(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--store", str(store), "--config", config(tmp_path), "--collection", TS_COLLECTION]
    data, ids = listed(capsys, *base, "--namespace", "alice:agent:main")
    assert ids == {ALICE_EXPLICIT_MAIN} and data["view"] == "agentId"
    data, ids = listed(capsys, *base, "--session-key", SUBAGENT_SESSION)
    assert ids == {ALICE_SUBAGENT}
    assert (data["agent"], data["namespace"], data["view"]) == (
        "subagent-helper",
        "alice:agent:subagent-helper",
        "search",
    )
    data, ids = listed(capsys, *base, "--session-key", SUBAGENT_SESSION, "--view", "recall")
    assert ids == NAMESPACES["alice"]
    assert (data["namespace"], data["view"]) == ("alice", "recall")
    code, text, _ = cli(
        capsys, *base, "--session-key", SUBAGENT_SESSION, "--view", "recall", "list"
    )
    assert code == 0
    assert text.startswith("user alice, agent subagent-helper (user_id alice, recall view")


@pytest.mark.parametrize("collection", [TS_COLLECTION, PY_COLLECTION])
def test_list_filters_one_sessions_short_term_memories_and_shows_run_id(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], collection: str
) -> None:
    base = ["--store", str(store), "--config", config(tmp_path), "--collection", collection]
    data, ids = listed(capsys, *base, run=SESSION)
    assert ids == {ALICE_RUN} and data["total"] == 1 and data["run_id"] == SESSION
    _, ids = listed(capsys, *base, run="agent:main:other")
    assert ids == set()
    code, text, _ = cli(capsys, *base, "list", "--run", SESSION)
    assert code == 0 and f"of run {SESSION}" in text
    assert f"run_id={SESSION}" in text and "(mem0 memory, read-only)" in text
    code, text, _ = cli(capsys, *base, "show", ALICE_COFFEE)
    assert code == 0 and "mem0: user_id=alice" in text


def test_a_mistyped_agent_or_user_is_named_with_the_ones_that_exist(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--store", str(store), "--config", config(tmp_path), "--collection", TS_COLLECTION]
    code, _, err = cli(capsys, *base, "--agent", "mian", "list")
    assert code == 4
    assert err.startswith("amem-tui: agent 'mian' of user 'alice' has no memories")
    assert "did you mean 'main'?" in err and "alice's agents: dev, main, research" in err
    code, _, err = cli(capsys, *base, "--user", "alcie", "list", "--json")
    error = json.loads(err)["error"]
    assert error["kind"] == "unknown_agent" and error["known_agents"] == ["alice", "bob"]
    assert "did you mean 'alice'?" in error["message"] and error["exit_code"] == 4


# ------------------------------------------------------------- store facts
def test_status_names_the_user_and_what_would_enable_semantic_search(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--store", str(store), "--collection", TS_COLLECTION]
    code, out, _ = cli(capsys, *base, "--config", config(tmp_path), "--agent", "dev", "status")
    assert code == 0
    assert "user:          alice (reads user_id alice:agent:dev, search view)" in out
    assert "search:        vector" in out
    assert "built with:    sentence-transformers/all-MiniLM-L6-v2 (from mem0 plugin)" in out
    code, out, _ = cli(capsys, *base, "--config", config(tmp_path), "status", "--json")
    data = json.loads(out)
    assert (data["user"], data["namespace"], data["view"]) == ("alice", "alice", "search")
    unnamed = config(tmp_path, model=None)
    code, out, _ = cli(capsys, *base, "--config", unnamed, "status")
    assert code == 0 and "keyword only" in out
    assert "built with:    not named by anything" in out
    assert f"AMEM_COLLECTION_MODELS='{TS_COLLECTION}=" in out


def test_collections_shows_bookkeeping_and_where_the_model_came_from(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = cli(capsys, "--store", str(store), "--config", config(tmp_path), "collections")
    assert code == 0
    lines = {line.split(":")[0]: line for line in out.splitlines() if not line.startswith(" ")}
    assert "mem0 bookkeeping" in lines[MIGRATIONS] and "holds no memories" in lines[MIGRATIONS]
    assert "from mem0 plugin" in lines[TS_COLLECTION]
    assert "read-only" in lines[TS_COLLECTION]


# ------------------------------------------------------------------ writes
WRITES = [
    ["add", "A memory amem-tui must never write"],
    ["update", ALICE_COFFEE, "--content", "Changed through amem-tui"],
    ["delete", ALICE_COFFEE],
    ["publish", ALICE_COFFEE],
    ["consolidate"],
]


@pytest.mark.parametrize("write", WRITES, ids=lambda argv: argv[0])
def test_every_write_is_refused_with_the_reason(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], write: list[str]
) -> None:
    base = ["--store", str(store), "--config", config(tmp_path), "--collection", TS_COLLECTION]
    code, out, err = cli(capsys, *base, *write)
    assert (code, out) == (3, "")
    assert "holds mem0 memories" in err and READ_ONLY_REASON in err
    code, _, err = cli(capsys, *base, *write, "--json")
    error = json.loads(err)["error"]
    assert (code, error["kind"], error["exit_code"]) == (3, "read_only_store", 3)
    assert READ_ONLY_REASON in error["message"]
    # An unknown agent changes nothing: the store is read-only first.
    code, _, err = cli(capsys, *base, "--agent", "mian", *write)
    assert code == 3 and READ_ONLY_REASON in err
    _, ids = listed(capsys, *base)
    assert ids == NAMESPACES["alice"]


def test_search_as_a_mem0_view_finds_by_meaning_and_says_whose_view(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--store", str(store), "--config", config(tmp_path), "--collection", TS_COLLECTION]
    code, out, _ = cli(capsys, *base, "search", "caffeine beverage", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["hits"][0]["id"] == ALICE_COFFEE and data["search_mode"] == "plugin"
    assert (data["user"], data["namespace"]) == ("alice", "alice")
    code, text, _ = cli(capsys, *base, "search", "caffeine beverage")
    assert text.startswith("user alice, agent main (user_id alice, search view")


def test_the_collection_is_found_as_the_plugin_names_it_from_the_first_command(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--store", str(store), "--config", config(tmp_path)]
    data, ids = listed(capsys, *base)  # no --collection: mem0_<dims>d from the entry
    assert data["collection"] == TS_COLLECTION and ids == NAMESPACES["alice"]
    code, out, _ = cli(capsys, *base, "agents", "--json")
    assert code == 0 and {row["collection"] for row in json.loads(out)} == {TS_COLLECTION}
    code, out, _ = cli(capsys, *base, "collections", "--json")
    configured = [row["name"] for row in json.loads(out) if row["configured_as"]]
    assert configured == [TS_COLLECTION]
