"""The overview on a store that counts from its indexes (Qdrant Edge): the counted
figures show at once, malformed points and the consolidation history are marked as
still coming until the note index names them (every note is read only where there is
none), and while following the figures are counted again after a write elsewhere."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Static

from amem_tui.demo import demo_id, seed_demo
from amem_tui.engine.collections import CollectionIndex
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.store.edge import EdgeStore
from amem_tui.tui.screens.overview import OverviewScreen
from tests.support.engines import make_engine
from tests.support.tui import demo_app, demo_engine, started


def edge_demo(tmp_path: Path) -> MemoryEngine:
    engine = make_engine(EdgeStore(tmp_path / "store"), settings=demo_engine().settings)
    seed_demo(engine)
    return engine


def drawn(screen: OverviewScreen, pending: bool) -> bool:
    """The table is on screen and shows the figures of a report (still pending or not)."""
    if screen.stats is None or bool(screen.stats.pending) != pending:
        return False
    if screen.pictured is not screen.stats:
        return False  # the pictures follow the table
    tables = screen.query("#overview-figures")
    return bool(tables) and (malformed_cells(screen)[0] == "?") == pending


def figure(screen: OverviewScreen, row: int, column: int) -> str | None:
    """A cell of the figures table, or None while it is not drawn."""
    tables = screen.query("#overview-figures")
    if not tables:
        return None
    table = tables.first(DataTable)
    return str(table.get_cell_at((row, column))) if row < table.row_count else None


def malformed_cells(screen: OverviewScreen) -> list[str]:
    table = screen.query_one("#overview-figures", DataTable)
    return [str(table.get_cell_at((row, 9))) for row in range(table.row_count)]


async def wait_for(pilot: Any, done: Any) -> None:
    for _ in range(1500):  # 30 s: a loaded machine takes its time
        if done():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"the screen never got there: {pilot.app.screen.stats}")


async def test_counts_first_then_the_malformed_figures(tmp_path: Path) -> None:
    engine = edge_demo(tmp_path)
    counting, release = threading.Event(), threading.Event()
    real_counts = engine.counted_stats
    reads: list[object] = []

    def slow_completion(complete: bool = False, history: bool = True, **how: Any) -> Any:
        if complete:
            counting.set()
            release.wait(10)
        return real_counts(complete, history, **how)

    def full_read(progress: Any = None) -> Any:
        reads.append(progress)
        raise AssertionError("the note index names the malformed points: no full read")

    engine.counted_stats = slow_completion  # type: ignore[method-assign]
    engine.stats = full_read  # type: ignore[method-assign]
    app = demo_app(engine)
    async with started(app, size=(160, 40)) as pilot:
        await pilot.press("o")
        screen = app.screen
        assert isinstance(screen, OverviewScreen)
        await wait_for(pilot, lambda: counting.is_set() and drawn(screen, pending=True))
        counted = screen.stats
        assert counted is not None
        # The cheapest counts first; the other counts come with the malformed points.
        assert counted.pending == [
            "get_only",
            "soft_deleted",
            "legacy",
            "selectively_shared",
            "weeks",
            "never_recalled",
            "most_recalled",
            "malformed",
            "runs",
            "merges",
            "merged_away",
        ]
        assert [a.private for a in counted.agents] == [8, 6, 3]
        assert [figure(screen, row, 2) for row in range(3)] == ["8", "6", "3"]
        assert malformed_cells(screen) == ["?", "?", "?"]
        assert [figure(screen, row, 5) for row in range(3)] == ["?", "?", "?"]  # deleted
        status = str(screen.query_one("#overview-status").render())
        assert (
            "still coming: deleted, legacy, selective and weekly counts, what gets recalled, "
            "malformed points and consolidation runs (?)" in status
        )
        shown = [str(widget.render()) for widget in screen.query(Static)]
        assert "Still coming: the consolidation history…" in shown
        assert "Still coming: the notes written per week…" in shown
        assert "Still coming: what gets recalled…" in shown
        release.set()
        await wait_for(pilot, lambda: drawn(screen, pending=False))
        assert malformed_cells(screen) == ["0", "0", "0"]
        assert [figure(screen, row, 5) for row in range(3)] == ["1", "0", "0"]
        assert screen.query("#overview-weeks")
        recalls = str(screen.query_one("#overview-recalls").render())
        assert "11 of 12 recalled · 1 never" in recalls
        assert "still coming" not in str(screen.query_one("#overview-status").render())
        assert reads == []


async def test_without_a_note_index_every_note_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = edge_demo(tmp_path)
    # As on a store that keeps no note index: nothing names the malformed points.
    monkeypatch.setattr(CollectionIndex, "malformed_note_ids", lambda self: None)
    app = demo_app(engine)
    async with started(app, size=(160, 40)) as pilot:
        await pilot.press("o")
        screen = app.screen
        assert isinstance(screen, OverviewScreen)
        await wait_for(pilot, lambda: drawn(screen, pending=False))
        assert malformed_cells(screen) == ["0", "0", "0"]


async def test_following_counts_again_after_a_write(tmp_path: Path) -> None:
    engine = edge_demo(tmp_path)
    app = demo_app(engine)
    async with started(app, size=(160, 40)) as pilot:
        screen = OverviewScreen(engine, following=True)
        await app.push_screen(screen)
        await wait_for(pilot, lambda: drawn(screen, pending=False))
        engine.agent("dev").add("Dev notes that the staging database moved to the new cluster")
        screen.recount()
        await wait_for(
            pilot, lambda: screen.stats is not None and screen.stats.agents[1].private == 7
        )
        assert screen.stats is not None
        assert screen.stats.pending == []  # the malformed figures of the full read are kept


async def test_following_draws_again_only_what_a_write_changed(tmp_path: Path) -> None:
    engine = edge_demo(tmp_path)
    app = demo_app(engine)
    async with started(app, size=(160, 40)) as pilot:
        screen = OverviewScreen(engine, following=True)
        await app.push_screen(screen)
        await wait_for(pilot, lambda: drawn(screen, pending=False))
        weeks, recalls = (screen.query_one(f"#overview-{n}") for n in ("weeks", "recalls"))
        # openclaw-amem's search returned main's never-recalled note: only what gets
        # recalled changes, in the main collection alone.
        note = engine.store.retrieve("amem_notes", [demo_id("main-standup")])[0]
        engine.store.set_payload("amem_notes", note.id, {**note.payload, "retrieval_count": 9})
        counted: list[str] = []
        real_count = engine.store.count

        def count(collection: str, *args: Any, **kwargs: Any) -> int:
            if args or kwargs:
                counted.append(collection)
            return real_count(collection, *args, **kwargs)

        engine.store.count = count  # type: ignore[method-assign]
        screen.recount()
        await wait_for(
            pilot,
            lambda: (
                screen.pictured is not None
                and drawn(screen, False)
                and ("12 of 12 recalled" in str(screen.query_one("#overview-recalls").render()))
            ),
        )
        assert screen.query_one("#overview-weeks") is weeks  # not drawn again
        assert screen.query_one("#overview-recalls") is not recalls
        assert set(counted) == {"amem_notes"}  # the sandbox's counts were kept
