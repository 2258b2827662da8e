"""Snapshots of the readers field in the add and edit forms, at 80x24 and 120x40:
main adding a note with dev chosen (what openclaw-amem will do, said before saving),
and main editing dev's shared note, whose readers only dev may choose (read-only,
with the reason)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Static

from amem_tui.demo import demo_id
from amem_tui.tui.dialogs.confirm import ConfirmDialog
from amem_tui.tui.widgets.readers_field import ReadersList
from tests.support.tui import demo_app, demo_engine, press_on_note, settle, snapshot, until

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])


async def _dev_chosen(pilot: Any) -> None:
    await pilot.press(*"The staging VPN profile is in the vault")
    while not isinstance(pilot.app.focused, ReadersList):
        await pilot.press("tab")
    await pilot.press("space")  # the cursor starts on the first agent: dev
    await settle(pilot)


async def _edit_oncall(pilot: Any) -> None:
    await press_on_note(pilot, demo_id("shared-oncall"), "e")


@SIZES
def test_add_note_with_a_reader(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snapshot(snap_compare, size=size, keys=["a"], then=_dev_chosen)


@SIZES
def test_edit_note_readers_read_only(snap_compare: Any, size: tuple[int, int]) -> None:
    engine = demo_engine()
    oncall = engine.agent("dev").get(demo_id("shared-oncall"))
    engine.put_notes("amem_notes", [oncall.model_copy(update={"writers": ["*"]})])
    assert snapshot(snap_compare, demo_app(engine), size=size, then=_edit_oncall)


async def _readers_question(pilot: Any) -> None:
    await press_on_note(pilot, demo_id("dev-selective"), "e")
    while not isinstance(pilot.app.focused, ReadersList):
        await pilot.press("tab")
    await pilot.press("space", "enter")  # main, the one reader, is let go; then save
    await settle(pilot)
    assert isinstance(pilot.app.screen, ConfirmDialog)
    said = pilot.app.screen.query_one("#confirm-preview", Static)
    await until(pilot, lambda: "computing" not in str(said.render()))
    await settle(pilot)


@SIZES
def test_edit_readers_asks_with_what_it_would_do(snap_compare: Any, size: tuple[int, int]) -> None:
    """dev lets main go from its note's readers: the question before the save, with the
    checks and recent queries the change would move (here: dev's query, none moved)."""
    engine = demo_engine()
    engine.query_history().record("dev", "staging database credentials")
    app = demo_app(engine, agent="dev")
    assert snapshot(snap_compare, app, size=size, then=_readers_question)
