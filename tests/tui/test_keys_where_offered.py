"""A key the inspector offers (footer, help) acts wherever it is offered, or says why
not: the get-only listing's g from either pane, Enter on a row."""

from __future__ import annotations

from typing import Any

import pytest
from textual import events

from amem_tui.demo import demo_id
from amem_tui.tui.screens.help import HelpScreen
from amem_tui.tui.widgets.footer import KeyFooter
from amem_tui.tui.widgets.note_pane import NotePane
from tests.support.tui import demo_app, main_screen, pane, row_ids, said, settle, started, until

SMALL = (80, 24)
MEDIUM = (120, 40)


async def on_private_rows(pilot: Any) -> NotePane:
    """The Private pane, with the focus on its rows."""
    private = pane(pilot.app)
    private.table.focus()
    await settle(pilot)
    return private


@pytest.mark.parametrize("size", [SMALL, MEDIUM])
async def test_g_in_the_private_pane_lists_the_get_only_notes_in_the_shared_one(
    size: tuple[int, int],
) -> None:
    app = demo_app()
    async with started(app, size=size) as pilot:
        main = main_screen(app)
        shared = pane(app, "shared")
        await on_private_rows(pilot)
        await pilot.press("g")
        await until(pilot, lambda: row_ids(shared) == [demo_id("dev-selective")])
        # The Shared pane is on show (its tab, when narrow) and worked in.
        assert main.panes.working == "shared" and main.browser.focus_area(main.focused) == "shared"
        assert main.panes.current_tab == "shared"
        assert main.detail_view.note_id == demo_id("dev-selective")
        await pilot.press("g")  # and back to the shared scope, from the pane itself
        await until(pilot, lambda: demo_id("shared-snake") in row_ids(shared))


async def test_g_says_why_when_the_agent_has_no_shared_scope() -> None:
    app = demo_app(agent="sandbox")
    async with started(app) as pilot:
        await on_private_rows(pilot)
        await pilot.press("g")
        await settle(pilot)
        assert "no shared scope" in said(app)
        assert main_screen(app).panes.working == "private"


@pytest.mark.parametrize("size", [SMALL, MEDIUM])
async def test_enter_on_a_row_opens_the_note_in_the_detail_and_escape_comes_back(
    size: tuple[int, int],
) -> None:
    app = demo_app()
    async with started(app, size=size) as pilot:
        main = main_screen(app)
        await pilot.press("slash", *"production deploy frozen", "enter")  # into the hits
        await settle(pilot)
        assert main.browser.focus_area(main.focused) == "shared"
        subject = main.selected_id
        await pilot.press("enter")
        await settle(pilot)
        assert main.focused is main.detail_view.body_scroll
        assert main.detail_view.note_id == subject
        await pilot.press("escape")  # back to the row; the query stays
        await settle(pilot)
        assert main.browser.focus_area(main.focused) == "shared"
        assert main.panes.current_tab == "shared" and main.selected_id == subject
        assert main.search_box.query_text == "production deploy frozen"
        await pilot.press("escape")  # then the query goes
        await settle(pilot)
        assert main.search_box.query_text == ""


async def test_enter_on_a_run_opens_it_and_the_footer_and_help_offer_enter() -> None:
    app = demo_app(agent="dev")
    async with started(app, size=MEDIUM) as pilot:
        main = main_screen(app)
        await on_private_rows(pilot)
        assert "Open" in footer_descriptions(app)
        await pilot.press("c")  # consolidate dev: the preview, then apply
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        main.panes.history.table.focus()
        await settle(pilot)
        assert main.panes.history.current_run is not None
        await pilot.press("enter")
        await settle(pilot)
        assert main.browser.focus_area(main.focused) == "history"
        assert main.detail_view.has_focus_within
        await pilot.press("escape")
        await settle(pilot)
        assert main.focused is main.panes.history.table
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        assert ("⏎", "Open", "open") in app.screen.bindings


def footer_descriptions(app: Any) -> list[str]:
    """What the footer's keys say."""
    return [key.description for key in main_screen(app).query_one(KeyFooter).keys]


async def test_enter_after_a_burst_of_keys_opens_the_row_they_moved_to() -> None:
    app = demo_app()
    async with started(app) as pilot:
        main = main_screen(app)
        private = await on_private_rows(pilot)
        # Typed faster than they are handled: Enter comes after the cursor moves.
        for key in ("down", "down", "enter"):
            app.post_message(events.Key(key, None))
        await settle(pilot)
        assert main.focused is main.detail_view.body_scroll
        assert main.selected_id == row_ids(private)[2] == main.detail_view.note_id
        assert main.detail_view.body_scroll.scroll_y == 0


async def test_escape_down_enter_in_a_burst_opens_the_next_row() -> None:
    app = demo_app()
    async with started(app) as pilot:
        main = main_screen(app)
        private = await on_private_rows(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert main.focused is main.detail_view.body_scroll
        # Back to the row, one down, and open it: typed faster than they are handled.
        for key in ("escape", "down", "enter"):
            app.post_message(events.Key(key, None))
        await settle(pilot)
        assert main.focused is main.detail_view.body_scroll
        assert main.selected_id == row_ids(private)[1] == main.detail_view.note_id


async def test_a_click_on_the_highlighted_row_opens_it_and_on_another_moves_to_it() -> None:
    app = demo_app()
    async with started(app) as pilot:
        main = main_screen(app)
        private = await on_private_rows(pilot)
        table = private.table
        await pilot.click(table, offset=(4, 2))  # the second row: the cursor moves there
        await settle(pilot)
        assert main.focused is table and main.selected_id == row_ids(private)[1]
        await pilot.click(table, offset=(4, 2))  # the highlighted row: it opens
        await settle(pilot)
        assert main.focused is main.detail_view.body_scroll
        assert main.detail_view.note_id == row_ids(private)[1]


async def test_a_footer_key_is_named_on_hover_and_pressed_by_a_click() -> None:
    app = demo_app()
    async with started(app, size=MEDIUM) as pilot:
        footer = main_screen(app).query_one(KeyFooter)
        help_key = next(place for place in footer.placed() if place.shown.key == "f1")
        palette = next(place for place in footer.placed() if place.shown.palette)
        await pilot.hover(KeyFooter, offset=(palette.start + 1, 0))
        assert footer.hovered == palette.shown
        assert footer.tooltip and footer.tooltip == palette.shown.tooltip
        await pilot.hover(KeyFooter, offset=(help_key.start + 1, 0))
        assert footer.hovered == help_key.shown
        await pilot.click(KeyFooter, offset=(help_key.end, 0))  # the gap after it
        await settle(pilot)
        assert app.screen is main_screen(app)
        await pilot.click(KeyFooter, offset=(help_key.start, 0))
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)


async def test_the_footer_follows_the_focus_to_the_search_box_and_back() -> None:
    app = demo_app()
    async with started(app, size=MEDIUM) as pilot:
        await on_private_rows(pilot)
        on_rows = footer_descriptions(app)
        await pilot.press("slash")
        await settle(pilot)
        in_box = footer_descriptions(app)
        # Where a query is typed: its history and save-as-check keys, not the rows' keys.
        assert in_box[:3] == ["Previous query", "Recent queries", "Save as check"]
        assert "Publish" in on_rows and "Publish" not in in_box
        await pilot.press("escape")
        await settle(pilot)
        assert footer_descriptions(app) == on_rows
