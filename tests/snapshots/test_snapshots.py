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
from tests.support.tui import demo_app, demo_engine, screen_lines, settle, snapshot, until

#: The sizes the main states are pictured at: small, the default and wide.
SIZES = pytest.mark.parametrize(
    "size", [(80, 24), (120, 40), (200, 50)], ids=["80x24", "120x40", "200x50"]
)
#: A search typed and sent to the hits.
SEARCH = ["slash", *"production deploy frozen", "enter"]


def _selected(which: str, note_id: str) -> Any:
    """What ``then`` does to select a note of a pane (and focus the pane)."""

    async def select(pilot: Any) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, MainScreen)
        pane = screen.query_one(f"#{which}", NotePane)
        assert pane.select(note_id)
        pane.table.focus()
        await settle(pilot)

    return select


def test_mode_b_agent(snap_compare: Any) -> None:
    assert snapshot(snap_compare, demo_app(agent="sandbox"))


async def _searched_and_cleared(pilot: Any) -> None:
    """A search typed, its hits shown, then cleared (Escape twice)."""
    await pilot.press("slash", *"plugin")
    await until(pilot, lambda: " hits " in " ".join(screen_lines(pilot.app)))
    await settle(pilot)
    await pilot.press("escape", "escape")
    await settle(pilot)


def test_mode_b_agent_once_a_search_is_cleared(snap_compare: Any) -> None:
    # At 120x40 the collection's rows ran past its border here, without their '…'.
    app = demo_app(agent="sandbox")
    assert snapshot(snap_compare, app, size=(120, 40), then=_searched_and_cleared)


def test_note_detail_with_hidden_link_and_conflict(snap_compare: Any) -> None:
    select = _selected("shared", demo_id("shared-freeze"))
    assert snapshot(snap_compare, demo_app(agent="dev"), then=select)


def test_agent_switcher(snap_compare: Any) -> None:
    assert snapshot(snap_compare, keys=["s"])


def test_add_note_dialog_mode_b(snap_compare: Any) -> None:
    assert snapshot(snap_compare, demo_app(agent="sandbox"), keys=["a"])


def test_read_only(snap_compare: Any) -> None:
    assert snapshot(snap_compare, demo_app(demo_engine(read_only=True)))


def test_hostile_content(snap_compare: Any) -> None:
    engine = demo_engine()
    engine.agent("main").add(
        "[bold red]markup[/] stray [/] ANSI \x1b[31mred\x1b[0m OSC \x1b]0;title\x07 end",
    )
    select = _selected("private", "00000000-0000-0000-0000-000000000001")
    assert snapshot(snap_compare, demo_app(engine), then=select)


def test_history_after_consolidation(snap_compare: Any) -> None:
    engine = demo_engine()
    engine.agent("dev").consolidate(dry_run=False)

    async def focus_history(pilot: Any) -> None:
        pilot.app.screen.query_one("#history").table.focus()
        await settle(pilot)

    assert snapshot(snap_compare, demo_app(engine, agent="dev"), then=focus_history)


# ------------------------------------------------ the main states at every size
@SIZES
def test_main_view(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snapshot(snap_compare, size=size)


@SIZES
def test_live_search(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snapshot(snap_compare, demo_app(agent="dev"), size=size, keys=SEARCH)


@SIZES
def test_consolidation_preview(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snapshot(snap_compare, demo_app(agent="dev"), size=size, keys=["c"])


@SIZES
def test_add_note_dialog(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snapshot(snap_compare, size=size, keys=["a"])


@SIZES
def test_help(snap_compare: Any, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AMEM_CONFIG_DIR", "amem-config")  # the folder the help names
    assert snapshot(snap_compare, size=size, keys=["f1"])
