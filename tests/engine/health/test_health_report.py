"""The health report on a store with planted problems: every planted item found with
its kind, severity, agent and notes, and nothing on the clean look-alikes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from amem_tui.engine import HealthReport, MemoryEngine, NightlyPass
from amem_tui.engine.for_apps import Problem
from amem_tui.engine.store.base import NoteStore
from tests.support.consolidation_data import nid
from tests.support.health_store import (
    NOW,
    OTHER_MODEL,
    health_engine,
    plant_clean_side_files,
    plant_health,
    plant_side_files,
)


def found(report: HealthReport) -> set[tuple[str, str, str | None, frozenset[str]]]:
    return {(p.kind, p.severity, p.agent, frozenset(p.notes)) for p in report.problems}


def ids(*keys: str) -> frozenset[str]:
    return frozenset(nid(k) for k in keys)


#: What the planted notes give: kind, severity, agent, the notes behind it.
PLANTED_NOTES = {
    ("silent-agent", "error", "ops", frozenset()),
    ("hollow-notes", "warning", "main", ids("hollow-1", "hollow-2")),
    ("low-quality", "warning", "main", ids("lowq")),
    ("ephemeral", "warning", "main", ids("expired")),
    ("merge-backlog", "warning", "dev", ids("pending")),
    ("duplicate-hash", "warning", "main", ids("dup-1", "dup-2")),
    ("unscanned-conflicts", "warning", "main", ids("unscanned-1", "unscanned-2")),
}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "openclaw"


def test_every_planted_problem_is_found_and_nothing_else(store: NoteStore, folder: Path) -> None:
    engine = health_engine(store, folder)
    plant_health(engine)
    plant_side_files(folder)
    report = engine.health()
    nightly = {(p.kind, p.severity, p.agent) for p in report.problems if p.kind.startswith("n")}
    assert nightly == {
        ("nightly-owed", "warning", "dev"),  # owed since before the last nightly start
        ("nightly-owed", "info", "main"),  # owed since after it: tonight's job takes it
        ("nightly-failed", "error", None),
    }
    others = {p for p in found(report) if not p[0].startswith("nightly")}
    assert others == PLANTED_NOTES
    assert report.fails("warning") and report.fails("error")
    assert report.worst == "error"
    # Each reason counts in words: "1 note", "2 notes", never "note(s)".
    counted = [p.why for p in report.problems if re.search(r"\d+ (note|error|gap)", p.why)]
    assert counted
    assert not [why for why in counted if "(s)" in why or re.search(r"\b1 notes\b", why)]


def test_a_store_of_look_alikes_is_clean(store: NoteStore, folder: Path) -> None:
    engine = health_engine(store, folder)
    plant_health(engine)
    plant_clean_side_files(folder)
    planted = set().union(*(notes for *_, notes in PLANTED_NOTES))
    # Take the planted notes and the silent agent away: their look-alikes stay.
    for point in list(engine.store.scan("amem_notes")):
        if point.id in planted or point.payload.get("agent_id") == "ops":
            engine.store.delete_points("amem_notes", [point.id])
    report = engine.health()
    assert report.problems == []
    assert not report.fails("info")
    states = {kind: check.state for kind, check in report.checks.items()}
    assert set(states.values()) <= {"ok", "not supported"}


def test_the_silence_rule_is_said_with_its_figures(store: NoteStore, folder: Path) -> None:
    engine = health_engine(store, folder)
    plant_health(engine)
    report = engine.health()
    ops = report.agents["ops"]
    assert ops.last_write == "2026-11-05T10:00:00Z"
    assert ops.usual_gap_hours == 24.0 and ops.silent_after_hours == 72.0
    assert ops.silence_hours == 359.0
    silent = report.of_kind("silent-agent")[0]
    assert "359.0 h" in silent.why and "72.0 h" in silent.why
    dev = report.agents["dev"]
    assert dev.silent_after_hours == 288.0 and dev.silence_hours is not None
    assert dev.silence_hours < dev.silent_after_hours  # quiet, but on its rhythm
    assert len(ops.writes_per_day) == 30 and sum(ops.writes_per_day) == 15  # Oct 22 to Nov 5
    assert report.days[-1] == NOW.date().isoformat()


def test_writes_per_agent_per_day_for_the_chart(store: NoteStore, folder: Path) -> None:
    engine = health_engine(store, folder)
    plant_health(engine)
    series = engine.write_series(days=7)
    assert series.days == [f"2026-11-{d}" for d in range(14, 21)]
    assert series.agents["ops"] == [0] * 7  # silent: a flat line
    assert series.agents["sandbox"] == [1, 1, 1, 1, 1, 0, 0]  # Nov 12 to 18, daily
    month = engine.health().series()
    assert {a: counts[-7:] for a, counts in month.agents.items()} == series.agents


def test_mixed_models_across_mode_b_are_an_error(store: NoteStore, folder: Path) -> None:
    engine = health_engine(store, folder)
    plant_health(engine, sandbox_model=OTHER_MODEL)
    report = engine.health()
    mixed = report.of_kind("mixed-models")
    assert [(p.severity, p.agent) for p in mixed] == [("error", None)]
    assert OTHER_MODEL in mixed[0].why and "amem_notes_sandbox of sandbox" in mixed[0].why
    assert "MixedEmbeddingModelsError" in mixed[0].why


def test_missing_side_files_are_said_to_be_missing(store: NoteStore, folder: Path) -> None:
    engine = health_engine(store, folder)
    plant_health(engine)
    report = engine.health()
    assert [f.state for f in report.side_files] == ["not found", "not found"]
    assert report.side_files[0].path == str(folder / "amem_nightly_owed.json")
    for kind in ("nightly-owed", "nightly-failed"):
        assert report.checks[kind].state == "not checked"
        # Said once: the state names what is wrong, the detail only adds why.
        assert report.checks[kind].detail.count("not found") == 1


def test_amem_tuis_own_failed_nightly_pass_is_reported(store: NoteStore, folder: Path) -> None:
    engine = health_engine(store, folder)
    plant_health(engine)
    plant_clean_side_files(folder)
    # A pass whose one agent cannot be consolidated: its record keeps the error.
    NightlyPass(engine, agents=lambda: ["main", "no such agent!"]).run()
    report = engine.health()
    failed = report.of_kind("nightly-failed")
    assert [(p.severity, p.agent) for p in failed] == [("error", "no such agent!")]
    assert any(run.source == "amem-tui" and run.errors for run in report.nightly)


def problem_kinds(problems: list[Problem]) -> set[str]:
    return {p.kind for p in problems}


def test_the_report_as_json_has_agents_and_problems(store: NoteStore, folder: Path) -> None:
    engine: MemoryEngine = health_engine(store, folder)
    plant_health(engine)
    data = engine.health().to_json()
    assert set(data["agents"]) == {"main", "dev", "sandbox", "ops"}
    first = data["problems"][0]
    assert {"kind", "severity", "agent", "notes", "why"} <= set(first)
    assert first["severity"] == "error"  # the worst first
