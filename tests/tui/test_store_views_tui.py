"""The compare and overview screens under Pilot, driven by keys as a user does.

Expected groups are the demo's, worked out by hand from amem_tui/demo.py (see
tests/engine/compare/test_compare_views.py).
"""

from __future__ import annotations

import threading
from typing import Any

from amem_tui.demo import demo_id
from amem_tui.tui.screens.compare import CompareScreen
from amem_tui.tui.screens.main import MainScreen
from amem_tui.tui.screens.overview import OverviewScreen
from amem_tui.tui.widgets.access_panel import AccessPanel
from amem_tui.tui.widgets.compared_list import ComparedList
from amem_tui.tui.widgets.overview_charts import WeeklyNotes
from tests.support.tui import demo_app, demo_engine, settle, started

MAIN_ONLY = {
    "main-vendor", "main-standup", "main-standup-dup", "main-trip",
    "main-reviews", "main-reviews-dup", "main-old", "main-knowledge",
}  # fmt: skip
# dev-selective names main in its readers: main reads it by id only, never in its view.
DEV_ONLY = {"dev-jwt", "dev-tests", "dev-tests-dup", "dev-tests-dup2", "dev-lint", "dev-selective"}
BOTH = {"shared-snake", "shared-freeze", "shared-oncall", "shared-branches"}


def listed(screen: CompareScreen, which: str) -> set[str]:
    entries = screen.query_one(f"#list-{which}", ComparedList).entries
    return {getattr(entry, "note", entry).id for entry in entries}


def panel_text(screen: CompareScreen) -> str:
    return str(screen.query_one(AccessPanel).query_one("#access-text").render())


async def open_compare(pilot: Any) -> CompareScreen:
    await settle(pilot)
    await pilot.press("v")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, CompareScreen)
    return screen


async def test_v_compares_the_current_agent_with_the_next() -> None:
    app = demo_app(agent="main")
    async with started(app) as pilot:
        screen = await open_compare(pilot)
        assert screen.scope_a is not None and screen.scope_a.agent == "main"
        assert screen.scope_b is not None and screen.scope_b.agent == "dev"
        assert listed(screen, "a") == {demo_id(k) for k in MAIN_ONLY}
        assert listed(screen, "b") == {demo_id(k) for k in DEV_ONLY}
        assert listed(screen, "both") == {demo_id(k) for k in BOTH}
        titles = [
            screen.query_one(f"#list-{k}", ComparedList).border_title for k in ("a", "both", "b")
        ]
        assert titles == ["main only · 8", "both · 4", "dev only · 6"]
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)


async def test_the_palette_opens_compare_and_overview() -> None:
    app = demo_app()
    async with started(app, size=(120, 40)) as pilot:
        await pilot.press("ctrl+p", *"Compare two agents", "enter")
        await settle(pilot)
        assert isinstance(app.screen, CompareScreen)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("ctrl+p", *"Overview of the store", "enter")
        await settle(pilot)
        assert isinstance(app.screen, OverviewScreen)


async def test_selecting_a_note_explains_each_sides_access() -> None:
    app = demo_app()
    async with started(app) as pilot:
        screen = await open_compare(pilot)
        dev_only = screen.query_one("#list-b", ComparedList)
        dev_only.table.focus()
        await settle(pilot)
        row = [getattr(e, "id", "") for e in dev_only.entries].index(demo_id("dev-selective"))
        for _ in range(row):
            await pilot.press("down")
        await settle(pilot)
        text = panel_text(screen)
        assert "Staging database credentials" in text
        assert "~ get only  main  get only (its readers name 'main')" in text
        assert "dev   private: its agent_id is 'dev'" in text
        screen.query_one("#list-a", ComparedList).table.focus()
        await settle(pilot)
        assert "✗ cannot    dev   private to agent 'main'" in panel_text(screen)


async def test_one_query_searches_as_both() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    async with started(app) as pilot:
        screen = await open_compare(pilot)
        await pilot.press("slash", *"deploy freeze", "enter")
        await settle(pilot)
        comparison = screen.comparison
        assert comparison is not None and comparison.search is not None
        assert not screen.query_one("#list-both", ComparedList).display
        for which, agent in (("a", "main"), ("b", "dev")):
            entries = screen.query_one(f"#list-{which}", ComparedList).entries
            own = engine.agent(agent).search("deploy freeze")  # the agent's own 5
            assert [e.note.id for e in entries] == [h.note.id for h in own.hits]  # type: ignore[union-attr]
        assert "dev gets it too, at #1" in panel_text(screen)
        # Escape clears the query first: the three groups come back.
        await pilot.press("escape")
        await settle(pilot)
        assert screen.comparison is not None and screen.comparison.groups is not None
        assert screen.query_one("#list-both", ComparedList).display


async def test_swap_and_another_agent() -> None:
    app = demo_app()
    async with started(app) as pilot:
        screen = await open_compare(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert screen.scope_a is not None and screen.scope_a.agent == "dev"
        assert listed(screen, "a") == {demo_id(k) for k in DEV_ONLY}
        await pilot.click("#compare-b")  # B is main now; sandbox is two rows down
        await pilot.press("down", "down", "enter")
        await settle(pilot)
        assert screen.scope_b is not None and screen.scope_b.mode == "B"
        assert listed(screen, "b") == {
            demo_id(k) for k in ("sandbox-exp", "sandbox-exp-dup", "sandbox-tools")
        }
        assert listed(screen, "both") == set()


async def test_overview_pictures_and_figures() -> None:
    engine = demo_engine()
    engine.agent("dev").consolidate()
    app = demo_app(engine)
    async with started(app, size=(80, 24)) as pilot:
        await pilot.press("o")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, OverviewScreen)
        stats = screen.stats
        assert stats is not None
        assert [a.agent for a in stats.agents] == ["main", "dev", "sandbox"]
        weekly = screen.query_one(WeeklyNotes)
        assert [row.label for row in weekly.rows] == ["main", "dev", "sandbox"]
        assert sum(sum(row.counts) + row.older for row in weekly.rows) == 11 + 8 + 3
        sharing = str(screen.query_one("#overview-sharing").render())
        assert "dev" in sharing and "2 · 50% · and 1 get only, for chosen readers" in sharing
        savings = str(screen.query_one("#overview-savings").render())
        assert "2 merged away in 1 run (1 merge), 33% smaller" in savings
        assert screen.query_one("#overview-figures").row_count == 3  # type: ignore[attr-defined]


async def test_overview_says_what_gets_recalled() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    async with started(app, size=(120, 40)) as pilot:
        await pilot.press("o")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, OverviewScreen)
        lines = str(screen.query_one("#overview-recalls").render()).splitlines()
        # Each agent's bar line, then its five most recalled notes (fewer in sandbox's
        # three notes): counts worked out in tests/engine/stats/test_recall_figures.py.
        assert [line.split("  ")[0] for line in lines if not line.startswith(" ")] == [
            "main",
            "dev",
            "sandbox",
        ]
        assert lines[0].endswith("11 of 12 recalled · 1 never")
        assert [line.split()[0] for line in lines[1:6]] == ["6×", "6×", "5×", "5×", "5×"]
        assert "2026-11-15  shared   Production deploy is frozen" in "\n".join(lines[1:3])
        assert lines[6].endswith("9 of 10 recalled · 1 never")
        assert lines[12].endswith("2 of 3 recalled · 1 never")
        assert len(lines) == 15
        # A note recalled by an agent's search moves the figures on the next reload.
        note = engine.store.retrieve("amem_notes", [demo_id("main-standup")])[0]
        engine.store.set_payload("amem_notes", note.id, {**note.payload, "retrieval_count": 40})
        await pilot.press("f5")
        await settle(pilot)
        lines = str(screen.query_one("#overview-recalls").render()).splitlines()
        assert lines[0].endswith("12 of 12 recalled · 0 never")
        assert lines[1].split()[0] == "40×"


async def test_overview_shows_progress_and_never_blocks_the_screen() -> None:
    """A slow store: progress shows while the figures build, and Escape still works."""
    engine = demo_engine()
    reading = threading.Event()
    release = threading.Event()
    real_stats = engine.stats

    def slow_stats(progress: Any = None) -> Any:
        assert progress is not None
        progress(1000, 100_000)
        reading.set()
        release.wait(10)
        progress(2000, 100_000)  # the screen is gone by now: this stops the read
        return real_stats(progress)

    engine.stats = slow_stats  # type: ignore[method-assign]
    app = demo_app(engine)
    async with started(app, size=(80, 24)) as pilot:
        await pilot.press("o")
        for _ in range(100):
            await pilot.pause(0.01)
            if reading.is_set():
                break
        await pilot.pause(0.05)
        screen = app.screen
        assert isinstance(screen, OverviewScreen)
        status = str(screen.query_one("#overview-status").render())
        assert status == "Reading the store… 1,000 of 100,000 points"
        await pilot.press("escape")  # handled while the worker is still reading
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        release.set()
        await settle(pilot)
