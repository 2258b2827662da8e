"""Snapshots of the contradiction desk: the Conflicts screen on the demo's open pair.

At 80x24 (the smallest supported), 120x40 and a wide size, on the demo with its desk
plants, the test embedder, a fixed clock and fixed ids. Update after a deliberate
change with ``pytest tests/snapshots --snapshot-update`` and read every changed SVG
first.
"""

from __future__ import annotations

from typing import Any

import pytest

from amem_tui.demo_desk import MONITOR, plant_conflicts_and_health
from amem_tui.tui.screens.conflicts import ConflictsScreen
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
