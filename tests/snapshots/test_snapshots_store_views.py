"""Snapshots of the whole-store screens: compare two agents, and the overview.

At 80x24 (the smallest supported), 120x40 and a wide size, on the demo with the test
embedder, a fixed clock and fixed ids. Update after a deliberate change with
``pytest tests/snapshots --snapshot-update`` and read every changed SVG first.
"""

from __future__ import annotations

from typing import Any

import pytest

from amem_tui.demo import demo_id
from amem_tui.tui.screens.compare import CompareScreen
from amem_tui.tui.screens.overview import OverviewScreen
from amem_tui.tui.widgets.compared_list import ComparedList
from tests.support.tui import demo_app, demo_engine, settle, snapshot, until

SIZES = {"80x24": (80, 24), "120x40": (120, 40), "200x50": (200, 50)}


def _compare(pilot: Any) -> CompareScreen:
    screen = pilot.app.screen
    assert isinstance(screen, CompareScreen)
    return screen


@pytest.mark.parametrize("size", SIZES)
def test_compare_groups(snap_compare: Any, size: str) -> None:
    async def select_shared_with_main(pilot: Any) -> None:
        # dev's note whose readers name main: only dev finds it, main gets it by id.
        only_dev = _compare(pilot).query_one("#list-b", ComparedList)
        only_dev.table.focus()
        row = [n.id for n in only_dev.entries].index(demo_id("dev-selective"))  # type: ignore[union-attr]
        only_dev.table.move_cursor(row=row)
        await settle(pilot)

    assert snapshot(snap_compare, size=SIZES[size], keys=["v"], then=select_shared_with_main)


@pytest.mark.parametrize("size", ["80x24", "120x40"])
def test_compare_query(snap_compare: Any, size: str) -> None:
    async def search(pilot: Any) -> None:
        _compare(pilot)
        await pilot.press("slash", *"deploy freeze", "enter")
        await settle(pilot)

    assert snapshot(snap_compare, size=SIZES[size], keys=["v"], then=search)


def test_compare_mode_a_with_mode_b(snap_compare: Any) -> None:
    async def choose_sandbox(pilot: Any) -> None:
        screen = _compare(pilot)
        await pilot.click("#compare-b")  # B is dev; the next agent down is sandbox
        await pilot.press("down", "enter")
        await settle(pilot)
        assert screen.scope_b is not None and screen.scope_b.agent == "sandbox"

    assert snapshot(snap_compare, size=SIZES["120x40"], keys=["v"], then=choose_sandbox)


@pytest.mark.parametrize("size", SIZES)
def test_overview(snap_compare: Any, size: str) -> None:
    engine = demo_engine()
    engine.agent("dev").consolidate()  # so that the savings have something to show

    async def shown(pilot: Any) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, OverviewScreen)
        # Drawn in full: the problems (focused once in) and the pictures.
        await until(pilot, lambda: getattr(screen.focused, "id", None) == "health-problems")
        await until(pilot, lambda: screen.pictured is not None)
        await settle(pilot)
        # Drawn again whole: a table drawn while the focus moved may hold an empty
        # segment that a later draw leaves out (invisible, but another SVG).
        figures = screen.query_one("#overview-figures")
        figures.notify_style_update()
        figures.refresh()
        await settle(pilot)

    assert snapshot(snap_compare, demo_app(engine), size=SIZES[size], keys=["o"], then=shown)
