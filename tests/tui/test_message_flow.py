"""Attributes down, messages up: no chain of messages and calls through the app's
widgets comes back to a module it left (A -> B -> A), in a search, in moving through
the panes and in a consolidation from preview to apply."""

from __future__ import annotations

from tests.support.message_flow import traced
from tests.support.tui import demo_app, demo_engine, main_screen, settle, started


async def test_a_search_flows_one_way() -> None:
    app = demo_app(demo_engine(), agent="dev")
    with traced() as trace:
        async with started(app, message_hook=trace.dispatching) as pilot:
            await pilot.press("slash", *"deploy freeze")
            await settle(pilot)
            await pilot.press("ctrl+t")  # the hidden matches, then the hits again
            await settle(pilot)
            await pilot.press("ctrl+t", "down", "down", "tab")
            await settle(pilot)
            await pilot.press("escape")  # the listings come back
            await settle(pilot)
    assert trace.chains, "nothing was traced"
    assert trace.round_trips() == []


async def test_moving_through_the_panes_flows_one_way() -> None:
    app = demo_app(demo_engine(), agent="main")
    with traced() as trace:
        async with started(
            app, size=(80, 24), message_hook=trace.dispatching
        ) as pilot:  # the panes as tabs
            await pilot.press("down", "down", "tab", "down", "tab", "tab", "up")
            await settle(pilot)
    assert trace.chains
    assert trace.round_trips() == []


async def test_a_consolidation_flows_one_way() -> None:
    engine = demo_engine()
    app = demo_app(engine, agent="dev")
    with traced() as trace:
        async with started(app, message_hook=trace.dispatching) as pilot:
            await pilot.press("c")
            await settle(pilot)
            app.screen.query_one("#apply").press()
            await settle(pilot)
            assert engine.agent("dev").history(), "the consolidation was not applied"
            main_screen(app).panes.focus_tab("history")
            await pilot.press("down", "up")
            await settle(pilot)
    assert trace.chains
    assert trace.round_trips() == []
