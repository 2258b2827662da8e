"""The demo's plants for the contradiction desk and the health report: monitor's notes show
a silent agent, hollow notes, a pending merge, an open pair and a settled one, and
leave what every other agent sees as it was."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from amem_tui.cli import main
from amem_tui.demo import demo_id
from amem_tui.demo_desk import MONITOR, plant_conflicts_and_health
from amem_tui.engine import MemoryEngine
from amem_tui.engine.embed import TEST_MODEL
from tests.support.cli import run
from tests.support.engines import FIXED_NOW, MovableClock
from tests.support.tui import demo_engine


def views(engine: MemoryEngine) -> dict[str, list[str]]:
    return {
        agent: [n.id for n in engine.agent(agent).list_notes("visible", limit=100).notes]
        for agent in ("main", "dev", "sandbox")
    }


def test_the_plants_show_on_the_desk_and_in_the_report() -> None:
    engine = demo_engine()
    before = views(engine)
    plant_conflicts_and_health(engine)
    assert views(engine) == before  # main, dev and sandbox see what they saw
    report = engine.health()
    found = {(p.kind, p.severity) for p in report.problems if p.agent == MONITOR}
    assert {("silent-agent", "error"), ("hollow-notes", "warning")} <= found
    assert any(kind == "merge-backlog" for kind, _ in found)
    desk = engine.agent(MONITOR).conflicts.list()
    assert [set(p.ids) for p in desk.pairs] == [
        {demo_id("ops-backup-late"), demo_id("ops-backup-early")}
    ]
    [decision] = [r for r in engine.agent(MONITOR).history() if r.settles is not None]
    assert decision.id == demo_id("ops-pager-decision")
    assert decision.started_at.startswith("2026-11-08")  # on the demo's calendar
    assert not engine.agent(MONITOR).get(demo_id("ops-pager-old")).active


def test_planting_again_changes_nothing() -> None:
    engine = demo_engine()
    plant_conflicts_and_health(engine)
    runs = engine.agent(MONITOR).history()
    engine.agent(MONITOR).undo(runs[0].id)  # the user takes the decision back
    after_undo = engine.agent(MONITOR).history()
    plant_conflicts_and_health(engine)
    assert engine.agent(MONITOR).history() == after_undo  # not decided again
    assert engine.agent(MONITOR).get(demo_id("ops-pager-old")).active


def test_the_demo_command_plants_them(tmp_path: Path) -> None:
    store = tmp_path / "demo"
    done = run(["demo", "--no-tui", "--store", str(store)], tmp_path)
    assert done.returncode == 0, done.stderr
    history = run(["--store", str(store), "--agent", MONITOR, "history", "--json"], tmp_path)
    assert history.returncode == 0, history.stderr
    assert [r["trigger"] for r in json.loads(history.stdout)] == ["resolve"]


@pytest.mark.parametrize("made", [datetime(2027, 6, 1, 14, 25, tzinfo=UTC), FIXED_NOW])
def test_the_demo_shows_one_silent_agent_whatever_day_it_is_made(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    made: datetime,
) -> None:
    # The health report reads the engine's clock: a demo dated on a fixed calendar
    # would show every agent silent a few weeks later.
    clock, opened = MovableClock(made), MemoryEngine.__init__

    def at_made(engine: MemoryEngine, *args: Any, **options: Any) -> None:
        opened(engine, *args, **{**options, "clock": clock})

    monkeypatch.setattr(MemoryEngine, "__init__", at_made)
    store = ["--store", str(tmp_path / "demo"), "--model", TEST_MODEL]
    assert main([*store, "demo", "--no-tui"]) == 0
    clock.set(made + timedelta(hours=3))
    capsys.readouterr()
    main([*store, "health", "--json"])
    report = json.loads(capsys.readouterr().out)
    silent = {p["agent"] for p in report["problems"] if p["kind"] == "silent-agent"}
    assert silent == {MONITOR}
    assert report["agents"]["dev"]["last_write"] < made.isoformat()
