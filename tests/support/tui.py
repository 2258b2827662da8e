"""Helpers for the Pilot and snapshot tests: a demo engine, the app started and settled
(``started``, ``snapshot``), ways to wait for workers, and what the main screen
shows (a pane's rows, the detail, the search status, what was notified)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from textual.errors import NoWidget
from textual.map_geometry import MapGeometry
from textual.message import Message
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import WorkerCancelled, WorkerFailed, WorkerState

from amem_tui.config import Settings
from amem_tui.demo import demo_settings, seed_demo
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.store.qdrant import QdrantStore
from amem_tui.tui.app import AmemApp
from amem_tui.tui.screens.main import MainScreen
from amem_tui.tui.widgets.header import HeaderBar
from amem_tui.tui.widgets.note_pane import NotePane
from tests.support.engines import Clock, fixed_ids, make_engine

#: A store label that never changes, so no host or folder name reaches a snapshot.
STORE_LABEL = "demo-store"
SIZE = (120, 40)


def demo_engine(
    read_only: bool = False, seed: bool = True, clock: Clock | None = None, **extra: Any
) -> MemoryEngine:
    """The demo memory in an in-memory store, with the test embedder, clock (``clock``
    to choose another, e.g. a ``MovableClock``) and ids."""
    settings = demo_settings(Settings(store_path=Path(STORE_LABEL), **extra))
    engine = make_engine(QdrantStore(path=":memory:"), settings=settings, clock=clock)
    if seed:
        seed_demo(engine)
    if read_only:  # after seeding: a read-only engine could not write the demo
        engine.settings = engine.settings.model_copy(update={"read_only": True})
    return engine


def demo_app(engine: MemoryEngine | None = None, agent: str | None = None) -> AmemApp:
    """The app on the demo engine, with nothing from the user's configuration."""
    app = AmemApp(engine or demo_engine(), agent=agent, user_config=False)
    app.animation_level = "none"
    return app


def server_demo_engines(url: str) -> tuple[MemoryEngine, MemoryEngine]:
    """The demo memory on a server at ``url`` (the REST stand-in): the app's engine, and
    a second client's (an agent process writing while the app runs), each with its own
    connection. The demo is seeded through the second one."""
    settings = demo_settings(Settings(store_path=Path(STORE_LABEL)))
    writer = make_engine(QdrantStore(url=url), settings=settings, new_id=fixed_ids(prefix=5))
    seed_demo(writer)
    return make_engine(QdrantStore(url=url), settings=settings), writer


def screen_lines(app: Any) -> list[str]:
    """The text of every line of the screen as the terminal would show it: each widget's
    lines (``render_lines``) where the screen places it, in
    the order the screen paints them (scroll bars left out)."""
    screen = app.screen
    width, height = screen.size
    cells = [[" "] * width for _ in range(height)]
    placed: list[tuple[Any, Widget, MapGeometry]] = []
    for widget in (screen, *screen.walk_children(Widget)):
        try:
            geometry = screen.find_widget(widget)
        except NoWidget:  # not shown
            continue
        placed.append((geometry.order, widget, geometry))
    for _, widget, geometry in sorted(placed, key=lambda entry: entry[0]):
        visible = geometry.visible_region
        if not visible:
            continue
        crop = visible.translate((-geometry.region.x, -geometry.region.y))
        for y, strip in enumerate(widget.render_lines(crop), start=visible.y):
            x = visible.x
            for char in "".join(segment.text for segment in strip):
                if 0 <= y < height and x < width:
                    cells[y][x] = char
                    if cell_len(char) == 2 and x + 1 < width:
                        cells[y][x + 1] = ""
                x += cell_len(char)
    return ["".join(row) for row in cells]


def main_screen(app: Any) -> MainScreen:
    """The app's screen, which must be the main screen."""
    screen = app.screen
    assert isinstance(screen, MainScreen), type(screen)
    return screen


def main_screen_under(app: Any) -> MainScreen:
    """The main screen, whichever screen is on top of it."""
    for screen in app.screen_stack:
        if isinstance(screen, MainScreen):
            return screen
    raise AssertionError("no main screen")


def activity_texts(app: Any) -> list[str]:
    """What the activity log holds, oldest first."""
    return [entry.activity.text for entry in main_screen_under(app).follow_bar.activity]


def pane(app: Any, which: str = "private") -> NotePane:
    """A note pane of the main screen (``private`` or ``shared``)."""
    return main_screen(app).query_one(f"#{which}", NotePane)


def row_ids(shown: NotePane) -> list[str]:
    """The note ids of the rows a pane shows, top to bottom."""
    return [str(key.value) for key in shown.table.rows]


def detail_text(app: Any) -> str:
    """The text of the detail view's fields (or of what it says instead)."""
    return str(main_screen(app).query_one("#detail-text", Static).render())


def header_text(app: Any) -> str:
    """The main screen's header, as drawn."""
    return main_screen(app).query_one(HeaderBar).text


def search_status(app: Any) -> str:
    """The search box's status line."""
    return str(main_screen(app).query_one("#search-status", Static).render())


def notices(app: Any) -> list[str]:
    """Every notification so far, as ``title: message``."""
    return [f"{title}: {message}" for title, message in app.notice_log]


def said(app: Any, since: int = 0) -> str:
    """The messages notified since the ``since``-th notification, in one line."""
    return " ".join(message for _, message in list(app.notice_log)[since:])


async def select(pilot: Pilot[Any], which: str, note_id: str) -> None:
    """Select a note as a user does: click into its pane, then move the cursor onto it
    (the detail view then shows it)."""
    shown = pane(pilot.app, which)
    await pilot.click(shown.table)  # on the header row: focuses the pane, leaves its cursor
    await settle(pilot)
    assert shown.select(note_id), f"{note_id} not in {which}"
    await settle(pilot)
    detail = main_screen(pilot.app).detail_view
    assert detail.note_data is not None and detail.note_data.note.id == note_id


async def press_on_note(pilot: Pilot[Any], note_id: str, key: str) -> MainScreen:
    """Put the main screen's cursor on ``note_id`` (in whichever pane lists it) and press
    ``key``: a snapshot's steps, with no click (a click leaves a hover in the picture)."""
    screen = pilot.app.screen
    assert isinstance(screen, MainScreen)
    assert screen.panes.select(note_id)
    await settle(pilot)
    await pilot.press(key)
    await settle(pilot)
    return screen


@contextlib.contextmanager
def messages_held(widget: Widget) -> Iterator[None]:
    """``widget`` takes no message while inside (a busy widget, as a loaded machine may
    leave one); they wait in its queue. Pilot's pauses wait for it: let the loop run with
    ``asyncio.sleep`` instead."""
    gate = asyncio.Event()

    async def busy() -> None:
        await gate.wait()

    widget.call_later(busy)
    try:
        yield
    finally:
        gate.set()  # a failed check must not leave the widget blocked


async def until(pilot: Pilot[Any], condition: Any, timeout: float = 30.0) -> None:
    """Let the app run (timers and workers) until ``condition()`` holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "timed out waiting for the app"
        await pilot.pause(0.05)


#: Pauses in a row with no worker running before the app counts as settled: a worker's
#: message may push a screen whose widgets start their own workers as they mount, a
#: pause or two later.
QUIET_PAUSES = 3


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until no worker runs and every posted message is handled."""
    app = pilot.app
    quiet = 0
    for _ in range(200):
        await pilot.pause()
        running = [w for w in app.workers if w.state in (WorkerState.PENDING, WorkerState.RUNNING)]
        if not running:
            quiet += 1
            if quiet == QUIET_PAUSES:
                break
            continue
        quiet = 0
        with contextlib.suppress(WorkerCancelled, WorkerFailed):
            await app.workers.wait_for_complete(running)
    await pilot.pause()


@contextlib.asynccontextmanager
async def started(
    app: AmemApp | None = None,
    *,
    agent: str | None = None,
    size: tuple[int, int] = SIZE,
    notifications: bool = False,
    message_hook: Callable[[Message], None] | None = None,
) -> AsyncIterator[Pilot[Any]]:
    """The app running under Pilot at ``size``, its first load settled (``notifications``:
    drawn, as they are off by default under Pilot; ``message_hook``: called with each
    message as a pump starts on it).

    ``app`` defaults to ``demo_app`` on a fresh demo engine (as ``agent``)::

        async with started(agent="dev") as pilot:
            await pilot.press("p")
    """
    running = app if app is not None else demo_app(agent=agent)
    async with running.run_test(
        size=size, notifications=notifications, message_hook=message_hook
    ) as pilot:
        await settle(pilot)
        yield pilot


def snapshot(
    snap_compare: Any,
    app: AmemApp | None = None,
    *,
    size: tuple[int, int] = SIZE,
    keys: Sequence[str] = (),
    then: Callable[[Pilot[Any]], Awaitable[None]] | None = None,
) -> bool:
    """Compare the app's screen with its snapshot once it has settled, ``keys`` were
    pressed (and settled) and ``then`` ran."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        if keys:
            await pilot.press(*keys)
            await settle(pilot)
        if then is not None:
            await then(pilot)

    return bool(
        snap_compare(
            app if app is not None else demo_app(), terminal_size=size, run_before=run_before
        )
    )
