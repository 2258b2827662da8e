"""The TUI when the store goes away and comes back, and when others change it."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from amem_tui.tui.screens.main import MainScreen
from tests.support.faults import FlakyStore
from tests.support.tui import (
    demo_app,
    demo_engine,
    pane,
    row_ids,
    screen_lines,
    settle,
    started,
)


def banner(app: Any) -> Static:
    screen = app.screen
    assert isinstance(screen, MainScreen)
    return screen.query_one("#store-banner", Static)


async def test_banner_while_the_store_is_down_cleared_when_it_is_back() -> None:
    engine = demo_engine()
    flaky = FlakyStore(engine.store)
    engine.store = flaky  # type: ignore[assignment]
    app = demo_app(engine)
    async with started(app) as pilot:
        before = row_ids(pane(app, "private"))
        assert before and not banner(app).display
        search_y = app.screen.query_one("#search").region.y
        assert banner(app).region.height == 0  # hidden: it takes no row
        flaky.down = True
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert banner(app).display
        assert "Store unavailable" in str(banner(app).render())
        height = banner(app).region.height
        assert height >= 1
        assert app.screen.query_one("#search").region.y == search_y + height
        assert row_ids(pane(app, "private")) == before  # what was shown stays; nothing crashed
        await pilot.press("slash")
        await pilot.press(*"deploy")
        await settle(pilot)
        assert banner(app).display and app.is_running
        flaky.down = False
        await pilot.press("escape")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert not banner(app).display
        assert app.screen.query_one("#search").region.y == search_y
        assert row_ids(pane(app, "private")) == before


async def test_a_long_outage_banner_wraps_and_is_read_to_its_end() -> None:
    engine = demo_engine()
    flaky = FlakyStore(engine.store)
    engine.store = flaky  # type: ignore[assignment]
    flaky.reason = (
        "[Errno 111] Connection refused (http://127.0.0.1:6399): the Qdrant server did not "
        "answer within 5 seconds"
    )
    app = demo_app(engine)
    async with started(app, size=(120, 40)) as pilot:
        flaky.down = True
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert banner(app).display and banner(app).region.height > 1
        shown = " ".join(" ".join(screen_lines(app)).split())
        assert "Nothing was half-written; refresh (F5) once it is back." in shown
        assert "(http://127.0.0.1:6399)" in shown


async def test_reload_shows_changes_made_elsewhere() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    async with started(app) as pilot:
        note = engine.agent("main").add("Written elsewhere: shows only after a reload")
        for _ in range(5):
            await pilot.pause(0.1)
        assert note.id not in row_ids(pane(app, "private"))
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert note.id in row_ids(pane(app, "private"))
