"""Follow mode under Pilot, with a second client writing through the REST stand-in
while the app runs: new notes appear, the selection stays, a deleted note leaves,
polls never overlap, and the app resumes after an outage."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from amem_tui.engine.engine import MemoryEngine
from amem_tui.tui.app import AmemApp
from amem_tui.tui.screens.activity import ActivityScreen
from amem_tui.tui.widgets import follow_bar
from tests.support.qdrant_standin import QdrantStandIn
from tests.support.tui import (
    activity_texts,
    demo_app,
    demo_engine,
    main_screen_under,
    pane,
    row_ids,
    server_demo_engines,
    settle,
    started,
    until,
)


@pytest.fixture(autouse=True)
def quick_polls(monkeypatch: pytest.MonkeyPatch) -> None:
    """Poll every few tenths of a second, so each test waits little."""
    monkeypatch.setattr(follow_bar, "POLL_INTERVAL", 0.1)
    monkeypatch.setattr(follow_bar, "MAX_INTERVAL", 0.4)
    monkeypatch.setattr(follow_bar, "OUTAGE_INTERVAL", 0.2)


@pytest.fixture
def standin() -> Iterator[QdrantStandIn]:
    with QdrantStandIn() as server:
        yield server


@pytest.fixture
def engines(standin: QdrantStandIn) -> Iterator[tuple[MemoryEngine, MemoryEngine]]:
    app_engine, writer = server_demo_engines(standin.url)
    yield app_engine, writer
    writer.close()


def state_cell(app: Any, which: str, note_id: str) -> str:
    """The first marker before a row's content (a follow-mode mark, or a state)."""
    table = pane(app, which).table
    content = str(table.get_cell(note_id, "content"))
    return content.split(" · ")[0] if " · " in content else ""


async def select_row(pilot: Any, which: str, index: int) -> str:
    table = pane(pilot.app, which).table
    table.focus()
    table.move_cursor(row=index)
    await settle(pilot)
    selected = main_screen_under(pilot.app).selected_id
    assert selected == row_ids(pane(pilot.app, which))[index]
    return selected


async def test_new_notes_appear_and_the_selection_stays(
    engines: tuple[MemoryEngine, MemoryEngine],
) -> None:
    engine, writer = engines
    app = AmemApp(engine, user_config=False, follow=True)
    async with started(app) as pilot:
        bar = main_screen_under(app).follow_bar
        assert bar.following and bar.display
        await until(pilot, lambda: bar.polls >= 1 and not bar.in_flight)
        selected = await select_row(pilot, "private", 2)
        added = writer.agent("main").add("The release train leaves every Tuesday at 10:00")
        shared = writer.agent("dev").add("The staging cluster is rebuilt every night", shared=True)
        await until(pilot, lambda: shared.id in row_ids(pane(app, "shared")))
        await until(pilot, lambda: added.id in row_ids(pane(app, "private")))
        assert row_ids(pane(app, "private"))[0] == added.id  # newest at the top
        assert state_cell(app, "private", added.id) == "new"
        assert state_cell(app, "shared", shared.id) == "new"
        main = main_screen_under(app)
        assert main.selected_id == selected  # the selection stays
        assert pane(app, "private").current_id == selected  # and the cursor on it
        assert (
            main.detail_view.note_data is not None
            and main.detail_view.note_data.note.id == selected
        )
        assert "private 9 · shared 5 · visible 14 · get only 1" in str(main.header_bar.render())
        texts = activity_texts(app)
        assert any(t.startswith("main added “The release train") for t in texts)
        assert any(t.startswith("dev added a shared note") for t in texts)
        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, ActivityScreen)
        assert [e.activity.text for e in app.screen.entries] == texts
        await pilot.press("escape")


async def test_a_deleted_note_leaves_and_an_edit_shows(
    engines: tuple[MemoryEngine, MemoryEngine],
) -> None:
    engine, writer = engines
    app = AmemApp(engine, user_config=False)
    async with started(app) as pilot:
        await pilot.press("f")
        bar = main_screen_under(app).follow_bar
        await until(pilot, lambda: bar.polls >= 1 and not bar.in_flight)
        selected = await select_row(pilot, "private", 0)
        leaving = row_ids(pane(app, "private"))[3]
        writer.agent("main").delete(leaving)
        await until(pilot, lambda: leaving not in row_ids(pane(app, "private")))
        assert main_screen_under(app).selected_id == selected
        writer.agent("main").update(selected, content="Edited elsewhere while the app follows main")
        main = main_screen_under(app)
        await until(
            pilot,
            lambda: (
                main.detail_view.note_data is not None
                and main.detail_view.note_data.note.content.startswith("Edited elsewhere")
            ),
        )
        assert state_cell(app, "private", selected) == "edited"
        assert main.selected_id == selected
        assert any("was deleted" in t for t in activity_texts(app))
        await pilot.press("f")  # off again: the bar goes, no more polls
        await settle(pilot)
        polls = bar.polls
        assert not bar.following and not bar.display
        await pilot.pause(0.6)
        assert bar.polls == polls


class SlowStore:
    """A store whose counts take a while, so a poll is still running when the next is due."""

    def __init__(self, inner: Any, delay: float) -> None:
        self.inner = inner
        self.delay = delay
        self.running = 0
        self.most = 0
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def count(self, *args: Any, **kwargs: Any) -> int:
        with self._lock:
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            time.sleep(self.delay)
            return self.inner.count(*args, **kwargs)
        finally:
            with self._lock:
                self.running -= 1


async def test_polls_never_overlap(engines: tuple[MemoryEngine, MemoryEngine]) -> None:
    engine, _ = engines
    app = AmemApp(engine, user_config=False)
    async with started(app) as pilot:
        slow = SlowStore(engine.store, delay=0.15)
        engine.store = slow  # type: ignore[assignment]
        await pilot.press("f")
        bar = main_screen_under(app).follow_bar
        for _ in range(6):  # asking again while a poll runs starts no second one
            bar.check_now()
            await pilot.press("ctrl+r")
            await pilot.pause(0.1)
        await until(pilot, lambda: bar.polls >= 4)
        assert bar.most_in_flight == 1
        follow_workers = [w for w in app.workers if w.group == "follow"]
        assert len([w for w in follow_workers if w.is_running]) <= 1


@pytest.mark.parametrize("fault", ["stopped", "503"])
async def test_the_app_resumes_after_an_outage(
    standin: QdrantStandIn, engines: tuple[MemoryEngine, MemoryEngine], fault: str
) -> None:
    engine, writer = engines
    app = AmemApp(engine, user_config=False, follow=True)
    async with started(app) as pilot:
        main = main_screen_under(app)
        bar = main.follow_bar
        await until(pilot, lambda: bar.polls >= 1 and not bar.in_flight)
        before = row_ids(pane(app, "private"))
        if fault == "stopped":
            standin.stop()  # connections refused
        else:
            standin.failing = 503  # every answer an error status
        await until(pilot, lambda: main.store_banner.display)
        assert "Store unavailable" in str(main.store_banner.render())
        assert bar.failing is not None and app.is_running
        assert row_ids(pane(app, "private")) == before  # what was shown stays
        polls = bar.polls
        await until(pilot, lambda: bar.polls >= polls + 2)  # it keeps trying
        standin.failing = None
        standin.start()  # the same port, the same store
        added = writer.agent("main").add("Written right after the server came back")
        await until(pilot, lambda: added.id in row_ids(pane(app, "private")))
        await until(pilot, lambda: not main.store_banner.display)
        assert bar.failing is None and bar.following


async def test_the_palette_offers_follow_mode() -> None:
    app = demo_app()
    async with started(app) as pilot:
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"follow this")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert main_screen_under(app).follow_bar.following


async def test_embedded_store_follows_the_apps_own_background_work() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    async with started(app) as pilot:
        await pilot.press("f")
        main = main_screen_under(app)
        bar = main.follow_bar
        await until(pilot, lambda: bar.polls >= 1 and not bar.in_flight)
        # What the nightly scheduler does, from a thread of this process.
        worker = threading.Thread(target=engine.agent("main").consolidate)
        worker.start()
        worker.join()
        await until(
            pilot, lambda: any("consolidation run of main" in t for t in activity_texts(app))
        )
        # The bar logs the run, then the screen shows it (the same message, one step up).
        await until(pilot, lambda: bool(main.history_pane.runs))
