"""Enter on an audit row or a compare row closes the screen and shows that note: as the
current agent when its panes list it, else as an agent whose panes do (the agent
switches), highlighted in its pane (the tab switched), the detail showing it."""

from __future__ import annotations

from typing import Any

from textual.widgets import DataTable, TabbedContent

from amem_tui.demo import demo_id
from amem_tui.tui.screens.audit import AuditScreen
from amem_tui.tui.screens.compare import CompareScreen
from amem_tui.tui.widgets.compared_list import ComparedList
from tests.support.tui import demo_app, main_screen, settle, started, until


async def shown(pilot: Any, note_id: str, agent: str, pane: str) -> None:
    """The main screen acts as ``agent`` and has ``note_id`` highlighted in ``pane``,
    focused, with the detail on it."""
    app = pilot.app
    await until(pilot, lambda: app.screen is main_screen(app))
    main = main_screen(app)
    await until(pilot, lambda: main.scope is not None and main.scope.agent == agent)
    await until(pilot, lambda: main.selected_id == note_id)
    await settle(pilot)
    assert main.panes.working == pane
    assert main.focused is main.panes.pane(pane).table
    assert main.panes.pane(pane).current_id == note_id
    await until(pilot, lambda: main.detail_view.note is not None)
    assert main.detail_view.note is not None and main.detail_view.note.id == note_id


async def open_audit(pilot: Any, tab: str) -> DataTable[Any]:
    await pilot.press("A")
    await until(pilot, lambda: isinstance(pilot.app.screen, AuditScreen))
    await until(pilot, lambda: pilot.app.screen.report is not None)
    await settle(pilot)
    screen = pilot.app.screen
    screen.query_one("#audit-tabs", TabbedContent).active = f"audit-{tab}"
    await settle(pilot)
    table = screen.query_one(f"#audit-{tab}-table", DataTable)
    table.focus()
    await settle(pilot)
    return table


async def row_with(pilot: Any, table: DataTable[Any], note_id: str) -> None:
    """Move the cursor of ``table`` to the row holding ``note_id``."""
    for index in range(table.row_count):
        if any(note_id in str(cell) for cell in table.get_row_at(index)):
            table.move_cursor(row=index)
            await settle(pilot)
            return
    raise AssertionError(f"no row holds {note_id}")


async def test_an_audit_row_goes_to_the_note_in_the_current_agents_pane() -> None:
    app = demo_app()  # main
    async with started(app) as pilot:
        table = await open_audit(pilot, "shared")
        oncall = demo_id("shared-oncall")  # dev's shared note: main's Shared pane lists it
        await row_with(pilot, table, oncall)
        await pilot.press("enter")
        await shown(pilot, oncall, "main", "shared")


async def test_an_audit_row_of_another_agents_note_switches_agent() -> None:
    app = demo_app()  # main reads dev-selective by id only: dev's Private pane lists it
    async with started(app) as pilot:
        table = await open_audit(pilot, "readers")
        selective = demo_id("dev-selective")
        await row_with(pilot, table, selective)
        await pilot.press("enter")
        await shown(pilot, selective, "dev", "private")


async def test_a_compare_row_goes_to_the_note_as_the_side_that_sees_it() -> None:
    app = demo_app()
    async with started(app, size=(80, 24)) as pilot:  # the panes are tabs
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, CompareScreen))
        await settle(pilot)
        screen = app.screen
        dev_only = screen.query_one("#list-b", ComparedList)
        jwt = demo_id("dev-jwt")
        row = [getattr(e, "id", "") for e in dev_only.entries].index(jwt)
        dev_only.table.focus()
        dev_only.table.move_cursor(row=row)
        await settle(pilot)
        await pilot.press("enter")
        await shown(pilot, jwt, "dev", "private")
        assert main_screen(app).panes.current_tab == "private"


async def test_a_compare_row_both_see_stays_with_the_current_agent_and_clears_a_search() -> None:
    app = demo_app()
    async with started(app) as pilot:
        await pilot.press("slash", *"standup", "enter")
        await settle(pilot)
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, CompareScreen))
        await settle(pilot)
        both = app.screen.query_one("#list-both", ComparedList)
        both.table.focus()
        await settle(pilot)
        assert both.current is not None
        note_id = getattr(both.current, "id", "")
        await pilot.press("enter")
        await shown(pilot, note_id, "main", "shared")
        main = main_screen(app)
        assert main.search_box.query_text == "" and not main.panes.shared.searching


async def test_an_audit_row_naming_no_note_says_so_and_stays() -> None:
    app = demo_app()
    async with started(app) as pilot:
        table = await open_audit(pilot, "agents")
        if table.row_count == 0:  # the demo's agents are all configured
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, AuditScreen)
            return
        notices = len(app.notice_log)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, AuditScreen)
        assert "names no single note" in " ".join(m for _, m in list(app.notice_log)[notices:])
