"""The JSON every command prints, key for key: scripts consume it, so a change to how
the CLI builds its answers must not change a key, its order, or which nulls are left out.

One session on a demo store (and one on a mem0 store) runs every command with
``--json``, its engines on a clock that stands still and with fixed new ids; what
still varies from run to run (folders, timings, the host) is replaced by
placeholders, and the answers are compared with
``answers/cli_json.json``. Set ``AMEM_UPDATE_ANSWERS=1`` to write that file again, then
read its diff: every change in it is a change scripts see.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from amem_tui.cli import main
from amem_tui.demo import demo_id
from amem_tui.engine.embed import TEST_MODEL, HashEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import MovableClock, fixed_ids
from tests.support.mem0_stores import build_mem0_stores, openclaw_json

ANSWERS = Path(__file__).parent / "answers" / "cli_json.json"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
#: Who holds the nightly pass, as its messages say it.
HOLDER = re.compile(r"on host \S+ \(pid \d+\)")
BIN = str(Path(sys.executable).parent)
#: Keys whose values vary from run to run whatever their type.
VARYING = {"seconds", "notes_per_second", "host", "pid", "expires_at", "since"}


class Session:
    """The CLI run in this process on one store, each answer kept as JSON."""

    def __init__(self, capsys: pytest.CaptureFixture[str], common: list[str]) -> None:
        self.capsys = capsys
        self.common = common
        self.answers: dict[str, Any] = {}

    def __call__(self, name: str, *argv: str, code: int = 0) -> Any:
        self.capsys.readouterr()
        got = main(["--json", *self.common, *argv])
        out, err = self.capsys.readouterr()
        assert got == code, (name, err)
        answer = json.loads(out) if out.strip() else None
        self.answers[name] = answer
        return answer


def normalized(value: Any, tmp: str, known: dict[str, str]) -> Any:
    """``value`` with what varies between runs replaced by placeholders (a new id by
    the same placeholder wherever it appears)."""
    if isinstance(value, dict):
        return {key: normalized_item(key, item, tmp, known) for key, item in value.items()}
    if isinstance(value, list):
        return [normalized(item, tmp, known) for item in value]
    if not isinstance(value, str):
        return value
    # The scheduled command names the venv that ran the test, which differs per checkout.
    text = value.replace(tmp, "<tmp>").replace(BIN, "<bin>")
    text = HOLDER.sub("on host <host> (pid <pid>)", text)
    return UUID.sub(lambda m: known.setdefault(m.group(), f"<id{len(known)}>"), text)


def normalized_item(key: str, value: Any, tmp: str, known: dict[str, str]) -> Any:
    if key in VARYING and value is not None:
        return f"<{key}>"
    return normalized(value, tmp, known)


@pytest.fixture
def mem0_store(tmp_path: Path) -> list[str]:
    """A mem0 store (the test embedder's vectors) and the configuration that reads it."""
    folder = tmp_path / "mem0"
    store = QdrantStore(path=str(folder))
    build_mem0_stores(store.client, HashEmbedder())
    store.close()
    config = tmp_path / "mem0.json"
    config.write_text(json.dumps(openclaw_json("alice", None)), encoding="utf-8")
    return ["--store", str(folder), "--config", str(config), "--collection", "mem0_384d"]


def demo_session(cli: Session, tmp: Path) -> None:
    """Every command on the demo store, reads first, then writes."""
    config = cli.common[-1]
    cli.common = cli.common[:2]  # the demo writes its configuration
    cli("demo", "demo", "--no-tui")
    cli.common += ["--config", config]
    for name in ("agents", "status", "collections", "history", "stats"):
        cli(name, name)
    cli("stats --check", "stats", "--check")
    cli("audit --all", "audit", "--all")
    cli("conflicts", "--agent", "monitor", "conflicts")
    cli("conflicts --all-agents", "conflicts", "--all-agents")
    cli("health", "health", code=1)  # monitor has gone silent
    cli("list", "list", "--limit", "3")
    cli("list shared as dev", "--agent", "dev", "list", "--scope", "shared", "--owner", "dev")
    cli("list get-only", "list", "--scope", "get-only")
    cli("show", "show", demo_id("main-trip"))
    cli("show get-only", "show", demo_id("dev-selective"))
    cli("search", "search", "deploy freeze", "--explain", "--limit", "5")
    cli("search --hidden", "--agent", "dev", "search", "deploy freeze", "--hidden", "--limit", "1")
    cli("search plain", "search", "standup", "--limit", "2", "--mode", "dense", "--exact")
    cli("search sandbox", "--agent", "sandbox", "search", "plugin", "--approximate")
    cli("compare", "compare", "main", "dev", "--limit", "2")
    cli("compare --query", "compare", "main", "dev", "--query", "deploy", "--limit", "2")
    cli("versions", "versions", demo_id("main-standup"), "--diff")
    cli("consolidate --dry-run", "consolidate", "--dry-run", "--threshold", "0.65")
    cli("nightly --dry-run", "consolidate", "--all-agents", "--dry-run")
    cli("schedule cron", "schedule")
    cli("schedule systemd", "schedule", "--print", "systemd")
    cli("leaks", "leaks")
    cli("leaks --fail-on info", "leaks", "--fail-on", "info", code=1)
    checks = tmp / "checks.toml"
    checks.write_text(CHECKS, encoding="utf-8")
    cli("check", "check", str(checks), code=1)
    trip, shared = demo_id("main-trip"), demo_id("shared-freeze")
    cli("publish --dry-run", "publish", trip, "--dry-run", "--checks", str(checks))
    cli("unpublish --dry-run", "unpublish", shared, "--dry-run")
    cli("update --readers --dry-run", "update", trip, "--readers", "dev", "--dry-run")
    cli("delete --dry-run", "delete", shared, "--dry-run", "--checks", str(checks))
    cli(
        "consolidate --dry-run --checks",
        "consolidate",
        "--dry-run",
        "--threshold",
        "0.65",
        "--checks",
        str(checks),
    )
    cli("export -o", "export", "-o", str(tmp / "notes.jsonl"))
    cli("export --all", "export", "--all", "-o", str(tmp / "all"))
    cli("import --dry-run", "import", str(tmp / "notes.jsonl"), "--dry-run")
    cli("import --replace", "import", str(tmp / "notes.jsonl"), "--replace")

    added = cli("add", "add", "Lunch orders go in the team sheet", "--tags", "food")
    cli("add shared", "add", "Lunch is at noon", "--shared")
    cli("add readers", "add", "Lunch money is in the tin", "--readers", "dev,nobody")
    cli("update", "update", added["id"], "--content", "Lunch orders go in the sheet")
    cli("publish", "publish", added["id"])
    cli("unpublish", "unpublish", added["id"])
    cli("delete", "delete", added["id"])
    cli("restore", "restore", added["id"])
    cli("revert", "revert", added["id"], "--to", "1")
    run = cli("consolidate", "consolidate", "--threshold", "0.65")
    cli("undo --merge", "undo", run["id"], "--merge", run["merges"][0]["keeper"])
    cli("undo", "undo", run["id"])
    cli("nightly", "consolidate", "--all-agents", "--due")
    cli("nightly again", "consolidate", "--all-agents", "--due")
    cli("history after", "--agent", "main", "history")
    pair = demo_id("ops-backup-late"), demo_id("ops-backup-early")
    settle = ["--agent", "monitor", "conflicts", "resolve", *pair, "--keep", "both"]
    cli("conflicts resolve --dry-run", *settle, "--dry-run")
    cli("conflicts resolve", *settle, "--reason", "both hold: the window moved")


def test_every_command_answers_the_json_it_always_did(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    mem0_store: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in {
        "HOME": tmp_path / "home",
        "AMEM_DATA_DIR": tmp_path / "data",
        "AMEM_CONFIG_DIR": tmp_path / "config",
        "AMEM_CACHE_DIR": tmp_path / "cache",
    }.items():
        monkeypatch.setenv(name, str(value))
    monkeypatch.setenv("AMEM_MODEL", TEST_MODEL)
    clock, new_id, opened = MovableClock(), fixed_ids(), MemoryEngine.__init__

    def fixed_time(engine: MemoryEngine, *args: Any, **options: Any) -> None:
        opened(engine, *args, **{"clock": clock, "new_id": new_id, **options})

    monkeypatch.setattr(MemoryEngine, "__init__", fixed_time)
    store = tmp_path / "demo"
    cli = Session(capsys, ["--store", str(store), "--config", str(store / "openclaw.json")])
    demo_session(cli, tmp_path)
    mem0 = Session(capsys, mem0_store)
    mem0("mem0 agents", "agents")
    mem0("mem0 list", "list", "--limit", "2")
    mem0("mem0 list --run", "--user", "alice", "list", "--run", "agent:main:b3f1")
    mem0("mem0 search", "search", "coffee", "--explain", "--hidden")
    mem0("mem0 status", "status")

    known = {demo_id(key): f"<{key}>" for key in DEMO_KEYS}
    answers = normalized(cli.answers | mem0.answers, str(tmp_path), known)
    if os.environ.get("AMEM_UPDATE_ANSWERS"):
        ANSWERS.parent.mkdir(exist_ok=True)
        ANSWERS.write_text(json.dumps(answers, indent=1, ensure_ascii=False) + "\n", "utf-8")
    expected = json.loads(ANSWERS.read_text(encoding="utf-8"))
    assert list(answers) == list(expected)
    for name, answer in answers.items():
        # Compared as text: the order of keys counts too.
        assert json.dumps(answer, indent=1) == json.dumps(expected[name], indent=1), name


#: Memory checks on the demo: dev never recalls main's trip (it holds), dev recalls the
#: freeze note at the top (it does not: a failing check's answer).
CHECKS = """\
[[check]]
name = "dev never recalls main's trip"
agent = "dev"
query = "flight to Lisbon"
forbid = ["seat 12A"]
hidden_because = "private"

[[check]]
agent = "dev"
query = "standup time"
top = 1
expect = ["deploy freeze"]
"""


#: The demo notes' keys (their ids are fixed, so they are named rather than numbered).
DEMO_KEYS = [
    "main-vendor",
    "main-standup",
    "main-standup-dup",
    "main-trip",
    "main-reviews",
    "main-reviews-dup",
    "main-old",
    "main-deleted",
    "main-knowledge",
    "dev-jwt",
    "dev-tests",
    "dev-tests-dup",
    "dev-tests-dup2",
    "dev-lint",
    "dev-selective",
    "shared-snake",
    "shared-freeze",
    "shared-oncall",
    "shared-branches",
    "sandbox-exp",
    "sandbox-exp-dup",
    "sandbox-tools",
    # The contradiction desk's and health report's plants (monitor's notes).
    *(f"ops-episode-{n}" for n in range(14)),
    "ops-disk",
    "ops-disk-again",
    "ops-backup-early",
    "ops-backup-late",
    "ops-pager-old",
    "ops-pager-new",
    "ops-pager-decision",
]
