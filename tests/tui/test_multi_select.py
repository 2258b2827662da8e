"""Multi-select: space marks rows (a mark column, a count in the title), and p, u, d
and r act on every marked note, confirmed with the count, written one by one through
the engine: what is refused is named, and the rest is still written."""

from __future__ import annotations

from amem_tui.demo import demo_id
from amem_tui.engine.engine import MemoryEngine
from amem_tui.tui.dialogs.confirm import ConfirmDialog
from amem_tui.tui.widgets.note_pane import NotePane
from amem_tui.tui.widgets.pane_tables import MARK
from tests.support.tui import (
    demo_app,
    demo_engine,
    main_screen,
    pane,
    row_ids,
    said,
    settle,
    started,
    until,
)


def marks_drawn(p: NotePane) -> list[str]:
    """The rows whose mark column shows the mark."""
    table = p.table
    return [i for i in row_ids(p) if table.get_cell(i, "mark").plain == MARK]


def states(engine: MemoryEngine) -> dict[str, tuple[bool, str | None]]:
    """Every note main or dev can see: (active, agent_id)."""
    out: dict[str, tuple[bool, str | None]] = {}
    for agent in ("main", "dev"):
        page = engine.agent(agent).list_notes("visible", limit=500, include_inactive=True)
        out |= {n.id: (n.active, n.agent_id) for n in page.notes}
    return out


async def test_space_marks_and_moves_on_the_title_counts_and_the_column_shows() -> None:
    app = demo_app()
    async with started(app) as pilot:
        private = pane(app)
        rows = row_ids(private)
        assert "mark" not in [str(c.value) for c in private.table.columns]
        await pilot.press("space", "space", "down", "space")
        await settle(pilot)
        assert list(private.marked) == [rows[0], rows[1], rows[3]]
        assert marks_drawn(private) == [rows[0], rows[1], rows[3]]
        assert private.title_text.endswith(" · 3 marked")
        assert main_screen(app).selected_id == rows[4]  # the cursor moved on
        await pilot.press("up", "space")
        await settle(pilot)
        assert list(private.marked) == [rows[0], rows[1]]
        await pilot.press("escape")  # marks go before the search would
        await settle(pilot)
        assert not private.marked and "marked" not in private.title_text
        assert "mark" not in [str(c.value) for c in private.table.columns]


async def test_a_bulk_delete_asks_with_the_count_and_deletes_exactly_the_marked() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    async with started(app) as pilot:
        private = pane(app)
        rows = row_ids(private)
        before = states(engine)
        await pilot.press("space", "down", "space", "space")
        marked = [rows[0], rows[2], rows[3]]
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog)
        assert dialog.title_text == "Delete 3 notes?"
        assert [i for i in rows if i in str(dialog.body)] == marked
        notices = len(app.notice_log)
        await pilot.press("y")
        await until(pilot, lambda: "Soft-deleted 3 notes." in said(app, notices))
        await settle(pilot)
        after = states(engine)
        changed = {i for i in before if before[i] != after[i]}
        assert changed == set(marked)
        assert all(not after[i][0] for i in marked)
        assert not private.marked
        assert not set(marked) & set(row_ids(private))


async def test_refused_notes_are_named_and_the_others_are_still_written() -> None:
    engine = demo_engine()
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        shared = pane(app, "shared")
        await pilot.press("tab")
        await settle(pilot)
        owners = {n.id: n.effective_owner for n in shared.listing}
        mine = [i for i in row_ids(shared) if owners[i] == "dev"]
        theirs = [i for i in row_ids(shared) if owners[i] != "dev"]
        assert mine and theirs
        for note_id in (theirs[0], mine[0]):
            assert shared.select(note_id)
            await settle(pilot)
            await pilot.press("space")
        await settle(pilot)
        before = states(engine)
        await pilot.press("u")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog)
        assert dialog.title_text == "Unpublish 1 note?"
        body = str(dialog.body)
        assert "Left alone (1):" in body and f"{theirs[0]}: PERMISSION_DENIED" in body
        notices = len(app.notice_log)
        await pilot.press("y")
        await until(pilot, lambda: "Unpublished 1 note; 1 left alone" in said(app, notices))
        await settle(pilot)
        after = states(engine)
        assert {i for i in before if before[i] != after[i]} == {mine[0]}
        assert after[mine[0]] == (True, "dev")


async def test_a_note_changed_after_the_question_is_left_alone_and_named() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    async with started(app) as pilot:
        private = pane(app)
        rows = row_ids(private)
        await pilot.press("space", "space", "space")
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        assert app.screen.title_text == "Publish 3 notes?"
        engine.agent("main").publish(rows[1])  # another writer, while the question is open
        notices = len(app.notice_log)
        await pilot.press("y")
        await until(pilot, lambda: "Published 2 notes; 1 left alone" in said(app, notices))
        assert f"{rows[1]}: note {rows[1]} is already shared" in said(app, notices)
        await settle(pilot)
        assert all(engine.agent("main").get(i).is_shared for i in rows[:3])


async def test_nothing_to_do_says_why_without_asking() -> None:
    app = demo_app()
    async with started(app) as pilot:
        await pilot.press("space", "space")
        await settle(pilot)
        notices = len(app.notice_log)
        await pilot.press("r")  # none of them is deleted
        await settle(pilot)
        assert app.screen is main_screen(app)
        assert "Restored 0 notes; 2 left alone" in said(app, notices)
        assert "not deleted" in said(app, notices)


async def test_star_marks_what_the_filter_kept_and_restore_brings_them_back() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    async with started(app) as pilot:
        private = pane(app)
        await pilot.press("F", *"standup", "enter", "asterisk")
        await settle(pilot)
        kept = row_ids(private)
        assert len(kept) == 2 and list(private.marked) == kept
        await pilot.press("escape")  # the filter goes; the marks stay
        await settle(pilot)
        assert list(private.marked) == kept and marks_drawn(private) == kept
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("y")
        await until(pilot, lambda: not engine.agent("main").get(kept[0]).active)
        await settle(pilot)
        await pilot.press("x")  # show the deleted ones, mark them again, restore them
        await settle(pilot)
        await pilot.press("F", *"standup", "enter", "asterisk", "r")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        assert app.screen.title_text == "Restore 2 notes?"
        await pilot.press("y")
        await until(pilot, lambda: all(engine.agent("main").get(i).active for i in kept))


async def test_without_marks_the_keys_act_on_the_highlighted_row_as_before() -> None:
    app = demo_app()
    async with started(app) as pilot:
        subject = main_screen(app).selected_id
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        assert app.screen.title_text == "Soft-delete this note?"
        assert str(subject) in str(app.screen.body)


async def test_marks_are_per_agent() -> None:
    app = demo_app()
    async with started(app) as pilot:
        await pilot.press("space")
        await settle(pilot)
        assert pane(app).marked
        main_screen(app).switch_agent("dev")
        await settle(pilot)
        assert not pane(app).marked
        assert demo_id("shared-freeze") not in pane(app).marked
