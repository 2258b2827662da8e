"""A query typed while the store opens is answered at once from the saved note index:
shown on the opening screen, marked partial, never acted on; the main screen then
searches it in full."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.widgets import Static

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.search.early import SavedIndexSearch
from amem_tui.engine.store.edge import EdgeStore
from amem_tui.tui.app import AmemApp
from amem_tui.tui.screens.main import MainScreen
from amem_tui.tui.screens.opening import OpeningScreen
from tests.support.engines import (
    demo_like_settings,
    make_engine,
    store_with_saved_index,
    wrap_view_calls,
)
from tests.support.tui import SIZE, settle, until


def slow_opening(
    folder: Path,
    agent: str,
    typed: threading.Event | None = None,
    opened: Callable[[MemoryEngine], object] | None = None,
) -> tuple[AmemApp, threading.Event, list[str]]:
    """An app that opens ``folder`` as the inspector does (once ``typed`` is set, if
    given), its store's load held until the event returned is set; the list gets the
    status line as it was when the load began. ``opened`` sees the engine first."""
    release = threading.Event()
    seen: list[str] = []
    settings = demo_like_settings(store_path=folder)

    def opener() -> MemoryEngine:
        if typed is not None:
            typed.wait(10)
        app.answer_early(SavedIndexSearch.open(settings, agent))
        seen.append(app.call_from_thread(lambda: status_of(app)))
        release.wait(10)
        engine = make_engine(EdgeStore(folder), settings=settings)
        if opened is not None:
            opened(engine)
        return engine

    app = AmemApp(opener=opener, agent=agent, user_config=False)
    return app, release, seen


def status_of(app: Any) -> str:
    return str(app.screen.query_one("#search-status", Static).render())


def pane_text(app: Any, name: str) -> str:
    pane = app.screen.query_one(f"#opening-{name}")
    return f"{pane.title_text}\n{pane.query_one(Static).render()}"


async def test_a_query_typed_at_once_is_answered_from_the_saved_index(tmp_path: Path) -> None:
    store_with_saved_index(tmp_path)
    app, release, _ = slow_opening(tmp_path, "main")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"deploy freeze billing cache")
        await until(pilot, lambda: " · for '" in status_of(app))
        assert isinstance(app.screen, OpeningScreen)
        status = status_of(app)
        assert " · for 'deploy freeze billing cache' as main" in status
        assert "partial: the store is still opening: matched by words" in status
        private, shared = pane_text(app, "private"), pane_text(app, "shared")
        assert "starts Friday" in private and "Private: 1 hit" in private
        assert "token rotated" in shared and "warmed before" in shared
        # What main's searches never return stays out, as in the full answer.
        for hidden in ("auth hotfix", "readers main only", "sandbox", "deleted"):
            assert hidden not in private + shared
        # Typed on: the new text is answered too.
        await pilot.press(*" rotated")
        await until(pilot, lambda: "billing cache rotated'" in status_of(app))
        release.set()
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        main: Any = app.screen
        assert main.query_one("#private").searching  # searched in full by the main screen
        assert "partial: the store is still opening" not in status_of(app)
        # The opening screen stays under the main one, without the saved index.
        opening = app.screen_stack[0]
        assert isinstance(opening, OpeningScreen) and opening.early is None


async def test_the_store_loads_once_the_answer_is_on_screen(tmp_path: Path) -> None:
    store_with_saved_index(tmp_path)
    typed = threading.Event()
    app, release, seen = slow_opening(tmp_path, "dev", typed)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"deploy freeze")
        typed.set()
        await until(pilot, lambda: bool(seen))
        # The opener went on to the store only after the answer was drawn.
        assert " · for 'deploy freeze' as dev" in seen[0]
        assert "auth hotfix" in pane_text(app, "private")
        assert "starts Friday" not in pane_text(app, "private") + pane_text(app, "shared")
        release.set()
        await settle(pilot)


async def test_no_early_answer_from_an_index_a_write_overtook(tmp_path: Path) -> None:
    store_with_saved_index(tmp_path)
    settings = demo_like_settings(store_path=tmp_path)
    engine = make_engine(EdgeStore(tmp_path), settings=settings)
    engine.agent("dev").add("deploy freeze lifted", shared=True)
    engine.store.close()  # quit without saving the index
    app, release, seen = slow_opening(tmp_path, "main")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"deploy freeze")
        await until(pilot, lambda: bool(seen))
        await pilot.pause(0.2)
        assert " · for '" not in status_of(app)
        assert "starts Friday" not in pane_text(app, "private")
        release.set()
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)


async def test_the_main_screen_keeps_the_early_answer_until_its_own(tmp_path: Path) -> None:
    store_with_saved_index(tmp_path)
    searched = threading.Event()

    def held(view: Any, search: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        searched.wait(10)
        return search(*args, **kwargs)

    def hold_searches(engine: MemoryEngine) -> None:
        wrap_view_calls(engine, "search", held)

    app, release, _ = slow_opening(tmp_path, "main", opened=hold_searches)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"deploy freeze billing")
        await until(pilot, lambda: " · for '" in status_of(app))
        release.set()
        await until(pilot, lambda: isinstance(app.screen, MainScreen))
        main: Any = app.screen
        private = main.query_one("#private")
        await until(pilot, lambda: main.scope is not None)  # the agent is loaded
        # Its search is held: the early answer is still what the panes say.
        assert "partial: the store is still opening" in status_of(app)
        assert "starts Friday" in str(private.message_line.render())
        assert private.title_text == "Private · main: 1 hit"  # the agent named, once loaded
        assert private.table.row_count == 0  # text, not rows: nothing to act on
        searched.set()
        await until(pilot, lambda: private.searching and private.table.row_count > 0)
        assert "partial: the store is still opening" not in status_of(app)
        assert not private.message_line.display


async def test_a_narrow_opening_screen_counts_the_hits_of_every_tab(tmp_path: Path) -> None:
    store_with_saved_index(tmp_path)
    app, release, _ = slow_opening(tmp_path, "main")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("slash", *"deploy freeze billing cache")
        await until(pilot, lambda: " · for '" in status_of(app))
        shown = [pane for pane in app.screen.query("TabbedPane") if pane.display]
        assert len(shown) == 1
        assert "Private: 1 hit │ Shared: 2 hits │" in str(shown[0].border_title)
        # A one-line search box and its status line, as on the main screen.
        assert app.screen.query_one("#search").region.height == 1
        assert app.screen.query_one("#search-status").region.y == 2
        release.set()
        await settle(pilot)
