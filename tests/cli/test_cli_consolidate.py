"""The ``consolidate``, ``history`` and ``undo`` subcommands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from amem_tui.cli import main
from amem_tui.demo import demo_id
from tests.support.paths import REPO_ROOT

TEST_MODEL = "amem-test/hash-embedder"


@pytest.fixture
def store(tmp_path: Path) -> list[str]:
    """A demo store embedded with the test embedder; the common options to reach it."""
    options = ["--store", str(tmp_path / "store"), "--model", TEST_MODEL]
    assert main(["demo", "--no-tui", *options]) == 0
    return options


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, object]:
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, json.loads(out) if "--json" in argv and code == 0 else out


def test_dry_run_then_run_then_history_then_undo(
    store: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # The test embedder scores the demo's near-duplicates 0.70-0.95.
    code, plan = run(capsys, "consolidate", "--dry-run", "--threshold", "0.65", "--json", *store)
    assert code == 0 and plan["dry_run"] and plan["agent"] == "main"
    assert len(plan["merges"]) == 2
    code, runs = run(capsys, "history", "--json", *store)
    # The demo's settled conflict (monitor's decision) alone: the dry run stored nothing.
    assert (code, [r["trigger"] for r in runs]) == (0, ["resolve"])

    code, done = run(
        capsys, "consolidate", "--agent", "dev", "--threshold", "0.65", "--json", *store
    )
    assert code == 0 and done["status"] == "done" and done["agent"] == "dev"
    assert [m["keeper"] for m in done["merges"]] == [demo_id("dev-tests")]
    assert "changes" not in done["merges"][0]

    code, runs = run(capsys, "history", "--json", *store)
    assert [r["id"] for r in runs][:1] == [done["id"]] and len(runs) == 2
    code, runs = run(capsys, "history", "--agent", "main", "--json", *store)
    assert runs == []

    code, text = run(capsys, "history", *store)
    assert code == 0 and f"keep {demo_id('dev-tests')}" in str(text)

    # No --agent: the run's own agent undoes it.
    code, undo = run(capsys, "undo", done["id"], "--json", *store)
    assert code == 0 and undo["trigger"] == "undo" and undo["undoes"] == done["id"]
    assert main(["undo", done["id"], *store]) == 2
    assert "nothing left to undo" in capsys.readouterr().err


def test_undo_one_merge(store: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, done = run(capsys, "consolidate", "--threshold", "0.65", "--json", *store)
    keeper = done["merges"][1]["keeper"]
    code, undo = run(capsys, "undo", done["id"], "--merge", keeper, "--json", *store)
    assert code == 0 and [m["keeper"] for m in undo["merges"]] == [keeper]
    code, runs = run(capsys, "history", "--agent", "main", "--json", *store)
    original = next(r for r in runs if r["id"] == done["id"])
    assert [m["undone"] for m in original["merges"]] == [False, True]


@pytest.mark.parametrize(
    "argv, code, message",
    [
        (["consolidate", "--threshold", "2"], 2, "--threshold"),
        (["undo", "00000000-0000-0000-0000-000000000000"], 4, "no consolidation run"),
        (["undo", "not-a-run", "--agent", "dev"], 4, "no consolidation run"),
        (["undo"], 2, "RUN_ID"),
    ],
)
def test_errors_and_exit_codes(
    store: list[str], capsys: pytest.CaptureFixture[str], argv: list[str], code: int, message: str
) -> None:
    assert main([*argv, *store]) == code
    assert message in capsys.readouterr().err


def test_refused_undo_exits_2(store: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    _, done = run(capsys, "consolidate", "--agent", "dev", "--threshold", "0.65", "--json", *store)
    keeper = done["merges"][0]["keeper"]
    assert (
        main(
            [
                "update",
                keeper,
                "--content",
                "Edited by hand after the merge",
                "--agent",
                "dev",
                *store,
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["undo", done["id"], *store]) == 2
    assert "changed since" in capsys.readouterr().err


def test_subcommands_are_registered_for_python_m(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    (tmp_path / "s").mkdir()  # an empty store (a missing one is refused)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "amem_tui",
            "history",
            "--store",
            str(tmp_path / "s"),
            "--model",
            TEST_MODEL,
        ],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "no consolidation runs"


def test_audit_all_skips_the_run_log(store: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run(capsys, "consolidate", "--threshold", "0.65", "--json", *store)
    code, report = run(capsys, "audit", "--all", "--json", *store)
    assert code == 0
    assert report["malformed"] == []
    assert all(not c["name"].endswith("__amem_runs") for c in report["collections"])
