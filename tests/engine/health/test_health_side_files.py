"""openclaw-amem's side files as the health report reads them: where they are, what
they say, and a broken one reported with its path, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amem_tui.config import load_settings
from amem_tui.engine import MemoryEngine
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import fixed_clock, make_engine
from tests.support.health_store import NOW, health_settings, merge_line


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "openclaw"
    (path / "logs").mkdir(parents=True)
    return path


@pytest.fixture
def engine(folder: Path) -> MemoryEngine:
    return make_engine(
        QdrantStore(path=":memory:"), settings=health_settings(folder), clock=fixed_clock(NOW)
    )


def owed(folder: Path, text: str) -> None:
    (folder / "amem_nightly_owed.json").write_text(text, encoding="utf-8")


def log(folder: Path, text: str) -> None:
    (folder / "logs" / "amem-consolidate.log").write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    "text, said",
    [
        ("{not json", "not valid JSON (line 1"),
        ("[1, 2]", 'not an object with an "agents" object'),
        ('{"agents": "dev"}', 'not an object with an "agents" object'),
    ],
)
def test_a_malformed_owed_file_is_a_problem_with_its_path(
    engine: MemoryEngine, folder: Path, text: str, said: str
) -> None:
    owed(folder, text)
    report = engine.health()
    [problem] = report.of_kind("unreadable-side-file")
    path = str(folder / "amem_nightly_owed.json")
    assert problem.path == path and path in problem.why and said in problem.why
    assert report.side_files[0].state == "unreadable"
    assert report.checks["nightly-owed"].state == "not checked"


def test_owed_entries_openclaw_amem_skips_are_named_and_the_rest_read(
    engine: MemoryEngine, folder: Path
) -> None:
    owed(
        folder,
        json.dumps(
            {
                "agents": {
                    "dev": {"from": "2026-11-19T10:00:00.000Z", "wrote": "2026-11-19T10:00:01Z"},
                    "qa": {"from": 42, "wrote": "2026-11-19T10:00:01Z"},
                    "ops": {"wrote": "2026-11-19T10:00:01Z"},
                    "old": {"from": "2026-11-10T10:00:00.000Z", "wrote": "2026-11-10T10:00:01Z"},
                }
            }
        ),
    )
    report = engine.health()
    owed_now = {(p.agent, p.severity) for p in report.of_kind("nightly-owed")}
    assert owed_now == {("dev", "warning"), ("old", "error")}  # 10 days: never merged
    [skipped] = report.of_kind("unreadable-side-file")
    assert "qa" in skipped.why and "ops" in skipped.why
    assert report.owed == {"dev": "2026-11-19T10:00:00Z", "old": "2026-11-10T10:00:00Z"}


def test_an_unreadable_log_is_a_problem_with_its_path(engine: MemoryEngine, folder: Path) -> None:
    (folder / "logs" / "amem-consolidate.log").mkdir()  # a folder where the file should be
    report = engine.health()
    [problem] = report.of_kind("unreadable-side-file")
    assert problem.path == str(folder / "logs" / "amem-consolidate.log")
    assert report.side_files[1].state == "unreadable"


def test_a_log_that_is_not_text_is_a_problem(engine: MemoryEngine, folder: Path) -> None:
    (folder / "logs" / "amem-consolidate.log").write_bytes(b"\xff\xfe\x00garbage\x80")
    report = engine.health()
    assert [p.kind for p in report.problems] == ["unreadable-side-file"]


def test_the_log_is_read_into_runs_and_only_a_recent_failure_counts(
    engine: MemoryEngine, folder: Path
) -> None:
    log(
        folder,
        merge_line("2026-11-01T02:30:01.000Z", "a", "b")
        + "[2026-11-01T02:30:02.000Z] [Consolidation] Failed to write log: EACCES\n"
        + merge_line("2026-11-19T02:30:01.000Z", "c", "d")
        + merge_line("2026-11-19T02:31:01.000Z", "e", "f")
        + "[2026-11-19T02:31:30.000Z] [Consolidation] Completed consolidation run.\n",
    )
    report = engine.health()
    assert report.of_kind("nightly-failed") == []  # the failure is 19 days old
    runs = [(r.started_at, r.merges, r.status) for r in report.nightly]
    assert runs == [
        ("2026-11-19T02:30:01Z", 2, "done"),
        ("2026-11-01T02:30:01Z", 1, "failed"),
    ]
    assert report.checks["nightly-failed"].state == "ok"


def test_side_files_are_found_beside_the_openclaw_json_in_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "elsewhere" / "openclaw.json"
    config.parent.mkdir()
    config.write_text("{}", encoding="utf-8")
    assert load_settings({"config_file": config}, env={}).openclaw_folder == config.parent
    assert load_settings({}, env={}).openclaw_folder == Path.home() / ".openclaw"
    chosen = tmp_path / "chosen"
    env = {"AMEM_OPENCLAW_DIR": str(chosen)}
    assert load_settings({"config_file": config}, env=env).openclaw_folder == chosen
