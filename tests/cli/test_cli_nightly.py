"""``consolidate --all-agents [--due]``: every agent's pass, refused twice in one day with
``--due``, its progress on stderr and never on stdout."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tests.support.cli import demo_store
from tests.support.cli import in_this_process as run

TEST_MODEL = "amem-test/hash-embedder"


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A demo store (main and dev in Mode A, sandbox in Mode B, through the demo's
    openclaw.json); the common options to reach it. The day of the pass starts 12 hours
    from now, so no test here crosses into the next one."""
    options = demo_store(tmp_path / "store")
    starts = (datetime.now() + timedelta(hours=12)).strftime("%H:%M")
    monkeypatch.setenv("AMEM_CONSOLIDATION_TIME", starts)
    return options


def test_every_agent_then_refused_with_due_the_same_day(
    store: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["consolidate", "--all-agents", "--due", "--threshold", "0.65", *store]
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    done = json.loads(out)  # stdout is one JSON value: no progress in it
    assert done["ran"] and not done["skipped"] and done["trigger"] == "scheduled"
    assert [a["agent"] for a in done["agents"]] == ["main", "dev", "sandbox", "monitor"]
    assert done["agents"][2]["collection"] == "amem_notes_sandbox"
    assert done["merges"] == sum(a["merges"] for a in done["agents"]) >= 3
    assert done["record"]["status"] == "done" and done["record"]["runner"].endswith("--due")
    # Progress went to stderr, one JSON object per agent (stderr is not a terminal here).
    steps = [json.loads(line)["progress"] for line in err.splitlines()]
    assert [(s["index"], s["agent"], s["phase"]) for s in steps] == [
        (1, "main", "done"),
        (2, "dev", "done"),
        (3, "sandbox", "done"),
        (4, "monitor", "done"),
    ]

    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    assert out.startswith(f"the nightly pass of {done['day']} already ran at ")
    record = done["record"]
    assert f"{record['started_at']} by {record['runner']} on host {record['host']}" in out
    assert f"(pid {record['pid']})" in out and "nothing was done" in out
    code, out, _ = run(capsys, *argv, "--json")
    again = json.loads(out)
    assert code == 0 and again["skipped"] and not again["ran"] and again["agents"] == []
    assert again["record"] == record
    code, out, _ = run(capsys, "history", "--json", *store)
    # One run per agent, once, and the demo's settled conflict.
    assert len(json.loads(out)) == 5

    # Without --due the pass runs again, by hand (nothing left to merge at 0.65).
    code, out, err = run(capsys, "consolidate", "--all-agents", "--threshold", "0.65", *store)
    assert code == 0, err
    assert out.splitlines()[0].endswith("4 agents, 0 merges, trigger manual")
    assert [line.split(": ")[2] for line in err.splitlines()] == [
        "agent 1 of 4, main",
        "agent 2 of 4, dev",
        "agent 3 of 4, sandbox",
        "agent 4 of 4, monitor",
    ]


def test_a_dry_run_plans_every_agent_and_stores_nothing(
    store: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys, "consolidate", "--all-agents", "--dry-run", "--threshold", "0.65", "--json", *store
    )
    plan = json.loads(out)
    assert code == 0 and plan["dry_run"] and not plan["ran"] and plan["record"] is None
    assert plan["merges"] >= 3
    assert run(capsys, "--agent", "main", "history", "--json", *store)[1].strip() == "[]"
    # The day's pass has not run: --due still runs it.
    code, out, _ = run(capsys, "consolidate", "--all-agents", "--due", "--json", *store)
    assert code == 0 and json.loads(out)["ran"]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--due"], "--due goes with --all-agents"),
        (["--all-agents", "--agent", "dev"], "leave out --agent"),
        (["--all-agents", "--due", "--dry-run"], "--due decides whether to run"),
        (["--all-agents", "--threshold", "1.5"], "--threshold must be above 0"),
    ],
)
def test_flags_that_do_not_go_together(
    store: list[str], capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    code, out, err = run(capsys, "consolidate", *argv, *store)
    assert code == 2 and out == "" and said in err


def test_read_only_is_refused(store: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "consolidate", "--all-agents", "--read-only", *store)
    assert code == 3 and "read-only" in err
