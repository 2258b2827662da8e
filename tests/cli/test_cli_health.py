"""``health``: the report as text or JSON, exit 1 when a problem at ``--fail-on`` or
worse exists (default ``warning``), side files that are not there said to be not found,
a malformed one a problem with its path."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from amem_tui.engine.embed import TEST_MODEL
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.cli import in_this_process as cli
from tests.support.consolidation_data import MODE_A, axis, nid, put
from tests.support.engines import fixed_clock, make_engine
from tests.support.health_store import (
    NOW,
    health_settings,
    plant_clean_side_files,
    plant_health,
    plant_side_files,
    rhythm,
)

#: What the planted store holds (tests.support.health_store), by kind and agent.
PLANTED = {
    ("silent-agent", "ops"),
    ("hollow-notes", "main"),
    ("low-quality", "main"),
    ("ephemeral", "main"),
    ("merge-backlog", "dev"),
    ("nightly-owed", "dev"),
    ("nightly-failed", None),
    ("duplicate-hash", "main"),
    ("unscanned-conflicts", "main"),
}


@pytest.fixture
def side(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """openclaw-amem's folder (empty), named to the CLI; the CLI's engines on the
    planted store's clock (2026-11-20 09:00 UTC), the nightly start at 02:30 UTC."""
    folder = tmp_path / "openclaw"
    monkeypatch.setenv("AMEM_OPENCLAW_DIR", str(folder))
    monkeypatch.setenv("AMEM_CONSOLIDATION_TIMEZONE", "UTC")
    opened = MemoryEngine.__init__

    def at_now(engine: MemoryEngine, *args: Any, **options: Any) -> None:
        opened(engine, *args, **{**options, "clock": fixed_clock(NOW)})

    monkeypatch.setattr(MemoryEngine, "__init__", at_now)
    return folder


def config_for(tmp_path: Path) -> Path:
    """An openclaw.json naming main (the default), dev, sandbox (Mode B) and ops."""
    agents = {a.agent: {"agentId": a.agent} for a in health_settings(tmp_path).agents}
    agents["sandbox"]["collection"] = "amem_notes_sandbox"
    plugin = {"enabled": True, "config": {"agentId": "main", "agents": agents}}
    config = tmp_path / "openclaw.json"
    config.write_text(json.dumps({"plugins": {"entries": {"openclaw-amem": plugin}}}), "utf-8")
    return config


def store_options(tmp_path: Path, folder: Path) -> list[str]:
    return ["--store", str(folder), "--config", str(config_for(tmp_path)), "--model", TEST_MODEL]


@pytest.fixture
def planted(tmp_path: Path, side: Path) -> list[str]:
    """The planted health store on disk, with side files: an owed agent, a failed run."""
    folder = tmp_path / "store"
    with make_engine(QdrantStore(path=str(folder)), settings=health_settings(side)) as engine:
        plant_health(engine)
    plant_side_files(side)
    return store_options(tmp_path, folder)


@pytest.fixture
def clean(tmp_path: Path, side: Path) -> list[str]:
    """A store where main writes on its rhythm, every note well kept; no side files."""
    folder = tmp_path / "store"
    notes = rhythm("main", NOW - timedelta(days=20), NOW - timedelta(hours=2), timedelta(days=1))
    with make_engine(QdrantStore(path=str(folder)), settings=health_settings(side)) as engine:
        put(engine, MODE_A, [(n, axis(i)) for i, n in enumerate(notes)])
    return store_options(tmp_path, folder)


def test_every_planted_problem_is_reported_and_the_command_fails(
    planted: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(capsys, *planted, "health", "--json")
    assert code == 1
    report = json.loads(out)  # the report is printed although the command fails
    found = {(p["kind"], p["agent"]) for p in report["problems"]}
    assert found >= PLANTED
    for problem in report["problems"]:
        assert {"kind", "severity", "agent", "notes", "why"} <= set(problem)
    hollow = next(p for p in report["problems"] if p["kind"] == "hollow-notes")
    assert set(hollow["notes"]) == {nid("hollow-1"), nid("hollow-2")}
    assert report["agents"]["ops"]["last_write"].startswith("2026-11-05")
    assert len(report["agents"]["ops"]["writes_per_day"]) == 30
    error = json.loads(err)["error"]
    assert error["exit_code"] == 1 and error["kind"] == "health_problems"

    code, out, err = cli(capsys, *planted, "health")
    assert code == 1
    assert "error   silent-agent         ops: ops has written nothing for" in out
    assert err.startswith("amem-tui: health: ") and "at warning or worse" in err


def test_a_clean_store_passes_and_missing_side_files_are_said_not_found(
    clean: list[str], side: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(capsys, *clean, "health", "--fail-on", "info")
    assert (code, err) == (0, "")
    assert "problems: none" in out
    assert f"nightly-owed: not found ({side / 'amem_nightly_owed.json'})" in out
    assert "nightly-owed: not checked" in out and "nightly-failed: not checked" in out
    report = json.loads(cli(capsys, *clean, "health", "--json")[1])
    assert report["checks"]["nightly-owed"]["state"] == "not checked"
    assert {f["state"] for f in report["side_files"]} == {"not found"}

    plant_clean_side_files(side)
    report = json.loads(cli(capsys, *clean, "health", "--json")[1])
    assert report["checks"]["nightly-owed"]["state"] == "ok"


def test_a_malformed_side_file_is_a_problem_with_its_path(
    clean: list[str], side: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plant_clean_side_files(side)
    owed = side / "amem_nightly_owed.json"
    owed.write_text('{"agents": {"main": ', encoding="utf-8")
    code, out, err = cli(capsys, *clean, "health", "--json")
    assert code == 1, err
    [problem] = json.loads(out)["problems"]
    assert (problem["kind"], problem["path"]) == ("unreadable-side-file", str(owed))
    # A warning: below --fail-on error, the command passes.
    code, out, err = cli(capsys, *clean, "health", "--fail-on", "error")
    assert (code, err) == (0, "")
    assert f"file: {owed}" in out


def test_fail_on_takes_only_the_severities(
    clean: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(capsys, *clean, "health", "--fail-on", "never")
    assert (code, out) == (2, "")
    assert "invalid choice: 'never'" in err
