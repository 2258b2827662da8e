"""Snapshots of the contradiction desk and write health: the Conflicts screen on the
demo's open pair, and the overview with its Health panel and a problem opened.

At 80x24 (the smallest supported), 120x40 and a wide size, on the demo with its desk
plants, the test embedder, a fixed clock and fixed ids. Update after a deliberate
change with ``pytest tests/snapshots --snapshot-update`` and read every changed SVG
first.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import DataTable

from amem_tui.demo_desk import MONITOR, plant_conflicts_and_health
from amem_tui.tui.dialogs.problem_notes import ProblemNotes
from amem_tui.tui.screens.conflicts import ConflictsScreen
from amem_tui.tui.screens.overview import OverviewScreen
from amem_tui.tui.widgets.overview_health import HealthPanel, WritesPerDay
from tests.support.tui import demo_app, demo_engine, settle, snapshot, until

SIZES = {"80x24": (80, 24), "120x40": (120, 40), "200x60": (200, 60)}


@pytest.mark.parametrize("size", SIZES)
def test_conflicts_open_pair(snap_compare: Any, size: str) -> None:
    engine = demo_engine()
    plant_conflicts_and_health(engine)

    async def listed(pilot: Any) -> None:
        app = pilot.app
        await until(pilot, lambda: isinstance(app.screen, ConflictsScreen))
        await until(pilot, lambda: app.screen.listing is not None)
        await settle(pilot)

    app = demo_app(engine, agent=MONITOR)
    assert snapshot(snap_compare, app, size=SIZES[size], keys=["C"], then=listed)


@pytest.mark.parametrize("size", SIZES)
def test_overview_health(snap_compare: Any, size: str) -> None:
    engine = demo_engine()
    plant_conflicts_and_health(engine)

    async def checked(pilot: Any) -> None:
        app = pilot.app
        await until(pilot, lambda: isinstance(app.screen, OverviewScreen))
        await until(pilot, lambda: bool(app.screen.query(WritesPerDay)))
        await until(pilot, lambda: app.screen.pictured is not None)
        await settle(pilot)

    assert snapshot(snap_compare, demo_app(engine), size=SIZES[size], keys=["o"], then=checked)


@pytest.mark.parametrize("size", SIZES)
def test_health_problem_notes(snap_compare: Any, size: str) -> None:
    engine = demo_engine()
    plant_conflicts_and_health(engine)

    async def opened(pilot: Any) -> None:
        app = pilot.app
        await until(pilot, lambda: isinstance(app.screen, OverviewScreen))
        await until(pilot, lambda: bool(app.screen.query(WritesPerDay)))
        await settle(pilot)
        panel = app.screen.query_one(HealthPanel)
        table = panel.query_one(DataTable)
        table.focus()
        table.move_cursor(row=[p.kind for p in panel.problems].index("hollow-notes"))
        await settle(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ProblemNotes))
        await settle(pilot)

    assert snapshot(snap_compare, demo_app(engine), size=SIZES[size], keys=["o"], then=opened)
