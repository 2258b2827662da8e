"""Snapshots of the memory graph (n) at 80x24 and 120x40: dev on the shared freeze
note, whose link to main's private trip note is counted and never named; main on the
same note, with that link marked as crossing scopes."""

from __future__ import annotations

from typing import Any

import pytest

from amem_tui.demo import demo_id
from tests.support.tui import demo_app, press_on_note, snapshot


async def _graph_of_freeze(pilot: Any) -> None:
    await press_on_note(pilot, demo_id("shared-freeze"), "n")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("agent", ["dev", "main"])
def test_memory_graph(snap_compare: Any, agent: str, size: tuple[int, int]) -> None:
    assert snapshot(snap_compare, demo_app(agent=agent), size=size, then=_graph_of_freeze)
