"""The inspector at every size: tabs when narrow, every column used, dialogs that fit."""

from __future__ import annotations

from typing import Any

from textual.widgets import Button, DataTable

from amem_tui.tui.dialogs.consolidation import ConsolidationPreview
from amem_tui.tui.dialogs.note_editor import NoteEditor
from amem_tui.tui.screens.help import HelpScreen
from amem_tui.tui.widgets.footer import KeyFooter
from amem_tui.tui.widgets.header import HeaderBar
from amem_tui.tui.widgets.history_pane import HistoryPane
from amem_tui.tui.widgets.note_pane import NotePane
from tests.support.tui import demo_app, demo_engine, main_screen, settle, started

SMALL = (80, 24)
MEDIUM = (120, 40)
WIDE = (200, 50)


def shown_panes(app: Any) -> list[str]:
    screen = main_screen(app)
    return [pane.id or "" for pane in screen.query("#panes > *") if pane.display]


def within_screen(app: Any, widget: Any) -> bool:
    region = widget.region
    width, height = app.size
    return region.width > 0 and region.right <= width and region.bottom <= height


async def test_a_narrow_terminal_shows_one_pane_at_a_time_and_tab_moves_between_them() -> None:
    app = demo_app()
    async with started(app, size=SMALL) as pilot:
        screen = main_screen(app)
        assert shown_panes(app) == ["private"]
        private = screen.query_one("#private", NotePane)
        assert private.region.width == 80  # the whole width, not a third of it
        title = str(private.border_title)
        assert "Private · main (8)" in title and "Shared (4)" in title and "History" in title
        private.table.focus()
        await settle(pilot)
        await pilot.press("tab")
        await settle(pilot)
        assert (
            shown_panes(app) == ["shared"] and screen.browser.focus_area(screen.focused) == "shared"
        )
        await pilot.press("tab")
        await settle(pilot)
        assert (
            shown_panes(app) == ["history"]
            and screen.browser.focus_area(screen.focused) == "history"
        )
        await pilot.press("shift+tab")
        await settle(pilot)
        assert shown_panes(app) == ["shared"]
        # The detail follows the pane the user works in.
        shared = screen.query_one("#shared", NotePane)
        assert screen.selected_id == shared.current_id


async def test_tab_reaches_every_pane_as_tabs_wherever_it_starts() -> None:
    app = demo_app()
    async with started(app, size=SMALL) as pilot:
        screen = main_screen(app)
        screen.panes.history.table.focus()
        await settle(pilot)
        areas = []
        for _ in range(8):  # History, the detail's parts, the search box, then a pane
            await pilot.press("tab")
            await settle(pilot)
            areas.append(screen.browser.focus_area(screen.focused))
            if areas[-1] == "history":
                break
        # Back into the panes at the one on show (History, left last), then the others.
        assert areas[-2:] == ["search", "history"], areas
        for expected in ("private", "shared"):
            await pilot.press("tab")
            await settle(pilot)
            assert shown_panes(app) == [expected]
        # Back the other way: past the first pane to the search box, then around to the
        # detail and into the pane on show.
        for _ in range(3):
            await pilot.press("shift+tab")
            await settle(pilot)
        assert screen.browser.focus_area(screen.focused) == "search"
        for _ in range(8):  # the detail's parts, then a pane
            await pilot.press("shift+tab")
            await settle(pilot)
            if screen.browser.focus_area(screen.focused) in ("history", "private", "shared"):
                break
        assert shown_panes(app) == ["history"]


def focus_round(app: Any) -> str | None:
    """Where the focus is, as the footer names it."""
    screen = main_screen(app)
    return screen.browser.focus_area(screen.focused)


async def test_tab_from_the_search_box_goes_to_the_pane_on_show_then_to_every_other() -> None:
    app = demo_app()
    async with started(app, size=SMALL) as pilot:
        screen = main_screen(app)
        await pilot.press("slash", *"production deploy frozen")
        await settle(pilot)
        # The best hit is shared: its tab is on show, the cursor still in the box.
        assert shown_panes(app) == ["shared"] and focus_round(app) == "search"
        seen = []
        for _ in range(3):
            await pilot.press("tab")
            await settle(pilot)
            seen.append(focus_round(app))
            assert shown_panes(app) == [seen[-1]]
        assert seen == ["shared", "history", "private"]
        await pilot.press("tab")  # every pane seen: on to the detail
        await settle(pilot)
        assert focus_round(app) == "detail"
        back = []
        for _ in range(4):
            await pilot.press("shift+tab")
            await settle(pilot)
            back.append(focus_round(app))
        assert back == ["private", "history", "shared", "search"]
        assert screen.search_box.query_text == "production deploy frozen"
        # Side by side (History steps aside for the hits), Tab goes left to right.
        await pilot.resize_terminal(*MEDIUM)
        await settle(pilot)
        seen = []
        for _ in range(3):
            await pilot.press("tab")
            await settle(pilot)
            seen.append(focus_round(app))
        assert seen == ["private", "shared", "detail"]


async def test_shift_tab_from_the_detail_goes_to_the_pane_on_show_then_to_every_other() -> None:
    app = demo_app()
    async with started(app, size=SMALL) as pilot:
        screen = main_screen(app)
        screen.panes.focus_tab("shared")
        await settle(pilot)
        screen.detail_view.body_scroll.focus()
        await settle(pilot)
        back = []
        for _ in range(4):
            await pilot.press("shift+tab")
            await settle(pilot)
            back.append(focus_round(app))
        assert back == ["shared", "private", "history", "search"]


async def test_the_strip_of_tabs_keeps_up_with_a_count_that_changes() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    async with started(app, size=SMALL) as pilot:
        screen = main_screen(app)
        private, shared = screen.panes.private, screen.panes.shared
        assert "Shared (4)" in str(private.border_title)
        # A shared note written elsewhere, as follow mode merges it.
        note = engine.agent("dev").add("Written while main is on the Private tab", shared=True)
        shared.merge_notes([note], [], shared.listing_total + 1)
        await settle(pilot)
        assert "Shared (5)" in str(private.border_title)


async def test_content_gets_most_of_the_width_at_every_size() -> None:
    for size in (SMALL, MEDIUM, WIDE):
        app = demo_app(agent="dev")
        async with started(app, size=size) as pilot:
            screen = main_screen(app)
            for which in ("private", "shared"):
                pane = screen.query_one(f"#{which}", NotePane)
                screen.panes.focus_tab(which)  # shown, when the panes are tabs
                await settle(pilot)
                table = pane.table
                content = table.columns[next(k for k in table.columns if k.value == "content")]
                assert content.width >= 0.6 * (pane.region.width - 4), (size, which)


async def test_every_column_is_used_and_the_history_is_no_wider_than_it_needs() -> None:
    for size in (MEDIUM, WIDE):
        app = demo_app()
        async with started(app, size=size):
            screen = main_screen(app)
            history = screen.query_one(HistoryPane)
            private = screen.query_one("#private", NotePane)
            detail = screen.query_one("#detail")
            assert history.region.right == size[0]  # the last two columns are drawn
            assert detail.region.right == size[0]
            assert history.region.width < private.region.width
            assert history.region.width <= 40


async def test_the_history_steps_aside_while_hits_are_shown_at_a_medium_width() -> None:
    app = demo_app(agent="dev")
    async with started(app, size=MEDIUM) as pilot:
        await pilot.press("slash", *"deploy freeze", "enter")
        await settle(pilot)
        assert shown_panes(app) == ["private", "shared"]
        await pilot.press("escape")
        await settle(pilot)
        assert shown_panes(app) == ["private", "shared", "history"]
    app = demo_app(agent="dev")
    async with started(app, size=WIDE) as pilot:
        await pilot.press("slash", *"deploy freeze", "enter")
        await settle(pilot)
        assert shown_panes(app) == ["private", "shared", "history"]
        # Hits on screen while the terminal narrows to a medium width, and widens again.
        await pilot.resize_terminal(*MEDIUM)
        await settle(pilot)
        assert shown_panes(app) == ["private", "shared"]
        await pilot.resize_terminal(*WIDE)
        await settle(pilot)
        assert shown_panes(app) == ["private", "shared", "history"]


async def test_the_header_shortens_but_keeps_the_agent_and_the_counts() -> None:
    app = demo_app()
    async with started(app, size=SMALL):
        header = main_screen(app).query_one(HeaderBar)
        line = str(header.render())
        assert len(line) <= header.content_size.width
        assert "main" in line and "Mode A" in line and "visible 12" in line
        assert "…" not in line
        assert "store demo-store" in header.text  # the full line, for whoever asks


async def test_the_footer_fits_after_a_shrink_and_nothing_peeks_out() -> None:
    app = demo_app()
    async with started(app, size=WIDE) as pilot:
        await pilot.resize_terminal(*SMALL)
        await settle(pilot)
        footer = app.screen.query_one(KeyFooter)
        placed = footer.placed()
        palette = next(p for p in placed if p.shown.palette)
        others = [p for p in placed if p is not palette]
        assert footer.region.x + palette.end == SMALL[0]  # up to the last column
        assert max(p.end for p in others) < palette.start - 1  # before the palette's bar
        assert len(placed) == len(footer.keys)  # every chosen key is drawn
        shown = {p.shown.key for p in others}
        assert {"f1", "slash", "q"} <= shown


async def test_undo_keys_and_quit_are_offered_where_they_apply() -> None:
    app = demo_app(agent="dev")
    async with started(app, size=MEDIUM) as pilot:
        footer = {k.key for k in app.screen.query_one(KeyFooter).keys}
        assert "q" in footer and "z" not in footer and "m" not in footer
        main_screen(app).query_one(HistoryPane).focus()
        await settle(pilot)
        footer = {k.key for k in app.screen.query_one(KeyFooter).keys}
        assert {"z", "m"} <= footer
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        keys = {row[0] for row in app.screen.bindings}
        assert {"q", "^q", "z", "m", "tab"} <= keys


async def test_dialogs_fit_a_small_terminal_with_their_buttons_in_view() -> None:
    app = demo_app(agent="dev")
    async with started(app, size=SMALL) as pilot:
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, ConsolidationPreview)
        for button in app.screen.query(Button):
            assert within_screen(app, button), button.id
        assert within_screen(app, app.screen.query_one("ConsolidationPreview > Vertical"))
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, NoteEditor)
        for button in app.screen.query(Button):
            assert within_screen(app, button), button.id
        await pilot.click("#save")
        await settle(pilot)
        assert not isinstance(app.screen, NoteEditor)  # the click reached Save
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        assert within_screen(app, app.screen.query_one("HelpScreen > VerticalScroll"))


async def test_a_row_that_fits_no_pane_is_never_drawn_without_content() -> None:
    # While searching at 80 columns the content column is still there, and wide.
    app = demo_app(agent="dev")
    async with started(app, size=SMALL) as pilot:
        await pilot.press("slash", *"deploy freeze", "enter")
        await settle(pilot)
        screen = main_screen(app)
        pane = screen.query_one(f"#{screen.panes.current_tab}", NotePane)
        table: DataTable[Any] = pane.table
        header = table.render_line(0).text
        assert header.split()[:2] == ["cosine", "match"]
        line = table.render_line(1).text
        # Each column's values sit under its label.
        cosine_end = header.index("cosine") + len("cosine")
        assert line[cosine_end - 4 : cosine_end].strip().replace(".", "").isdigit()
        assert line[header.index("match") :].split()[0] in ("2/2", "1/2", "meaning", "weak")
        assert any(word in line for word in ("Production deploy", "On-call", "Feature"))
