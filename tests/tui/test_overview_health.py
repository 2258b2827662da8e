"""The overview's Health panel and writes per agent per day: the problems of ``health``
most severe first, Enter opening one (its notes listed, Enter on one going to it as the
problem's agent; a problem with no note saying so), and a silent agent's row saying so."""

from __future__ import annotations

from typing import Any

from textual.widgets import DataTable, Label, Static

from amem_tui.demo_desk import MONITOR, plant_conflicts_and_health
from amem_tui.tui.dialogs.problem_notes import ProblemNotes
from amem_tui.tui.screens.overview import OverviewScreen
from amem_tui.tui.widgets.overview_health import HealthPanel, WritesPerDay
from tests.support.tui import demo_app, demo_engine, main_screen, settle, started, until


async def open_health(pilot: Any) -> OverviewScreen:
    app = pilot.app
    await pilot.press("o")
    await until(pilot, lambda: isinstance(app.screen, OverviewScreen))
    await until(pilot, lambda: bool(app.screen.query(WritesPerDay)))
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, OverviewScreen)
    return screen


def chart_rows(screen: OverviewScreen) -> dict[str, str]:
    chart = screen.query_one(WritesPerDay)
    labels = [str(label.render()) for label in chart.query(Label)]
    return dict(zip(labels[0:-1:2], labels[1:-1:2], strict=True))


async def test_problems_by_severity_and_enter_goes_to_the_note() -> None:
    engine = demo_engine()
    plant_conflicts_and_health(engine)
    report = engine.health()
    app = demo_app(engine)  # as main: the note behind the problem is monitor's own
    async with started(app) as pilot:
        screen = await open_health(pilot)
        panel = screen.query_one(HealthPanel)
        table = panel.query_one(DataTable)
        cells = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        assert len(cells) == len(report.problems)
        severities = [row[0] for row in cells]
        assert severities == sorted(severities, key=["error", "warning", "info"].index)
        assert cells[0][:3] == ["error", "silent-agent", MONITOR]
        rows = chart_rows(screen)
        assert [agent for agent, words in rows.items() if "SILENT" in words] == [MONITOR]
        hollow = next(i for i, p in enumerate(panel.problems) if p.kind == "hollow-notes")
        notes = panel.problems[hollow].notes
        assert len(notes) > 2
        table.focus()
        table.move_cursor(row=hollow)
        await settle(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ProblemNotes))
        await settle(pilot)
        listing = app.screen.query_one("#problem-notes", DataTable)
        listed = [row.id for row in app.screen.rows]
        assert listed == notes and listing.row_count == len(notes)  # all, not the first
        assert {row.owner for row in app.screen.rows} == {MONITOR}
        assert all(row.words and not row.words.startswith("(") for row in app.screen.rows)
        await pilot.press("down", "down", "enter")
        main = main_screen(app)
        await until(pilot, lambda: app.screen is main)
        await until(pilot, lambda: main.scope is not None and main.scope.agent == MONITOR)
        await until(pilot, lambda: main.selected_id == notes[2])


async def test_a_problem_with_no_note_says_so() -> None:
    engine = demo_engine()
    plant_conflicts_and_health(engine)
    async with started(demo_app(engine)) as pilot:
        screen = await open_health(pilot)
        panel = screen.query_one(HealthPanel)
        table = panel.query_one(DataTable)
        silent = next(i for i, p in enumerate(panel.problems) if p.kind == "silent-agent")
        assert not panel.problems[silent].notes
        table.focus()
        table.move_cursor(row=silent)
        await settle(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, ProblemNotes))
        await settle(pilot)
        dialog = pilot.app.screen
        words = " ".join(str(s.render()) for s in dialog.query(Static))
        assert "No note behind this problem" in words
        assert panel.problems[silent].why in " ".join(words.split("\n"))
        await pilot.press("escape")
        await until(pilot, lambda: pilot.app.screen is screen)


async def test_without_the_plants_no_agent_is_silent() -> None:
    async with started(agent="main") as pilot:
        screen = await open_health(pilot)
        rows = chart_rows(screen)
        assert set(rows) == {"main", "dev", "sandbox"}
        assert not any("SILENT" in words for words in rows.values())
        kinds = [p.kind for p in screen.query_one(HealthPanel).problems]
        assert "silent-agent" not in kinds


async def test_the_overview_opens_on_its_problems_and_enter_opens_the_first() -> None:
    engine = demo_engine()
    plant_conflicts_and_health(engine)
    app = demo_app(engine)
    async with started(app, size=(80, 24)) as pilot:
        screen = await open_health(pilot)
        first = screen.query_one(HealthPanel).problems[0]
        await pilot.press("enter")  # no Tab first
        await until(pilot, lambda: isinstance(app.screen, ProblemNotes))
        assert app.screen.problem == first
