"""The power-user keys keep attributes down and messages up: filtering, sorting and
marking a pane, and a bulk write, come back to no module they left."""

from __future__ import annotations

from tests.support.message_flow import traced
from tests.support.tui import demo_app, demo_engine, main_screen, settle, started


async def test_filter_sort_and_marks_flow_one_way() -> None:
    app = demo_app(demo_engine())
    with traced() as trace:
        async with started(app, message_hook=trace.dispatching) as pilot:
            await pilot.press("F", *"standup", "enter", "S", "I", "asterisk")
            await settle(pilot)
            await pilot.press("escape", "space", "escape")
            await settle(pilot)
            await pilot.press("space", "space", "d", "y")  # a bulk delete
            await settle(pilot)
    assert trace.chains, "nothing was traced"
    assert trace.round_trips() == []


async def test_going_to_a_compared_note_flows_one_way() -> None:
    app = demo_app(demo_engine())
    with traced() as trace:
        async with started(app, message_hook=trace.dispatching) as pilot:
            await pilot.press("v")
            await settle(pilot)
            await pilot.press("enter")  # the first note only main sees
            await settle(pilot)
            assert app.screen is main_screen(app)
    assert trace.chains
    # The compare screen's own lists still answer its questions about what they just
    # said (they did before the jump existed); the jump adds no round trip.
    inside = {"amem_tui.tui.screens.compare", "amem_tui.tui.widgets.compared_list"}
    assert [chain for chain in trace.round_trips() if not set(chain) <= inside] == []
