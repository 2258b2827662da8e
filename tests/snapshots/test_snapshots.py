"""Snapshot tests of the main states (test embedder, fixed clock and ids).

The main view, a search, the consolidation preview, the add dialog and help are
also pictured at 80×24 and at a wide 200×50, next to 120×40.

Update after a deliberate change with ``pytest tests/snapshots --snapshot-update``
and look at every changed SVG before committing it.
"""

from __future__ import annotations

from typing import Any

import pytest

from amem_tui.demo import demo_id
from amem_tui.tui.screens.main import MainScreen
from amem_tui.tui.widgets.note_pane import NotePane
from tests.support.tui import SIZE, demo_app, demo_engine, settle

SMALL = (80, 24)
WIDE = (200, 50)


async def _select(pilot: Any, which: str, key: str) -> None:
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, MainScreen)
    pane = screen.query_one(f"#{which}", NotePane)
    assert pane.select(demo_id(key))
    pane.table.focus()
    await settle(pilot)


def test_main_view(snap_compare: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=SIZE, run_before=run_before)


def test_live_search(snap_compare: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("slash", *"production deploy frozen", "enter")
        await settle(pilot)

    assert snap_compare(demo_app(agent="dev"), terminal_size=SIZE, run_before=run_before)


def test_mode_b_agent(snap_compare: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)

    assert snap_compare(demo_app(agent="sandbox"), terminal_size=SIZE, run_before=run_before)


def test_note_detail_with_hidden_link_and_conflict(snap_compare: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await _select(pilot, "shared", "shared-freeze")

    assert snap_compare(demo_app(agent="dev"), terminal_size=SIZE, run_before=run_before)


def test_agent_switcher(snap_compare: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=SIZE, run_before=run_before)


def test_add_note_dialog_mode_b(snap_compare: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)

    assert snap_compare(demo_app(agent="sandbox"), terminal_size=SIZE, run_before=run_before)


def test_read_only(snap_compare: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)

    app = demo_app(demo_engine(read_only=True))
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_hostile_content(snap_compare: Any) -> None:
    engine = demo_engine()
    engine.agent("main").add(
        "[bold red]markup[/] stray [/] ANSI \x1b[31mred\x1b[0m OSC \x1b]0;title\x07 end",
    )

    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        screen = pilot.app.screen
        pane = screen.query_one("#private", NotePane)
        assert pane.select("00000000-0000-0000-0000-000000000001")
        pane.table.focus()
        await settle(pilot)

    assert snap_compare(demo_app(engine), terminal_size=SIZE, run_before=run_before)


def test_consolidation_preview(snap_compare: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)

    assert snap_compare(demo_app(agent="dev"), terminal_size=SIZE, run_before=run_before)


def test_history_after_consolidation(snap_compare: Any) -> None:
    engine = demo_engine()
    engine.agent("dev").consolidate(dry_run=False)

    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        screen = pilot.app.screen
        screen.query_one("#history").table.focus()
        await settle(pilot)

    assert snap_compare(demo_app(engine, agent="dev"), terminal_size=SIZE, run_before=run_before)


# ------------------------------------------------ the same states, small and wide
async def _settled(pilot: Any) -> None:
    await settle(pilot)


async def _searched(pilot: Any) -> None:
    await settle(pilot)
    await pilot.press("slash", *"production deploy frozen", "enter")
    await settle(pilot)


async def _previewed(pilot: Any) -> None:
    await settle(pilot)
    await pilot.press("c")
    await settle(pilot)


async def _adding(pilot: Any) -> None:
    await settle(pilot)
    await pilot.press("a")
    await settle(pilot)


async def _helped(pilot: Any) -> None:
    await settle(pilot)
    await pilot.press("f1")
    await settle(pilot)


def test_main_view_small(snap_compare: Any) -> None:
    assert snap_compare(demo_app(), terminal_size=SMALL, run_before=_settled)


def test_main_view_wide(snap_compare: Any) -> None:
    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=_settled)


def test_live_search_small(snap_compare: Any) -> None:
    assert snap_compare(demo_app(agent="dev"), terminal_size=SMALL, run_before=_searched)


def test_live_search_wide(snap_compare: Any) -> None:
    assert snap_compare(demo_app(agent="dev"), terminal_size=WIDE, run_before=_searched)


def test_consolidation_preview_small(snap_compare: Any) -> None:
    assert snap_compare(demo_app(agent="dev"), terminal_size=SMALL, run_before=_previewed)


def test_consolidation_preview_wide(snap_compare: Any) -> None:
    assert snap_compare(demo_app(agent="dev"), terminal_size=WIDE, run_before=_previewed)


def test_add_note_dialog_small(snap_compare: Any) -> None:
    assert snap_compare(demo_app(), terminal_size=SMALL, run_before=_adding)


def test_add_note_dialog(snap_compare: Any) -> None:
    assert snap_compare(demo_app(), terminal_size=SIZE, run_before=_adding)


def test_add_note_dialog_wide(snap_compare: Any) -> None:
    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=_adding)


def test_help_small(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AMEM_CONFIG_DIR", "amem-config")  # the folder the help names
    assert snap_compare(demo_app(), terminal_size=SMALL, run_before=_helped)


def test_help(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AMEM_CONFIG_DIR", "amem-config")  # the folder the help names
    assert snap_compare(demo_app(), terminal_size=SIZE, run_before=_helped)


def test_help_wide(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AMEM_CONFIG_DIR", "amem-config")  # the folder the help names
    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=_helped)
