"""Live search without a debounce: latest wins, one search at a time, stale results dropped."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from textual import events
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Input, Static

from amem_tui.demo import demo_id
from amem_tui.engine.engine import MemoryEngine
from amem_tui.tui.screens.main import MainScreen
from amem_tui.tui.widgets import search_box
from amem_tui.tui.widgets.browser import DETAIL_AFTER_SEARCH
from amem_tui.tui.widgets.note_pane import NotePane
from amem_tui.tui.widgets.search_box import SearchBox
from tests.support.engines import wrap_view_calls
from tests.support.tui import (
    demo_app,
    demo_engine,
    main_screen,
    messages_held,
    screen_lines,
    search_status,
    settle,
    started,
    until,
)

#: A safety net so a broken test ends instead of hanging; never a timing assertion.
GATE_LIMIT = 60.0


class GatedSearch:
    """Wraps the views' search: records each call and holds it until the gate opens."""

    def __init__(self, engine: MemoryEngine) -> None:
        self.gate = threading.Event()
        self.calls: list[tuple[str, str]] = []
        #: Queries whose search ran to the end (a search typed over stops early).
        self.finished: list[str] = []
        self.started = threading.Event()
        self.active = 0
        self.most_active = 0
        self._lock = threading.Lock()
        wrap_view_calls(engine, "search", self)

    def __call__(self, view: Any, search: Any, query: str, **kwargs: Any) -> Any:
        with self._lock:
            self.calls.append((view.scope.agent, query))
            self.active += 1
            self.most_active = max(self.most_active, self.active)
        self.started.set()
        try:
            self.gate.wait(GATE_LIMIT)
            result = search(query, **kwargs)
            self.finished.append(query)
            return result
        finally:
            with self._lock:
                self.active -= 1


def record_shown(app: Any) -> list[str]:
    """Every query whose hits reach the private pane, in order."""
    shown: list[str] = []
    pane = main_screen(app).query_one("#private", NotePane)
    original = pane.show_hits

    def show_hits(hits: Any, query: str) -> None:
        shown.append(query)
        original(hits, query)

    pane.show_hits = show_hits  # type: ignore[method-assign]
    return shown


async def wait_started(pilot: Any, gated: GatedSearch) -> None:
    """Let the app run until the first search thread has entered the engine."""
    for _ in range(500):
        if gated.started.is_set():
            return
        await pilot.pause()
    raise AssertionError("no search started")


async def test_typing_fast_searches_the_first_key_then_only_the_final_text() -> None:
    engine = demo_engine()
    gated = GatedSearch(engine)
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        shown = record_shown(app)
        await pilot.press("slash", "f")
        await wait_started(pilot, gated)  # the first key searched at once, no debounce
        # The first search is still running: every further key only replaces the
        # waiting text.
        await pilot.press(*"rozen deploy")
        assert gated.calls == [("dev", "f")]
        gated.gate.set()
        await settle(pilot)
        assert gated.calls == [("dev", "f"), ("dev", "frozen deploy")]
        assert gated.most_active == 1
        assert shown == ["frozen deploy"]  # the stale "f" never reached the panes
        assert " · for 'frozen deploy' as dev" in search_status(app)
        assert demo_id("shared-freeze") in main_screen(app).query_one("#shared", NotePane).hits


async def test_a_search_typed_over_stops_before_reading_its_notes() -> None:
    engine = demo_engine()
    gated = GatedSearch(engine)
    async with started(demo_app(engine, agent="dev")) as pilot:
        await pilot.press("slash", "f")
        await wait_started(pilot, gated)
        await pilot.press(*"rozen")  # typed over while the search for "f" is held
        gated.gate.set()
        await settle(pilot)
        assert gated.calls == [("dev", "f"), ("dev", "frozen")]
        assert gated.finished == ["frozen"]  # the search for "f" stopped early
        assert " · for 'frozen' as dev" in search_status(pilot.app)


async def test_a_search_stops_for_keys_in_the_box_before_their_change_arrives() -> None:
    # The first key of a burst starts a search before the rest are in; the box's own
    # handling of their changes can lag behind (a busy box): the search stops anyway.
    engine = demo_engine()
    gated = GatedSearch(engine)
    async with started(demo_app(engine, agent="dev")) as pilot:
        await pilot.press("slash", "f")
        await wait_started(pilot, gated)
        box = main_screen(pilot.app).search_box
        with messages_held(box):
            box.query_input.value = "frozen"  # in the box; its change waits
            await asyncio.sleep(0.05)
            gated.gate.set()
            for _ in range(200):  # the held search runs to its end or stops
                if not gated.active:
                    break
                await asyncio.sleep(0.01)
            assert gated.finished == [], "the search for 'f' ran to its end"
        await settle(pilot)
        assert gated.calls == [("dev", "f"), ("dev", "frozen")]
        assert gated.finished == ["frozen"]
        assert " · for 'frozen' as dev" in search_status(pilot.app)


async def test_a_slow_result_for_an_older_agent_never_shows() -> None:
    engine = demo_engine()
    gated = GatedSearch(engine)
    app = demo_app(engine)  # main
    async with started(app) as pilot:
        shown = record_shown(app)
        await pilot.press("slash", *"trip")
        await wait_started(pilot, gated)
        main = main_screen(app)
        main.switch_agent("dev")
        for _ in range(500):  # the switch loads while main's search is still held
            if main.scope is not None and main.scope.agent == "dev":
                break
            await pilot.pause()
        assert main.scope is not None and main.scope.agent == "dev"
        gated.gate.set()
        await settle(pilot)
        # main's search finished after the switch: dropped; dev searched afterwards.
        assert gated.calls[0] == ("main", "t")
        assert gated.calls[-1] == ("dev", "trip")
        assert gated.most_active == 1
        assert all(query == "trip" for query in shown)
        private = main.query_one("#private", NotePane)
        assert demo_id("main-trip") not in private.hits
        assert "as dev" in search_status(app)


async def test_clearing_while_a_search_runs_keeps_the_full_lists() -> None:
    engine = demo_engine()
    gated = GatedSearch(engine)
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        shown = record_shown(app)
        await pilot.press("slash", "d")
        await wait_started(pilot, gated)
        main_screen(app).query_one("#search", Input).value = ""
        await pilot.pause()
        gated.gate.set()
        await settle(pilot)
        assert shown == []
        assert gated.calls == [("dev", "d")]
        assert not main_screen(app).query_one("#private", NotePane).searching


async def test_a_query_typed_on_after_a_clear_goes_straight_to_its_hits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Ctrl+U and the next query's keys, with the keys in before the clear settles (the
    # settling time made long here, so the test never races it).
    monkeypatch.setattr(search_box, "CLEAR_SETTLE", GATE_LIMIT)
    app = demo_app(agent="dev")
    async with started(app) as pilot:
        box = main_screen(app).search_box
        pane = main_screen(app).query_one("#private", NotePane)
        await pilot.press("slash", *"deploy")
        await settle(pilot)
        listings: list[int] = []
        original = pane.show_kept_listing

        def show_kept_listing() -> None:
            listings.append(1)
            original()

        pane.show_kept_listing = show_kept_listing  # type: ignore[method-assign]
        shown = record_shown(app)
        box.query_input.value = ""
        await pilot.pause()
        box.query_input.value = "lisbon"
        await settle(pilot)
        assert listings == []  # the listings were never drawn in between
        assert shown == ["lisbon"] and pane.searching
        assert " · for 'lisbon' as dev" in search_status(app)


async def test_a_clear_alone_brings_the_listings_back() -> None:
    app = demo_app(agent="dev")
    async with started(app) as pilot:
        pane = main_screen(app).query_one("#private", NotePane)
        await pilot.press("slash", *"deploy")
        await settle(pilot)
        assert pane.searching
        await pilot.press("ctrl+u")
        await until(pilot, lambda: not pane.searching)  # once the clear has settled
        assert not pane.searching
        assert " · for '" not in search_status(app)


async def test_the_count_leaves_only_with_the_hits() -> None:
    # A person who types on once the count is off the screen must not wait behind a
    # frame of listings still to come: the status line rests only once the hits are gone.
    app = demo_app(agent="dev")
    async with started(app) as pilot:
        screen = main_screen(app)
        pane = screen.query_one("#private", NotePane)
        status = screen.search_box.status_line
        await pilot.press("slash", *"deploy")
        await settle(pilot)
        rested_over: list[bool] = []  # each time the line rests: were hits still shown
        show = status.show

        def shown(text: str, counted: Any = None) -> None:
            if not text:
                rested_over.append(pane.searching)
            show(text, counted)

        status.show = shown  # type: ignore[method-assign]
        await pilot.press("ctrl+u")
        await until(pilot, lambda: not pane.searching)
        await settle(pilot)
        assert rested_over == [False]


@asynccontextmanager
async def typed_while_searching() -> AsyncIterator[tuple[Any, SearchBox, GatedSearch]]:
    """The demo app as dev with "d" typed and its search held at the gate: the pilot,
    the box and the gate."""
    engine = demo_engine()
    gated = GatedSearch(engine)
    async with started(demo_app(engine, agent="dev")) as pilot:
        await pilot.press("slash", "d")
        await wait_started(pilot, gated)
        yield pilot, main_screen(pilot.app).search_box, gated


def drawn_text(widget: Widget) -> str:
    """What ``widget`` draws now, line by line."""
    lines = widget.render_lines(Region(0, 0, *widget.outer_size))
    return "\n".join(line.text for line in lines)


async def test_a_typed_query_shows_while_it_is_searched_then_its_hits() -> None:
    async with typed_while_searching() as (pilot, box, gated):
        await pilot.pause()
        assert gated.active == 1  # its search is still running
        assert "d" in drawn_text(box.query_input)
        assert "searching for 'd'" in search_status(pilot.app)
        gated.gate.set()
        await settle(pilot)
        assert " · for 'd' as dev" in search_status(pilot.app)
        assert main_screen(pilot.app).query_one("#private", NotePane).searching


async def test_enter_goes_to_the_results_of_the_final_text() -> None:
    engine = demo_engine()
    gated = GatedSearch(engine)
    gated.gate.set()
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        await pilot.press("slash", *"production deploy frozen", "enter")
        await settle(pilot)
        main = main_screen(app)
        assert gated.calls[-1] == ("dev", "production deploy frozen")
        focused = main.focused
        assert focused is not None and isinstance(focused.parent, NotePane)
        assert main.selected_id == demo_id("shared-freeze")
        calls = len(gated.calls)
        # Enter again on results already shown searches nothing more.
        await pilot.press("slash", "enter")
        await settle(pilot)
        assert len(gated.calls) == calls
        assert isinstance(main.focused.parent, NotePane)  # type: ignore[union-attr]


def burst(app: Any, keys: str) -> None:
    """Keys as a fast typist's burst reaches the app: all queued before any is handled."""
    for char in keys:
        key = "slash" if char == "/" else ("space" if char == " " else char)
        app.post_message(events.Key(key, char))


async def test_keys_typed_right_after_slash_go_into_the_search_box() -> None:
    app = demo_app(agent="dev")
    async with started(app) as pilot:
        private = pilot.app.screen.query_one("#private", NotePane)
        rows_before = private.table.row_count
        burst(app, "/deploy freeze")  # 'd' on a note would ask to delete it
        await settle(pilot)
        box = app.screen.query_one("#search", Input)
        assert box.value == "deploy freeze"
        assert app.focused is box
        assert isinstance(app.screen, MainScreen)  # no dialog opened from the table
        assert private.table.row_count != rows_before or private.searching
        burst(app, "/ci")  # in the box, '/' is typed
        await settle(pilot)
        assert box.value == "deploy freeze/ci"


def burst_keys(app: Any, keys: list[str]) -> None:
    """Named keys and characters, all queued before any is handled."""
    for key in keys:
        char = key if len(key) == 1 else None
        app.post_message(events.Key(key, char))


async def test_editing_keys_in_a_burst_act_in_the_order_typed() -> None:
    app = demo_app(agent="dev")
    async with started(app) as pilot:
        burst(app, "/lisbon")
        await settle(pilot)
        box = app.screen.query_one("#search", Input)
        assert box.value == "lisbon"
        # Clear the previous query and type the next one at once; fix a typo on the way.
        typed = ["ctrl+u", *"deplpy", "backspace", "backspace", *"oy"]
        burst_keys(app, [k if k != " " else "space" for k in typed])
        await settle(pilot)
        assert box.value == "deploy"
        status = str(app.screen.query_one("#search-status", Static).render())
        assert " · for 'deploy'" in status


async def test_a_query_longer_than_the_box_keeps_its_end_in_view() -> None:
    # The box repaints as its text grows without a layout of the screen: it must still
    # scroll, so the last words typed and the cursor stay in view.
    app = demo_app(agent="dev")
    async with started(app, size=(80, 24)) as pilot:
        words = (
            "deploy freeze window for the payments service during the quarter end close "
            "of the books"
        )
        burst(app, "/" + words)
        await settle(pilot)
        box = app.screen.query_one("#search", Input)
        assert box.value == words
        assert box.scroll_x > 0
        assert any(line.rstrip().endswith("of the books") for line in screen_lines(app))
        await pilot.press("home")
        assert box.scroll_x == 0
        assert any("deploy freeze" in line for line in screen_lines(app))


async def test_a_search_moves_no_pane_on_a_tall_screen() -> None:
    # A line that appeared with the first search would move every pane under it, and a
    # moved pane is drawn again whole.
    app = demo_app(agent="dev")
    async with started(app) as pilot:
        main = main_screen(app)
        panes = main.query_one("#private", NotePane), main.query_one("#shared", NotePane)
        before = [pane.region.y for pane in panes]
        assert "Press / to search what dev can see" in search_status(app)
        burst(app, "/deploy freeze")
        await settle(pilot)
        assert " · for 'deploy freeze' as dev" in search_status(app)
        assert [pane.region.y for pane in panes] == before
        burst_keys(app, ["ctrl+u"])
        await settle(pilot)
        assert "Type to search what dev can see" in search_status(app)
        assert [pane.region.y for pane in panes] == before


async def test_the_hint_says_slash_first_while_keys_act_on_the_notes() -> None:
    # Off the box, letters are the panes' keys: a person who types a query at once
    # would delete a note ("d", then "y" in "deploy" confirms).
    app = demo_app(agent="dev")
    async with started(app) as pilot:
        hint = search_status(app)
        assert hint.startswith("Press / to search what dev can see")
        assert "Enter goes to the hits" not in hint
        await pilot.press("slash")
        await settle(pilot)
        assert search_status(app).startswith("Type to search what dev can see")
        assert "Enter goes to the hits" in search_status(app)
        await pilot.press("tab")
        await settle(pilot)
        assert search_status(app).startswith("Press / to search what dev can see")


async def test_a_short_screen_keeps_the_hint_line_for_notes() -> None:
    app = demo_app(agent="dev")
    async with started(app, size=(80, 24)) as pilot:
        line = main_screen(app).query_one("#search-status", Static)
        assert not line.display
        burst(app, "/deploy freeze")
        await settle(pilot)
        assert line.display and " · for 'deploy freeze'" in search_status(app)


class RecordedReads:
    """Wraps the views' get: the ids the app reads one by one (the detail view's loads)."""

    def __init__(self, engine: MemoryEngine) -> None:
        self.ids: list[str] = []
        wrap_view_calls(engine, "get", self)

    def __call__(self, view: Any, get: Any, note_id: str) -> Any:
        self.ids.append(note_id)
        return get(note_id)


def another_listed_note(main: MainScreen) -> str:
    """A note of the private listing other than the selected one."""
    listed = main.selected_id
    other = next(key.value for key in main.private_pane.table.rows if key.value != listed)
    assert other is not None
    return str(other)


def assert_detail_shows(main: MainScreen, note_id: str) -> None:
    """The detail view holds ``note_id`` as loaded."""
    assert main.detail_view.note_data is not None
    assert main.detail_view.note_data.note.id == note_id


async def test_a_waiting_detail_load_is_dropped_when_a_query_is_typed() -> None:
    engine = demo_engine()
    gated = GatedSearch(engine)
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        main = main_screen(app)
        assert main.scope is not None
        other = another_listed_note(main)
        reads = RecordedReads(engine)
        # A load that waits (as after a cleared search) for a note the next query's hits
        # will replace at once: typing drops it, so it is neither read nor drawn, even
        # when the search takes longer than the wait.
        # (Seconds longer than the app's wait, so a busy machine cannot end it before
        # the keys are read.)
        wait = 3.0
        main.detail_view.load_note(main.scope, other, None, after=wait)
        burst(app, "/deploy freeze")
        await wait_started(pilot, gated)
        await pilot.pause(2 * wait)
        gated.gate.set()
        await settle(pilot)
        assert other not in reads.ids
        best = main.search_box.result.hits[0].note.id  # type: ignore[union-attr]
        assert reads.ids == [best]
        assert main.selected_id == best
        assert_detail_shows(main, best)


async def test_a_waiting_detail_load_ends_in_the_note_when_nothing_comes_meanwhile() -> None:
    engine = demo_engine()
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        main = main_screen(app)
        assert main.scope is not None
        other = another_listed_note(main)
        reads = RecordedReads(engine)
        main.detail_view.load_note(main.scope, other, None, after=DETAIL_AFTER_SEARCH)
        main.detail_view.load_note(main.scope, other, None)  # already on its way: no second
        await settle(pilot)
        assert reads.ids == [other]
        assert_detail_shows(main, other)
