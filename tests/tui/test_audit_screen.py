"""The audit screen shows the engine's audit report, literally, and closes with Escape."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App
from textual.widgets import DataTable

from amem_tui.engine.audit import AuditReport
from amem_tui.engine.store.qdrant import QdrantStore
from amem_tui.tui.screens.audit import AuditScreen
from tests.support.engines import make_engine
from tests.support.real_stores import (
    DEV_READERS,
    MAIN_SHARED,
    MALFORMED,
    build_real_store,
    real_settings,
)
from tests.support.tui import until

HOSTILE = "[bold red]owned[/] \x1b]8;;http://x\x07link\x1b]8;;\x07 [/]"


def real_report() -> AuditReport:
    store = QdrantStore(path=":memory:")
    build_real_store(store.client)
    # A hostile content in a shared note: it must show as text.
    store.client.set_payload("amem_notes", {"content": HOSTILE}, points=[MAIN_SHARED])
    engine = make_engine(store, settings=real_settings())
    report = engine.audit()
    store.close()
    return report


class AuditApp(App[None]):
    """A bare app that opens the audit screen on a given report."""

    def __init__(self, report: AuditReport) -> None:
        super().__init__()
        self.report = report

    def on_mount(self) -> None:
        report = self.report
        self.push_screen(AuditScreen(lambda: report))


async def report_shown(pilot: Any) -> None:
    """Wait until the audit screen shows its report."""
    await until(pilot, lambda: getattr(pilot.app.screen, "report", None) is not None)
    await pilot.pause()


def column(table: DataTable, index: int) -> list[str]:
    return [
        cell.plain if isinstance(cell, Text) else str(cell)
        for cell in (table.get_row_at(i)[index] for i in range(table.row_count))
    ]


async def test_audit_screen_shows_every_section() -> None:
    report = real_report()
    app = AuditApp(report)
    async with app.run_test(size=(140, 40)) as pilot:
        await report_shown(pilot)
        screen = app.screen
        assert isinstance(screen, AuditScreen)
        tables = {
            tab: screen.query_one(f"#audit-{tab}-table", DataTable)
            for tab, _, _ in AuditScreen.TABS
        }
        assert sorted(column(tables["shared"], 0)) == ["dev", "main"]
        assert column(tables["readers"], 0) == [DEV_READERS]
        assert set(column(tables["malformed"], 0)) == MALFORMED
        assert tables["legacy"].row_count == 2
        assert column(tables["links"], 0) == [MAIN_SHARED]
        assert column(tables["agents"], 0) == ["ops"]
        # Hostile text is literal: markup kept as characters, escapes made visible.
        shown = [c for c in column(tables["shared"], 4) if "owned" in c]
        assert shown and shown[0].startswith("[bold red]owned[/]") and "\x1b" not in shown[0]
        cell = tables["shared"].get_row_at(0)[4]
        assert isinstance(cell, Text) and not cell.spans
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, AuditScreen)


async def test_audit_screen_on_an_empty_report() -> None:
    app = AuditApp(AuditReport(store=":memory:", config_file=None))
    async with app.run_test(size=(100, 30)) as pilot:
        await report_shown(pilot)
        table = app.screen.query_one("#audit-malformed-table", DataTable)
        assert table.row_count == 0
        await pilot.press("q")
        await pilot.pause()
        assert not isinstance(app.screen, AuditScreen)
