"""What a new user saw cut at 80 columns: the search status line with a hidden count
ends in an ellipsis, and the audit screen's tabs all fit (shorter titles), the longer
titles coming back on a wider terminal."""

from __future__ import annotations

import re

from rich.cells import cell_len
from textual.widgets import Tab

from amem_tui.tui.screens.audit import AuditScreen
from tests.support.tui import demo_app, screen_lines, search_status, settle, started, until


async def test_a_long_search_status_ends_in_an_ellipsis_at_80_columns() -> None:
    app = demo_app(agent="dev")
    async with started(app, size=(80, 24)) as pilot:
        await pilot.press("slash", *"production deploy frozen", "enter")
        await until(pilot, lambda: "hidden matches" in search_status(app))
        await settle(pilot)
        [line] = [line for line in screen_lines(app) if "hits for 'production" in line]
        assert line.rstrip().endswith("…"), line


def tab_strip(app: object) -> str:
    return next(line for line in screen_lines(app) if "Legacy (" in line)


async def test_every_audit_tab_is_seen_at_80_columns_and_titled_in_full_when_wide() -> None:
    app = demo_app()
    async with started(app, size=(80, 24)) as pilot:
        await pilot.press("A")
        await until(pilot, lambda: isinstance(app.screen, AuditScreen))
        await until(pilot, lambda: app.screen.report is not None)
        await settle(pilot)
        tabs = list(app.screen.query(Tab))
        assert len(tabs) == len(AuditScreen.TABS)
        assert sum(cell_len(str(tab.label)) + 2 for tab in tabs) <= 80
        assert re.search(r"Shared \(\d+\) .* Agents \(\d+\)", tab_strip(app))
        await pilot.resize_terminal(130, 30)
        await settle(pilot)
        assert re.search(r"Shared by owner \(\d+\) .* Unconfigured \(\d+\)", tab_strip(app))
