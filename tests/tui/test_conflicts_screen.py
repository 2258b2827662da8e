"""The Conflicts screen (key C and the palette): the flagged pairs side by side with a
word diff, decisions behind a confirm showing their dry run, refusals naming the rule,
and undo of the last decision."""

from __future__ import annotations

from typing import Any

from textual.widgets import DataTable, Input, Static

from amem_tui.demo import demo_id
from amem_tui.demo_desk import MONITOR, plant_conflicts_and_health
from amem_tui.engine import MemoryEngine
from amem_tui.engine.for_apps import ConflictPair
from amem_tui.tui.dialogs.confirm import ConfirmDialog
from amem_tui.tui.dialogs.settle import SettleDialog
from amem_tui.tui.screens.conflicts import ConflictsScreen
from tests.support.tui import (
    demo_app,
    demo_engine,
    main_screen,
    notices,
    pane,
    row_ids,
    settle,
    started,
    until,
)

EARLY, LATE = demo_id("ops-backup-early"), demo_id("ops-backup-late")


def desk_engine() -> MemoryEngine:
    engine = demo_engine()
    plant_conflicts_and_health(engine)
    return engine


def rows(screen: ConflictsScreen) -> list[list[str]]:
    table = screen.query_one("#conflicts-table", DataTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


def listed(screen: ConflictsScreen) -> list[tuple[str, ...]]:
    return [i.ids if isinstance(i, ConflictPair) else (i.note.id,) for i in screen.items]


def shown(screen: ConflictsScreen) -> str:
    return "\n".join(
        str(screen.query_one(f"#{part}", Static).render())
        for part in ("conflict-a", "conflict-b", "conflict-footer")
    )


async def open_desk(pilot: Any) -> ConflictsScreen:
    app = pilot.app
    await pilot.press("C")
    await until(pilot, lambda: isinstance(app.screen, ConflictsScreen))
    await until(pilot, lambda: app.screen.listing is not None)
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, ConflictsScreen)
    return screen


async def test_the_open_pair_side_by_side_keep_a_then_undo() -> None:
    engine = desk_engine()
    app = demo_app(engine, agent=MONITOR)
    async with started(app, notifications=True) as pilot:
        screen = await open_desk(pilot)
        assert [r[0] for r in rows(screen)] == ["pair", "dangling"]
        text = shown(screen)
        # The newer note is A; the diff reads without colour: [-B's words-]{+A's+}.
        assert text.index(LATE) < text.index(EARLY)
        assert "[-01-]{+03+}:00 UTC" in text
        assert "two backup times for db-1" in text and "scanned" in text
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, SettleDialog))
        await settle(pilot)
        plan = str(app.screen.query_one("DialogBody Static", Static).render())
        assert f"retire  {EARLY}" in plan  # the dry run, before anything is written
        assert engine.agent(MONITOR).get(EARLY).active
        app.screen.query_one(Input).value = "the window moved"
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen and screen.last is not None)
        await until(pilot, lambda: [r[0] for r in rows(screen)] == ["dangling"])
        assert not engine.agent(MONITOR).get(EARLY).active
        [run] = [r for r in engine.agent(MONITOR).history() if r.id == screen.last.run.id]
        assert run.settles is not None and run.settles.reason == "the window moved"
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("y")
        await until(pilot, lambda: [r[0] for r in rows(screen)] == ["pair", "dangling"])
        assert engine.agent(MONITOR).get(EARLY).active
        assert any("undone" in n for n in notices(app))


async def test_cancel_writes_nothing_and_a_refusal_names_the_rule() -> None:
    engine = desk_engine()
    app = demo_app(engine, agent=MONITOR)
    async with started(app, notifications=True) as pilot:
        screen = await open_desk(pilot)
        await pilot.press("k")
        await until(pilot, lambda: isinstance(app.screen, SettleDialog))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        assert engine.agent(MONITOR).conflicts.list().pairs  # still flagged
        # main's shared note: monitor may read its flag but not change it.
        flagged = screen.items[1].note.id  # type: ignore[union-attr]
        await pilot.press("down", "x")
        await until(pilot, lambda: any("settle a conflict of" in n for n in notices(app)))
        assert app.screen is screen
        assert engine.agent("main").get(flagged).conflicts_with  # not cleared


async def test_store_wide_and_enter_goes_to_note_a() -> None:
    app = demo_app(desk_engine(), agent="dev")
    async with started(app) as pilot:
        screen = await open_desk(pilot)
        assert [r[0] for r in rows(screen)] == ["dangling"]  # dev reads none of monitor's
        await pilot.press("w")
        await until(pilot, lambda: "pair" in [r[0] for r in rows(screen)])
        summary = str(screen.query_one("#conflicts-summary", Static).render())
        assert "the whole store" in summary
        at = [getattr(item, "ids", ())[:1] for item in screen.items].index((LATE,))
        screen.query_one("#conflicts-table", DataTable).move_cursor(row=at)
        await settle(pilot)
        await pilot.press("enter")
        main = main_screen(app)
        await until(pilot, lambda: app.screen is main)
        await until(pilot, lambda: main.scope is not None and main.scope.agent == MONITOR)
        await until(pilot, lambda: main.selected_id == LATE)


async def test_a_retired_note_leaves_the_panes_and_a_dangling_flag_is_cleared() -> None:
    engine = desk_engine()
    engine.agent(MONITOR).delete(EARLY)  # LATE's flag now names a retired partner
    app = demo_app(engine, agent=MONITOR)
    async with started(app) as pilot:
        main = main_screen(app)
        assert LATE in row_ids(pane(app))
        screen = await open_desk(pilot)
        screen.query_one("#conflicts-table", DataTable).move_cursor(
            row=listed(screen).index((LATE,))
        )
        await settle(pilot)
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, SettleDialog))
        await pilot.press("enter")
        await until(pilot, lambda: screen.last is not None)
        await until(pilot, lambda: (LATE,) not in listed(screen))
        assert not engine.agent(MONITOR).get(LATE).conflicts_with
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is main)


async def test_the_panes_are_read_again_after_a_decision() -> None:
    engine = desk_engine()
    app = demo_app(engine, agent=MONITOR)
    async with started(app) as pilot:
        main = main_screen(app)
        assert EARLY in row_ids(pane(app))
        screen = await open_desk(pilot)
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, SettleDialog))
        await pilot.press("enter")
        await until(pilot, lambda: screen.last is not None)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is main)
        await until(pilot, lambda: EARLY not in row_ids(pane(app)))
