"""What newcomers reach for: ``?`` for help (and how to leave it), the palette found by
the words people say, and help rows that say how two keys for one thing differ."""

from __future__ import annotations

from amem_tui.demo import demo_id
from amem_tui.tui.screens.graph import GraphScreen
from amem_tui.tui.screens.help import HelpScreen
from amem_tui.tui.screens.main import MainScreen
from tests.support.tui import demo_app, screen_lines, select, settle, started


async def test_question_mark_opens_help_which_says_how_to_close_it() -> None:
    app = demo_app()
    async with started(app, size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        assert "Escape, q, F1 or ? closes this page" in " ".join(screen_lines(app))
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)


async def test_question_mark_in_the_search_box_is_typed() -> None:
    app = demo_app()
    async with started(app, size=(120, 40)) as pilot:
        await pilot.press("slash", *"why", "question_mark")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.screen.focused is not None and getattr(app.screen.focused, "value", "") == "why?"


async def test_the_palette_finds_the_link_graph_under_graph() -> None:
    app = demo_app()
    async with started(app, size=(120, 40)) as pilot:
        await select(pilot, "private", demo_id("main-vendor"))
        await pilot.press("ctrl+p", *"graph")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, GraphScreen)


async def test_help_says_how_the_second_key_for_hidden_and_quit_differs() -> None:
    app = demo_app()
    async with started(app, size=(120, 40)) as pilot:
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        rows = {binding_id: (key, does) for key, does, binding_id in app.screen.bindings}
        assert rows["toggle_hidden"][1] != rows["toggle_hidden_anywhere"][1]
        assert rows["quit"][1] != rows["quit_anywhere"][1]
        descriptions = [does for _, does, _ in app.screen.bindings]
        assert len(descriptions) == len(set(descriptions)), "two rows of help say the same"
