"""``amem-tui compare`` and ``amem-tui stats``: JSON and text, exit codes, reading only.

Expected groups and figures are worked out by hand from the seeds (amem_tui/demo.py,
tests/support/team_store.py, tests/support/mem0_stores.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from amem_tui.cli import main
from amem_tui.demo import demo_id
from amem_tui.engine.embed import TEST_MODEL, HashEmbedder
from amem_tui.engine.store.edge import EdgeStore
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.cli import in_this_process as run
from tests.support.cli import on_demo_calendar
from tests.support.engines import make_engine
from tests.support.indexes import drop_index
from tests.support.mem0_stores import (
    ALICE_COFFEE,
    ALICE_RUN,
    ALICE_STANDUP,
    BOB_TEA,
    TS_COLLECTION,
    build_mem0_stores,
)
from tests.support.team_store import build_team_store, team_config, team_settings


def group_ids(data: dict[str, Any]) -> tuple[set[str], set[str], set[str]]:
    groups = data["groups"]
    for group in groups.values():
        assert group["total"] == len(group["notes"])
    return tuple({n["id"] for n in groups[k]["notes"]} for k in ("a_only", "b_only", "both"))  # type: ignore[return-value]


@pytest.fixture
def demo_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The demo in a store folder, as ``amem-tui demo --no-tui`` leaves it, made on the
    demo's own calendar (the demo is dated from the hour it is made: the figures below
    are worked out for that calendar)."""
    folder = tmp_path / "demo"
    with on_demo_calendar():
        assert main(["--store", str(folder), "--model", TEST_MODEL, "demo", "--no-tui"]) == 0
    capsys.readouterr()
    return [
        "--store",
        str(folder),
        "--config",
        str(folder / "openclaw.json"),
        "--model",
        TEST_MODEL,
    ]


@pytest.fixture
def team_store(tmp_path: Path) -> tuple[list[str], dict[str, str]]:
    """The team store (tests/support/team_store.py) in a folder, with its openclaw.json."""
    folder = tmp_path / "team"
    engine = make_engine(QdrantStore(path=str(folder)), settings=team_settings(model=TEST_MODEL))
    ids = build_team_store(engine)
    engine.close()
    config = team_config(tmp_path)
    return ["--store", str(folder), "--config", str(config), "--model", TEST_MODEL], ids


# ------------------------------------------------------------------ compare
def test_compare_demo_json_groups_by_hand(
    demo_store: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, *demo_store, "compare", "main", "dev", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    main_private = {
        "main-vendor", "main-standup", "main-standup-dup", "main-trip",
        "main-reviews", "main-reviews-dup", "main-old", "main-knowledge",
    }  # fmt: skip
    # dev-selective names main in its readers: main reads it by id, never in its view.
    dev_private = {
        "dev-jwt", "dev-tests", "dev-tests-dup", "dev-tests-dup2", "dev-lint", "dev-selective"
    }  # fmt: skip
    both = {"shared-snake", "shared-freeze", "shared-oncall", "shared-branches"}
    assert group_ids(data) == tuple(
        {demo_id(k) for k in keys} for keys in (main_private, dev_private, both)
    )
    assert (data["a"]["agent"], data["b"]["agent"], data["scope"]) == ("main", "dev", "visible")
    note = next(n for n in data["groups"]["b_only"]["notes"] if n["id"] == demo_id("dev-selective"))
    assert {k: note[k] for k in ("owner", "agent_id", "readers", "collection")} == {
        "owner": "dev",
        "agent_id": "dev",
        "readers": ["dev", "main"],
        "collection": "amem_notes",
    }
    assert (note["a"]["because"], note["b"]["because"]) == (None, "private")
    assert (note["a"]["kind"], note["a"]["readable"]) == ("get_only", True)
    assert note["a"]["reason"].startswith("get only (its readers name 'main'): openclaw-amem's")
    assert "main's memory_search, memory_list and counts never do" in note["a"]["reason"]


def test_compare_demo_across_modes_and_scopes(
    demo_store: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys, *demo_store, "compare", "dev", "sandbox", "--scope", "shared", "--json"
    )
    assert code == 0
    shared = {"shared-snake", "shared-freeze", "shared-oncall", "shared-branches"}
    assert group_ids(json.loads(out)) == ({demo_id(k) for k in shared}, set(), set())
    code, out, _ = run(capsys, *demo_store, "compare", "main", "sandbox", "--scope", "private")
    assert code == 0
    assert (
        "private notes of main (Mode A, amem_notes) and sandbox (Mode B, amem_notes_sandbox)" in out
    )
    assert "main only: 8   sandbox only: 3   both: 0" in out
    assert "in the Mode B collection 'amem_notes_sandbox' of agent 'sandbox'" in out


def test_compare_text_pages_each_group(
    demo_store: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, *demo_store, "compare", "main", "dev", "--limit", "1")
    assert code == 0
    assert "main only: 8   dev only: 6   both: 4" in out
    assert [out.count(f"… and {n} more") for n in (7, 5, 3)] == [1, 1, 1]
    assert "main  sees it: private: its agent_id is 'main'" in out
    assert "dev   cannot: private to agent 'main'" in out


def test_compare_team_json_on_a_built_store(
    team_store: tuple[list[str], dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    base, ids = team_store
    code, out, _ = run(capsys, *base, "compare", "dev", "ops", "--json")
    assert code == 0
    expected = ({"d1", "d_star", "d_sel"}, {"o1", "o_old"}, {"m_shared", "o_shared"})
    assert group_ids(json.loads(out)) == tuple({ids[k] for k in keys} for keys in expected)
    code, out, _ = run(capsys, *base, "compare", "sandbox", "lab", "--json")
    assert group_ids(json.loads(out)) == ({ids["s1"]}, {ids["l1"]}, set())


def test_compare_query_side_by_side(
    team_store: tuple[list[str], dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    base, ids = team_store
    argv = [*base, "compare", "dev", "ops", "--query", "staging credentials rotation", "--json"]
    code, out, _ = run(capsys, *argv, "--limit", "3")
    assert code == 0
    search = json.loads(out)["search"]
    assert search["query"] == "staging credentials rotation"
    # dev finds its note shared with ops; ops reads it by id only, never by search.
    assert search["a_hits"][0]["note"]["id"] == ids["d_sel"]
    assert ids["d_sel"] not in {h["note"]["id"] for h in search["b_hits"]}
    assert search["a_hits"][0]["other_rank"] is None
    assert search["a_hits"][0]["other_reason"].startswith("ops cannot see it: get only")
    for hit in search["a_hits"]:
        if hit["note"]["id"] in (ids["d1"], ids["d_star"]):
            assert hit["other_rank"] is None
            assert hit["other_reason"].startswith("ops cannot see it: private to agent 'dev'")
    code, out, _ = run(capsys, *base, "compare", "dev", "ops", "--query", "staging", "--limit", "3")
    assert "dev's results" in out and "ops's results" in out and "get only" in out


def test_compare_exit_codes(
    team_store: tuple[list[str], dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    base, _ = team_store
    assert run(capsys, *base, "compare", "dev", "ops", "--limit", "0")[0] == 2
    assert run(capsys, *base, "compare", "dev", "ops", "--scope", "everything")[0] == 2
    assert run(capsys, *base, "compare", "dev", "shared")[0] == 2
    assert run(capsys, *base, "compare", "dev")[0] == 2
    # A mistyped agent is named on stderr with the known ones; the answer still comes.
    code, out, err = run(capsys, *base, "compare", "dev", "opz", "--json")
    assert code == 0 and json.loads(out)["b"]["agent"] == "opz"
    assert "no agent 'opz'" in err and "known: dev, lab, main, ops, sandbox" in err


def test_compare_and_stats_only_read(
    team_store: tuple[list[str], dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    base, _ = team_store
    before = run(capsys, *base, "export", "--collection", "amem_notes")[1]
    assert run(capsys, *base, "--read-only", "compare", "dev", "ops", "--query", "pager")[0] == 0
    assert run(capsys, *base, "--read-only", "stats")[0] == 0
    assert run(capsys, *base, "export", "--collection", "amem_notes")[1] == before


def test_compare_mem0_users(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "mem0"
    store = QdrantStore(path=str(folder))
    build_mem0_stores(store.client, HashEmbedder())
    store.close()
    base = ["--store", str(folder), "--collection", TS_COLLECTION, "--model", TEST_MODEL]
    code, out, _ = run(capsys, *base, "compare", "alice", "bob", "--json")
    assert code == 0
    data = json.loads(out)
    assert group_ids(data) == ({ALICE_COFFEE, ALICE_STANDUP, ALICE_RUN}, {BOB_TEA}, set())
    assert (data["a"]["label"], data["b"]["label"]) == ("alice/main", "bob/main")
    tea = data["groups"]["b_only"]["notes"][0]
    assert tea["a"]["kind"] == "user" and tea["user_id"] == "bob"


# -------------------------------------------------------------------- stats
def test_stats_json_on_the_team_store(
    team_store: tuple[list[str], dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    base, _ = team_store
    code, out, _ = run(capsys, *base, "stats", "--json")
    assert code == 0
    data = json.loads(out)
    keys = ("mode", "collection", "private", "shared_by", "visible", "get_only")
    keys += ("soft_deleted", "selectively_shared", "legacy", "malformed")
    rows = {a["agent"]: tuple(a[k] for k in keys) for a in data["agents"]}
    # Get only: d_star (readers "*") for main and ops, d_sel (readers name ops) for ops.
    assert rows == {
        "main": ("A", "amem_notes", 1, 1, 3, 1, 1, 0, 0, 0),
        "dev": ("A", "amem_notes", 3, 0, 5, 0, 0, 1, 0, 0),
        "ops": ("A", "amem_notes", 2, 1, 4, 2, 0, 0, 1, 0),
        "sandbox": ("B", "amem_notes_sandbox", 1, 0, 1, 0, 0, 0, 0, 0),
        "lab": ("B", "amem_notes_lab", 1, 0, 1, 0, 0, 0, 0, 0),
    }
    assert data["shared_owners"] == {"main": 1, "ops": 1} and data["shared_total"] == 2
    assert data["shared_share"] == {"main": 0.5, "ops": 0.5}
    assert data["weeks"] == ["2026-09-28", "2026-11-02", "2026-11-16"]
    assert {c["name"]: c["unattributed"] for c in data["collections"]} == {
        "amem_notes": 1,
        "amem_notes_sandbox": 0,
        "amem_notes_lab": 0,
    }


def test_stats_text_on_the_demo_after_a_consolidation(
    demo_store: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, *demo_store, "--agent", "dev", "consolidate")[0] == 0
    code, out, _ = run(capsys, *demo_store, "stats")
    assert code == 0
    header = out.splitlines()[0].split()
    assert header[:4] == ["agent", "mode", "collection", "private"]
    dev = next(line.split() for line in out.splitlines() if line.startswith("dev "))
    runs, merges, saved = (int(v) for v in dev[-3:])
    assert runs == 1 and merges >= 1 and saved >= merges
    assert int(dev[3]) == 6 - saved  # dev's private notes, after the merge
    assert "shared scope: 4 notes, written by dev 2 (50%), main 2 (50%)" in out
    assert "notes written per week (weeks start on Monday)" in out
    assert "2025-10-13" in out  # main's oldest note


def test_stats_counts_from_the_indexes_and_checks_on_request(
    demo_store: list[str],
    team_store: tuple[list[str], dict[str, str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The demo folder is a Qdrant Edge store: its figures are counted, malformed unknown.
    code, out, _ = run(capsys, *demo_store, "stats")
    assert code == 0
    main_row = next(line.split() for line in out.splitlines() if line.startswith("main "))
    assert main_row[3:12] == ["8", "2", "12", "1", "1", "0", "1", "?", "0"]
    assert "amem_notes: 39 points (amem), malformed not checked" in out
    assert "malformed points (?) are found by reading every note: stats --check" in out
    data = json.loads(run(capsys, *demo_store, "stats", "--json")[1])
    assert data["pending"] == ["malformed"]
    code, out, _ = run(capsys, *demo_store, "stats", "--check")
    main_row = next(line.split() for line in out.splitlines() if line.startswith("main "))
    assert main_row[3:12] == ["8", "2", "12", "1", "1", "0", "1", "0", "0"]
    assert "amem_notes: 39 points (amem), 0 malformed" in out and "--check" not in out
    # qdrant-client's local mode filters in Python: every note is read, nothing pending.
    data = json.loads(run(capsys, *team_store[0], "stats", "--json")[1])
    assert data["pending"] == []


def test_stats_says_what_gets_recalled(
    demo_store: list[str],
    team_store: tuple[list[str], dict[str, str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The demo's notes were recalled (their age in days modulo 7) times: see
    # tests/engine/stats/test_recall_figures.py for the figures worked out by hand.
    for check in ((), ("--check",)):
        code, out, _ = run(capsys, *demo_store, "stats", *check)
        assert code == 0
        lines = out.splitlines()
        at = lines.index("main: 1 of 12 notes never recalled; most recalled:")
        freeze = demo_id("shared-freeze")
        assert any(
            line.split()[:5] == ["6x", "last", "2026-11-15", "shared", freeze]
            for line in lines[at + 1 : at + 6]
        )
        assert "dev: 1 of 10 notes never recalled; most recalled:" in lines
        sandbox = lines.index("sandbox: 1 of 3 notes never recalled; most recalled:")
        assert lines[sandbox + 1].split()[:4] == ["2x", "last", "2026-11-19", "private"]
        assert lines[sandbox + 1].endswith(
            f"{demo_id('sandbox-exp')}  Experiment 7: the untrusted plugin tried to read "
            "~/.ssh; bl…"
        )
    data = json.loads(run(capsys, *demo_store, "stats", "--json")[1])
    main_row = next(a for a in data["agents"] if a["agent"] == "main")
    assert main_row["never_recalled"] == 1
    top = main_row["most_recalled"]
    assert [n["retrieval_count"] for n in top] == [6, 6, 5, 5, 5]
    assert set(top[0]) == {"id", "content", "retrieval_count", "last_accessed", "agent_id", "owner"}
    # A store read note by note (qdrant-client's local mode) says the same things.
    data = json.loads(run(capsys, *team_store[0], "stats", "--json")[1])
    assert all(isinstance(a["never_recalled"], int) for a in data["agents"])
    code, out, _ = run(capsys, *team_store[0], "stats")
    assert "what gets recalled, as each agent sees it" in out


def test_stats_of_mem0_memories_has_no_recall_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "mem0"
    store = QdrantStore(path=str(folder))
    build_mem0_stores(store.client, HashEmbedder())
    store.close()
    base = ["--store", str(folder), "--collection", TS_COLLECTION, "--model", TEST_MODEL]
    code, out, _ = run(capsys, *base, "--user", "alice", "stats")
    assert code == 0
    assert "alice/main: no recall counts (mem0 keeps none)" in out
    data = json.loads(run(capsys, *base, "--user", "alice", "stats", "--json")[1])
    assert all(a["never_recalled"] is None and a["most_recalled"] == [] for a in data["agents"])


def test_stats_without_an_index_on_the_recall_count_finds_it_with_check(
    demo_store: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # A demo store made before retrieval_count had an index.
    store = EdgeStore(demo_store[1])
    for name in ("amem_notes", "amem_notes_sandbox"):
        drop_index(store, name, "retrieval_count")
    store.close()
    out = run(capsys, *demo_store, "stats")[1]
    assert "  ? (a store without an index on retrieval_count" in out
    assert "stats --check finds them)" in out
    data = json.loads(run(capsys, *demo_store, "stats", "--json")[1])
    assert {"never_recalled", "most_recalled"} <= set(data["pending"])
    out = run(capsys, *demo_store, "stats", "--check")[1]
    assert "main: 1 of 12 notes never recalled; most recalled:" in out
