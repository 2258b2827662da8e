"""Snapshots of the detail's Versions tab (V) at 80x24 and 120x40: main's trip note,
edited three times, with version 3 highlighted (the seat it changed, struck through and
underlined), and the demo's note as it was found listed as an outside change."""

from __future__ import annotations

from typing import Any

import pytest

from amem_tui.demo import demo_id
from tests.support.tui import demo_app, demo_engine, press_on_note, settle, snapshot, until

TRIP = demo_id("main-trip")
EDITS = (
    "Flight to Lisbon for the offsite is booked for December 15, seat 12A",
    "Flight to Lisbon for the offsite is booked for December 15, seat 3C",
    "Train to Lisbon for the offsite is booked for December 15, coach 3",
)


async def _versions_of_trip(pilot: Any) -> None:
    screen = await press_on_note(pilot, TRIP, "V")
    await until(pilot, lambda: screen.detail_view.versions.history is not None)
    await pilot.press("down")
    await settle(pilot)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_versions_tab(snap_compare: Any, size: tuple[int, int]) -> None:
    engine = demo_engine()
    for content in EDITS:
        engine.agent("main").update(TRIP, content=content)
    app = demo_app(engine, agent="main")
    assert snapshot(snap_compare, app, size=size, then=_versions_of_trip)
