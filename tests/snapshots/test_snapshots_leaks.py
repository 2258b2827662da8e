"""Snapshots of the Leaks screen (L) on the demo store with its planted leaks
(``demo --leaks``), at 80x24 and 120x40: one row per finding, grouped by pair of
agents, the most severe first within a pair."""

from __future__ import annotations

from typing import Any

import pytest

from amem_tui.demo import seed_demo
from amem_tui.tui.screens.leaks import LeaksScreen
from tests.support.tui import demo_app, demo_engine, settle, snapshot, until


async def _leaks(pilot: Any) -> None:
    await pilot.press("L")
    await until(pilot, lambda: isinstance(pilot.app.screen, LeaksScreen))
    await until(pilot, lambda: pilot.app.screen.report is not None)
    await settle(pilot)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_leaks_screen(snap_compare: Any, size: tuple[int, int]) -> None:
    engine = demo_engine(seed=False)
    seed_demo(engine, leak_cases=True)
    assert snapshot(snap_compare, demo_app(engine), size=size, then=_leaks)
