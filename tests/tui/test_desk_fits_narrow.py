"""The Conflicts screen and the overview's Health panel at 80x24, 120x40 and 200x60:
their tables fit the width (no sideways scrolling, long cells cut with an ellipsis) and
a side's fields stay on their label's line."""

from __future__ import annotations

from typing import Any

from textual.widgets import DataTable

from amem_tui.demo_desk import MONITOR, plant_conflicts_and_health
from amem_tui.tui.screens.conflicts import ConflictsScreen
from amem_tui.tui.screens.overview import OverviewScreen
from amem_tui.tui.widgets.overview_health import HealthPanel, WritesPerDay
from tests.support.tui import demo_app, demo_engine, screen_lines, settle, started, until

SIZES = [(80, 24), (120, 40), (200, 60)]


def fits(table: DataTable[Any]) -> bool:
    return table.max_scroll_x == 0 and table.virtual_size.width <= table.size.width


def cells(table: DataTable[Any], column: int) -> list[str]:
    return [str(table.get_row_at(i)[column]) for i in range(table.row_count)]


async def test_the_conflicts_list_and_the_sides_fit_the_width() -> None:
    for size in SIZES:
        await conflicts_fit(size)


async def conflicts_fit(size: tuple[int, int]) -> None:
    engine = demo_engine()
    plant_conflicts_and_health(engine)
    app = demo_app(engine, agent="main")
    async with started(app, size=size) as pilot:
        await pilot.press("C")
        await until(pilot, lambda: isinstance(app.screen, ConflictsScreen))
        await until(pilot, lambda: app.screen.listing is not None)
        await settle(pilot)
        table = app.screen.query_one("#conflicts-table", DataTable)
        assert table.row_count and fits(table)
        [reason] = cells(table, 4)
        pair = app.screen.listing.pairs[0]
        assert reason.endswith("…") if size[0] == 80 else reason == pair.reason
        lines = screen_lines(app)
        # Each field on its label's line, on both sides, however narrow.
        assert any("scope" in line and "private (amem_notes)" in line for line in lines)
        assert any(line.count("written ") == 2 and line.count("2026-") == 2 for line in lines)


async def test_the_health_problems_fit_the_width() -> None:
    for size in SIZES:
        await health_fits(size)


async def health_fits(size: tuple[int, int]) -> None:
    engine = demo_engine()
    plant_conflicts_and_health(engine)
    app = demo_app(engine, agent=MONITOR)
    async with started(app, size=size) as pilot:
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, OverviewScreen))
        await until(pilot, lambda: bool(app.screen.query(WritesPerDay)))
        await settle(pilot)
        panel = app.screen.query_one(HealthPanel)
        table = panel.query_one(DataTable)
        assert table.row_count == len(panel.problems) and fits(table)
        whys = cells(table, 4)
        if size[0] == 80:
            assert any(why.endswith("…") for why in whys)
        if size[0] == 200:
            assert whys == [p.why for p in panel.problems]
