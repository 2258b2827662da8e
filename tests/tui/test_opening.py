"""The first frame is the layout, empty, while the store opens in a worker."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from textual.widgets import DataTable, Input

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import StoreUnavailable
from amem_tui.tui.app import AmemApp
from amem_tui.tui.screens.main import MainScreen
from amem_tui.tui.screens.opening import OpeningScreen
from tests.support.tui import SIZE, demo_engine, settle


async def test_the_layout_shows_before_the_store_opens_then_fills() -> None:
    release = threading.Event()
    engine = demo_engine()

    def opener() -> MemoryEngine:
        release.wait(10)
        return engine

    app = AmemApp(opener=opener, store_label="demo-store", agent_hint="dev", user_config=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, OpeningScreen)
        # The layout is the first screen: no empty screen is laid out and drawn first.
        assert app.screen_stack == [app.screen]
        assert not app.engine_open
        titles = [str(pane.border_title) for pane in app.screen.query("TabbedPane")]
        assert titles == ["Private", "Shared", "Consolidation history"]
        header = str(app.screen.query_one("#header").render())
        assert "amem-tui" in header and "demo-store" in header
        await pilot.press("slash", "x")  # keys while opening are harmless
        release.set()
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.engine is engine
        await pilot.press("escape", "escape")  # the main screen stays, over the layout
        assert isinstance(app.screen, MainScreen)
        private: Any = app.screen.query_one("#private")
        assert private.query_one(DataTable).row_count > 0


async def test_the_opening_screen_is_tabs_when_narrow() -> None:
    release = threading.Event()

    def opener() -> MemoryEngine:
        release.wait(10)
        return demo_engine()

    app = AmemApp(opener=opener, user_config=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = [pane for pane in app.screen.query("TabbedPane") if pane.display]
        assert len(shown) == 1
        assert "Shared" in str(shown[0].border_title)  # the strip names every tab
        release.set()
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)


async def test_a_store_that_will_not_open_ends_the_app_with_its_error() -> None:
    refusal = StoreUnavailable("store unavailable: held by another process")

    def opener() -> MemoryEngine:
        raise refusal

    app = AmemApp(opener=opener, user_config=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
    assert app.start_error is refusal
    assert app.return_code == refusal.exit_code == 5
    assert not app.engine_open


def test_an_app_takes_an_engine_or_an_opener() -> None:
    engine = demo_engine()
    with pytest.raises(ValueError, match="engine or an opener"):
        AmemApp(engine, opener=lambda: engine)
    with pytest.raises(ValueError, match="engine or an opener"):
        AmemApp()


async def test_a_query_typed_while_the_store_opens_is_searched_once_it_is_open() -> None:
    release = threading.Event()
    engine = demo_engine()

    def opener() -> MemoryEngine:
        release.wait(10)
        return engine

    app = AmemApp(opener=opener, agent="dev", user_config=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("slash", *"deploy freeze")
        release.set()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        box = screen.query_one("#search", Input)
        assert box.value == "deploy freeze" and app.focused is box
        private: Any = screen.query_one("#private")
        shared: Any = screen.query_one("#shared")
        assert private.searching and shared.searching  # the typed query was searched


async def test_q_quits_while_the_store_opens() -> None:
    release = threading.Event()

    def opener() -> MemoryEngine:
        release.wait(10)
        return demo_engine()

    app = AmemApp(opener=opener, user_config=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        release.set()
    assert app.return_code == 0
