"""The headless CLI, driven as users drive it: ``python -m amem_tui`` in a subprocess.

Most runs use the deterministic test embedder (``--model amem-test/hash-embedder``
through ``AMEM_MODEL``) so they stay quick; the real model is used where marked.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import MODEL_CACHE, REPO_ROOT

TEST_MODEL = "amem-test/hash-embedder"
NOTE_FIELDS = {"id", "content", "agent_id", "owner", "readers", "writers", "hash", "is_active"}


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


Runner = Callable[..., Result]


def base_env(tmp: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AMEM_", "QDRANT_"))}
    env.update(
        PYTHONPATH=str(REPO_ROOT),
        HOME=str(tmp / "home"),
        AMEM_DATA_DIR=str(tmp / "data"),
        AMEM_CONFIG_DIR=str(tmp / "config"),
        AMEM_CACHE_DIR=str(MODEL_CACHE),
        AMEM_MODEL=TEST_MODEL,
    )
    env.update(extra)
    return env


def run_cli(*args: str, env: dict[str, str], stdin: str | None = None) -> Result:
    proc = subprocess.run(
        [sys.executable, "-m", "amem_tui", *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        input=stdin,
    )
    return Result(proc.returncode, proc.stdout, proc.stderr)


def assert_error(result: Result, code: int, *fragments: str) -> None:
    """A failure: the exit code, nothing on stdout, one line on stderr, no traceback."""
    assert result.code == code, (result.code, result.err)
    assert result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith("amem-tui: ")
    assert "Traceback" not in result.err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


CONFIG = {
    "plugins": {
        "allow": ["openclaw-amem"],
        "entries": {
            "openclaw-amem": {
                "enabled": True,
                "config": {
                    "agentId": "main",
                    "topK": 5,
                    "agents": {
                        "dev": {"agentId": "dev"},
                        "sandbox": {"agentId": "sandbox", "collection": "amem_notes_sandbox"},
                    },
                },
            }
        },
    }
}


@pytest.fixture
def cli(tmp_path: Path) -> Iterator[Runner]:
    """Run the CLI on a fresh embedded store with main, dev (Mode A) and sandbox (Mode B)."""
    config = tmp_path / "openclaw.json"
    config.write_text(json.dumps(CONFIG))
    env = base_env(tmp_path)
    store = str(tmp_path / "store")
    (tmp_path / "store").mkdir()  # an empty store: only add and import make a missing one

    def run(*args: str) -> Result:
        return run_cli("--store", store, "--config", str(config), *args, env=env)

    yield run


def test_agents_json_shape(cli: Runner) -> None:
    result = cli("agents", "--json")
    assert result.code == 0, result.err
    assert result.json() == [
        {"agent": "main", "mode": "A", "collection": "amem_notes"},
        {"agent": "dev", "mode": "A", "collection": "amem_notes"},
        {"agent": "sandbox", "mode": "B", "collection": "amem_notes_sandbox"},
    ]
    text = cli("agents")
    assert text.code == 0 and "sandbox" in text.out and "Mode B" in text.out


def test_isolation_scenario(cli: Runner) -> None:
    """Private by default, explicit shared, Mode B, session keys, writers, exit codes."""
    private = cli("--agent", "main", "add", "Vendor account for the cloud bill is ACME", "--json")
    assert private.code == 0, private.err
    note = private.json()
    assert set(note) >= NOTE_FIELDS
    assert (note["agent_id"], note["owner"], note["readers"], note["writers"]) == (
        "main",
        "main",
        ["main"],
        ["main"],
    )
    assert isinstance(note["evolution_history"], str)

    # Options after the subcommand, --shared, and --tags.
    shared = cli(
        "add", "All API endpoints use snake_case keys", "--shared", "--agent", "dev", "--json"
    ).json()
    assert (shared["agent_id"], shared["owner"], shared["readers"], shared["writers"]) == (
        "shared",
        "dev",
        ["*"],
        ["dev"],
    )
    box = cli("--json", "--agent", "sandbox", "add", "Sandbox may only use the calculator").json()

    # dev (by session key) lists its visible notes: the shared one, never main's private one.
    listing = cli("--session-key", "agent:dev:7f3a", "list", "--json").json()
    assert set(listing) >= {"agent", "mode", "collection", "total", "notes"}
    assert (listing["agent"], listing["mode"], listing["collection"]) == ("dev", "A", "amem_notes")
    assert [n["id"] for n in listing["notes"]] == [shared["id"]]
    assert listing["total"] == 1
    main_list = cli("list", "--json", "--scope", "private").json()  # configured agentId: main
    assert main_list["agent"] == "main" and [n["id"] for n in main_list["notes"]] == [note["id"]]
    sandbox_list = cli("list", "--agent", "sandbox", "--json").json()
    assert (sandbox_list["mode"], sandbox_list["collection"]) == ("B", "amem_notes_sandbox")
    assert [n["id"] for n in sandbox_list["notes"]] == [box["id"]]
    assert cli("list", "--agent", "sandbox", "--scope", "shared", "--json").json()["total"] == 0

    # Not visible and not there: the same answer (exit 4).
    hidden = cli("--agent", "dev", "show", note["id"])
    missing = cli("--agent", "dev", "show", "00000000-0000-0000-0000-000000000000")
    assert_error(hidden, 4)
    assert_error(missing, 4)
    assert hidden.err.replace(note["id"], "X") == missing.err.replace(
        "00000000-0000-0000-0000-000000000000", "X"
    )
    assert_error(cli("--agent", "sandbox", "show", shared["id"]), 4)

    # The write rule: main may read dev's shared note but not change it.
    denied = cli("--agent", "main", "update", shared["id"], "--content", "Use camelCase keys now")
    assert_error(denied, 3, "PERMISSION_DENIED", "main", shared["id"])
    assert_error(cli("delete", shared["id"], "--agent", "main"), 3, "PERMISSION_DENIED")
    assert_error(cli("unpublish", shared["id"], "--agent", "main"), 3, "PERMISSION_DENIED")
    unchanged = cli("show", shared["id"], "--json").json()
    assert unchanged == shared


def test_publish_unpublish_update_delete_restore(cli: Runner) -> None:
    note = cli("add", "Production deploy is frozen until Friday", "--json").json()
    assert note["ephemeral"] is True  # time-bound wording
    published = cli("publish", note["id"], "--json").json()
    assert published["id"] == note["id"]
    assert (published["agent_id"], published["owner"], published["writers"]) == (
        "shared",
        "main",
        ["main"],
    )
    assert [e["action"] for e in json.loads(published["evolution_history"])] == ["publish"]
    assert cli("--agent", "dev", "show", note["id"], "--json").json()["id"] == note["id"]
    updated = cli(
        "update",
        note["id"],
        "--content",
        "Production deploy is frozen",
        "--tags",
        "deploy,ops",
        "--json",
    ).json()
    assert updated["content"] == "Production deploy is frozen"
    assert updated["tags"] == ["deploy", "ops"] and updated["owner"] == "main"
    deleted = cli("delete", note["id"], "--json").json()
    assert deleted["is_active"] is False
    assert cli("--agent", "dev", "list", "--json").json()["total"] == 0
    restored = cli("restore", "--json", note["id"]).json()
    assert restored["is_active"] is True
    back = cli("unpublish", note["id"], "--json").json()
    assert (back["agent_id"], back["readers"]) == ("main", ["main"])
    assert_error(cli("--agent", "dev", "show", note["id"]), 4)
    # Text output (no --json) names the note and its access fields.
    text = cli("show", note["id"])
    assert text.code == 0 and note["id"] in text.out and "owner=main" in text.out


def test_add_rules(cli: Runner) -> None:
    assert_error(cli("add", "   short   "), 2, "quality gate")
    first = cli("add", "User prefers three bullet points", "--json").json()
    again = cli("add", "User prefers three bullet points", "--json").json()
    assert again["id"] == first["id"]  # identical md5: the existing note
    assert_error(cli("--agent", "sandbox", "add", "Shared from a sandbox", "--shared"), 2, "Mode B")
    assert_error(cli("--agent", "shared", "add", "A note with a reserved agent"), 2, "reserved")
    assert_error(cli("add", "A note with a reserved agent", "--agent", "*"), 2, "reserved")
    assert_error(cli("--session-key", "agent:shared:1", "list"), 2, "reserved")
    assert cli("list", "--json").json()["total"] == 1


def test_search_json_shape(cli: Runner) -> None:
    for text in ("Deploy freeze starts on Friday", "The cat sleeps on the sofa"):
        cli("add", text, "--agent", "dev")
    cli("--agent", "main", "add", "Deploy freeze for main only, private")
    result = cli("search", "deploy freeze", "--agent", "dev", "--limit", "5", "--json")
    assert result.code == 0, result.err
    data = result.json()
    assert {"agent", "mode", "collection", "hits"} <= set(data)
    assert (data["agent"], data["mode"], data["collection"]) == ("dev", "A", "amem_notes")
    hits = data["hits"]
    assert hits and {"id", "score", "content", "agent_id", "owner"} <= set(hits[0])
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
    assert hits[0]["content"] == "Deploy freeze starts on Friday"
    assert all(h["owner"] == "dev" for h in hits)  # main's private note never shows
    assert len(cli("--json", "search", "--limit", "1", "deploy").json()["hits"]) == 1


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["list", "--limit", "nope"], "invalid int"),
        (["list", "--limit", "0"], "--limit"),
        (["list", "--scope", "everything"], "invalid choice"),
        (["frobnicate"], "invalid choice"),
        (["update", "00000000-0000-0000-0000-000000000001"], "nothing to update"),
        (["show"], "required"),
        (["--collection", "bad/name", "list"], "--collection"),
    ],
)
def test_bad_input_exits_2(cli: Runner, args: list[str], fragment: str) -> None:
    assert_error(cli(*args), 2, fragment)


def test_store_unavailable_exits_5(tmp_path: Path) -> None:
    env = base_env(tmp_path)
    assert_error(run_cli("--url", "http://127.0.0.1:9", "agents", env=env), 5, "127.0.0.1:9")
    a_file = tmp_path / "a-file"
    a_file.write_text("not a store")
    assert_error(run_cli("--store", str(a_file), "list", env=env), 5, "not a store folder")


def test_locked_embedded_store_exits_5(tmp_path: Path) -> None:
    env = base_env(tmp_path)
    store = tmp_path / "store"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import sys
                from amem_tui.engine.store.qdrant import QdrantStore
                s = QdrantStore(path={str(store)!r})
                print("ready", flush=True)
                sys.stdin.read()
                """
            ),
        ],
        cwd=REPO_ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        result = run_cli("--store", str(store), "list", env=env)
        assert_error(result, 5, "in use by another process", "--url")
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=60)
    assert run_cli("--store", str(store), "list", env=env).code == 0  # free again


def test_config_errors_name_file_and_key(tmp_path: Path) -> None:
    config = tmp_path / "openclaw.json"
    config.write_text(
        json.dumps({"plugins": {"entries": {"openclaw-amem": {"config": {"agentId": "shared"}}}}})
    )
    result = run_cli("--config", str(config), "agents", env=base_env(tmp_path))
    assert_error(result, 2, str(config), "agentId", "reserved")
    env = base_env(tmp_path, AMEM_CONFIG=str(tmp_path / "missing.json"))
    assert_error(run_cli("agents", env=env), 2, "missing.json")


def test_defaults_with_no_configuration(tmp_path: Path) -> None:
    env = base_env(tmp_path)
    assert run_cli("agents", "--json", env=env).json() == [
        {"agent": "main", "mode": "A", "collection": "amem_notes"}
    ]
    added = run_cli("add", "A note in the default embedded store", "--json", env=env)
    assert added.code == 0, added.err
    assert (tmp_path / "data" / "store").is_dir()  # the user data folder
    env_b = base_env(tmp_path, AMEM_COLLECTION="team_notes", AMEM_AGENT="ops")
    listing = run_cli("list", "--json", "--new-agent", env=env_b).json()  # ops: no notes yet
    assert (listing["agent"], listing["collection"], listing["total"]) == ("ops", "team_notes", 0)
    # A flag beats the environment.
    flagged = run_cli("list", "--json", "--agent", "main", "--collection", "amem_notes", env=env_b)
    assert (flagged.json()["agent"], flagged.json()["total"]) == ("main", 1)


@pytest.mark.slow
def test_demo_then_search_with_the_real_model(tmp_path: Path) -> None:
    """`demo --no-tui` fills a store; the CLI then searches it with the real model."""
    env = base_env(tmp_path)
    del env["AMEM_MODEL"]
    demo = run_cli("demo", "--no-tui", "--json", env=env)
    assert demo.code == 0, demo.err
    info = demo.json()
    assert info["counts"] == {"amem_notes": 39, "amem_notes_sandbox": 3}
    store, config = info["store"], info["config"]
    assert Path(config).is_file()
    found = run_cli(
        "--store",
        store,
        "--config",
        config,
        "--agent",
        "dev",
        "search",
        "deploy freeze",
        "--json",
        env=env,
    )
    assert found.code == 0, found.err
    hits = found.json()["hits"]
    assert hits[0]["agent_id"] == "shared" and "frozen" in hits[0]["content"]
    assert all(h["agent_id"] in ("dev", "shared") or "dev" in h["readers"] for h in hits)
    sandbox = run_cli(
        "--store", store, "--config", config, "list", "--agent", "sandbox", "--json", env=env
    ).json()
    assert (sandbox["mode"], sandbox["total"]) == ("B", 3)
    text = run_cli("demo", "--no-tui", env=env)  # idempotent: same ids
    assert text.code == 0 and "39 notes in amem_notes" in text.out
