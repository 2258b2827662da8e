"""What a new user tripped over: Enter applies the consolidation preview (as Enter
confirms in the other dialogs), the undo dialog has no invisible focus stop, Esc
takes the search explanation away, the history pane promises no nightly run that
nothing makes, an empty default store says where to look, and a row cut at 80
columns ends with an ellipsis."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from textual.widgets import Button, DataTable, Tab

from amem_tui.config import Settings
from amem_tui.engine.store.qdrant import QdrantStore
from amem_tui.tui.app import AmemApp
from amem_tui.tui.dialogs.confirm import ConfirmDialog
from amem_tui.tui.dialogs.consolidation import ConsolidationPreview
from amem_tui.tui.screens.audit import AuditScreen
from amem_tui.tui.screens.overview import OverviewScreen
from amem_tui.tui.widgets.history_pane import HistoryPane
from amem_tui.tui.widgets.note_pane import NotePane
from tests.support.engines import make_engine
from tests.support.tui import (
    demo_app,
    demo_engine,
    detail_text,
    main_screen,
    notices,
    screen_lines,
    settle,
    started,
    until,
)


async def test_enter_in_the_consolidation_preview_applies() -> None:
    engine = demo_engine()
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, ConsolidationPreview)
        shown = app.screen.run
        await pilot.press("enter")
        await settle(pilot)
        [run] = engine.agent("dev").history()
        assert run.id == shown.id and run.merges


async def test_escape_in_the_consolidation_preview_still_cancels() -> None:
    engine = demo_engine()
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert engine.agent("dev").history() == []


async def test_the_undo_dialog_tabs_between_its_buttons_only() -> None:
    engine = demo_engine()
    engine.agent("dev").consolidate()
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        main_screen(app).query_one(HistoryPane).table.focus()
        await settle(pilot)
        await pilot.press("z")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog)
        seen = []
        for _ in range(4):
            seen.append(dialog.focused)
            await pilot.press("tab")
            await settle(pilot)
        assert all(isinstance(widget, Button) for widget in seen), seen
        assert {widget.id for widget in seen if widget is not None} == {"yes", "no"}


async def test_escape_takes_the_search_explanation_away() -> None:
    app = demo_app(agent="dev")
    async with started(app) as pilot:
        await pilot.press("slash", *"deploy freeze")
        await settle(pilot)
        assert "visible:" in detail_text(app) and "similarity" in detail_text(app)
        subject = main_screen(app).selected_id
        await pilot.press("escape")
        await settle(pilot)
        assert main_screen(app).selected_id == subject  # the note stays
        assert "cosine" not in detail_text(app)
        assert "visible:" not in detail_text(app)


async def test_an_empty_default_store_says_where_to_look() -> None:
    engine = make_engine(QdrantStore(path=":memory:"), settings=Settings())
    app = AmemApp(engine, user_config=False)
    app.animation_level = "none"
    async with started(app):
        said = detail_text(app)
        assert "amem-tui demo" in said and "--url" in said and "--store" in said


async def test_a_named_empty_store_gets_no_default_store_hint() -> None:
    settings = Settings(store_path=Path("somewhere"))
    engine = make_engine(QdrantStore(path=":memory:"), settings=settings)
    app = AmemApp(engine, user_config=False)
    app.animation_level = "none"
    async with started(app):
        assert "amem-tui demo" not in detail_text(app)


async def test_rows_cut_at_80_columns_end_with_an_ellipsis() -> None:
    app = demo_app()
    async with started(app, size=(80, 24)):
        pane = main_screen(app).query_one("#private", NotePane)
        contents = [" ".join(n.content.split()) for n in pane.listing]
        checked = 0
        for line in screen_lines(app):
            inside = re.sub(r"^[│ ]+|[│ ▇▁▔▎▊█]+$", "", line)
            starts = [c for c in contents if len(inside) > 15 and c.startswith(inside[:15])]
            if not starts or starts[0] == inside:
                continue
            checked += 1
            assert inside.endswith("…"), line
        assert checked, "no row was cut: the test proves nothing at this size"


def fits(table: DataTable[Any], width: int) -> bool:
    """Every column of ``table`` fits in ``width`` cells beside its scrollbar."""
    drawn = sum(column.get_render_width(table) for column in table.columns.values())
    return drawn <= width - 2


async def test_the_audit_screen_opens_with_its_table_focused_and_no_toast_left() -> None:
    app = demo_app()
    async with started(app, size=(120, 40)) as pilot:
        await pilot.press("A")
        await until(pilot, lambda: isinstance(app.screen, AuditScreen))
        await until(pilot, lambda: app.screen.report is not None)
        await settle(pilot)
        table = app.screen.query_one("#audit-shared-table", DataTable)
        assert app.screen.focused is table and table.row_count > 1
        await pilot.press("down")
        await settle(pilot)
        assert table.cursor_row == 1
        await pilot.press("shift+tab", "right", "down")  # the next tab, then into its rows
        await settle(pilot)
        assert app.screen.focused is app.screen.query_one("#audit-readers-table", DataTable)
        assert not any("Building the audit" in n for n in notices(app))


async def test_the_audit_tables_fit_120_columns() -> None:
    app = demo_app()
    async with started(app, size=(120, 40)) as pilot:
        await pilot.press("A")
        await settle(pilot)
        assert isinstance(app.screen, AuditScreen)
        await until(pilot, lambda: app.screen.report is not None)
        await settle(pilot)
        tables = list(app.screen.query(DataTable))
        assert len(tables) == len(AuditScreen.TABS)
        assert all(fits(table, 120) for table in tables), [
            [c.get_render_width(t) for c in t.columns.values()] for t in tables
        ]
        tabs = sum(cell_len(str(tab.label)) + 2 for tab in app.screen.query(Tab))
        assert tabs <= 120


async def test_the_overview_figures_fit_120_columns() -> None:
    app = demo_app()
    async with started(app, size=(120, 40)) as pilot:
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, OverviewScreen)
        table = app.screen.query_one("#overview-figures", DataTable)
        assert table.row_count and fits(table, 120)
        shown = [str(table.get_row_at(row)[-1]) for row in range(table.row_count)]
        assert all(len(value) <= 120 for value in shown)
