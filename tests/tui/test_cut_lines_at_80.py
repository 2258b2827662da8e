"""What a new user saw cut at 80 columns: the search status line keeps the hidden-match
count and its key (what matters first; the rest ends in an ellipsis), every count
agrees with its noun, and the audit screen's tabs all fit (shorter titles), the
longer titles coming back on a wider terminal."""

from __future__ import annotations

import re

from rich.cells import cell_len
from textual.widgets import Tab

from amem_tui.tui.screens.audit import AuditScreen
from tests.support.tui import (
    demo_app,
    demo_engine,
    screen_lines,
    search_status,
    settle,
    started,
    until,
)


async def test_the_hidden_match_count_and_its_key_are_read_whole_at_80_columns() -> None:
    app = demo_app(agent="dev")
    async with started(app, size=(80, 24)) as pilot:
        await pilot.press("slash", *"production deploy frozen", "enter")
        await until(pilot, lambda: "hidden match" in search_status(app))
        await settle(pilot)
        [line] = [line for line in screen_lines(app) if re.match(r"\s*\d+ hits? ", line)]
        assert re.search(r"^\s*\d+ hits? .*· \d+ hidden match(es)? \(\^t to show\) · ", line)
        assert line.rstrip().endswith("…"), line  # the query and the rest, cut


async def searched_at_80(notes: dict[str, bool], query: str) -> list[str]:
    """The screen at 80x24 once ``query`` is answered, as main, over ``notes`` (the
    content, and whether it is shared)."""
    engine = demo_engine(seed=False)
    for content, shared in notes.items():
        engine.agent("main").add(content, shared=shared)
    app = demo_app(engine, agent="main")
    async with started(app, size=(80, 24)) as pilot:
        await pilot.press("slash", *query, "enter")
        await until(pilot, lambda: f" · for {query!r}" in search_status(app))
        await settle(pilot)
        return screen_lines(app)


async def test_one_hit_is_a_hit_on_the_status_line() -> None:
    lines = await searched_at_80({"Postgres pools 20 connections": True}, "postgres")
    assert lines[2].strip().startswith("1 hit · for 'postgres' as main · "), lines[2]


async def test_one_hit_is_a_hit_in_a_tab() -> None:
    notes = {"Postgres, our database": False, "Postgres pools 20 connections per service": True}
    screen = "\n".join(await searched_at_80(notes, "postgres"))
    assert "Private · main: 1 hit " in screen and "│ Shared (1 hit) │" in screen, screen


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
