"""The Leaks screen (key L and the palette): the leak audit by pair and severity, and
Enter on a finding shows its note as the agent the leak reaches."""

from __future__ import annotations

from textual.widgets import DataTable, Static

from amem_tui.demo import demo_id, seed_demo
from amem_tui.tui.screens.leaks import LeaksScreen
from tests.support.tui import demo_app, demo_engine, main_screen, settle, started, until


async def test_leaks_lists_the_findings_and_enter_shows_the_note_as_the_reader() -> None:
    engine = demo_engine(seed=False)
    seed_demo(engine, leak_cases=True)
    app = demo_app(engine)  # as main
    async with started(app) as pilot:
        await pilot.press("L")
        await until(pilot, lambda: isinstance(app.screen, LeaksScreen))
        await until(pilot, lambda: app.screen.report is not None)
        await settle(pilot)
        screen = app.screen
        summary = str(screen.query_one("#leaks-summary", Static).render())
        assert "7 leaks, 2 warnings, 3 info" in summary
        table = screen.query_one("#leaks-table", DataTable)
        rows = [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]
        assert len(rows) == 12
        # Grouped by pair, the most severe first within a pair.
        assert rows[0][:3] == ["main → dev", "leak", "content-copied"]
        assert [r[1] for r in rows if r[0] == "main → dev"] == ["leak", "leak", "info"]
        copied = demo_id("leak-copied")
        assert rows[0][3] == copied
        # Enter: the shared copy, shown as dev (whom it reaches), not as main.
        await pilot.press("enter")
        main = main_screen(app)
        await until(pilot, lambda: app.screen is main)
        await until(pilot, lambda: main.scope is not None and main.scope.agent == "dev")
        await until(pilot, lambda: main.selected_id == copied)


async def test_escape_closes_and_a_clean_store_says_so() -> None:
    app = demo_app()  # the demo without planted leaks: two link-to-private infos
    async with started(app) as pilot:
        await pilot.press("L")
        await until(pilot, lambda: isinstance(app.screen, LeaksScreen))
        await until(pilot, lambda: app.screen.report is not None)
        await settle(pilot)
        summary = str(app.screen.query_one("#leaks-summary", Static).render())
        assert "0 leaks, 0 warnings, 2 info" in summary
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is main_screen(app))
