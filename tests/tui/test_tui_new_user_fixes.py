"""What a new user tripped over (issue 13's bugs 1-12), each driven as a user does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Input, OptionList, Static, TextArea

from amem_tui.engine.models import EvolutionEntry, MemoryNote
from amem_tui.tui.dialogs.agent_picker import AgentPicker
from amem_tui.tui.dialogs.confirm import ConfirmDialog
from amem_tui.tui.dialogs.consolidation import ConsolidationPreview
from amem_tui.tui.dialogs.note_editor import NoteEditor
from amem_tui.tui.screens.main import MainScreen
from amem_tui.tui.widgets.history_pane import HistoryPane
from tests.support.tui import (
    SIZE,
    demo_app,
    demo_engine,
    detail_text,
    main_screen,
    notices,
    pane,
    settle,
    started,
)

ROOT = Path(__file__).resolve().parents[2]


def detail_title(app: Any) -> str:
    return str(main_screen(app).detail_view.border_title)


def toasts(app: Any) -> list[Any]:
    # Textual's notification widget, found by its type name (its class is not public).
    return list(app.screen.query("Toast"))


async def focus_history(pilot: Any) -> HistoryPane:
    history = main_screen(pilot.app).query_one(HistoryPane)
    history.table.focus()
    await settle(pilot)
    return history


# 1 ------------------------------------------------------------------------------
async def test_a_soft_delete_leaves_the_cursor_on_its_row() -> None:
    app = demo_app()
    async with started(app) as pilot:
        private = pane(app, "private")
        private.table.focus()
        await pilot.press("down", "down")  # row 3
        await settle(pilot)
        ids = [str(key.value) for key in private.table.rows]
        assert main_screen(app).selected_id == ids[2]
        await pilot.press("d", "y")
        await settle(pilot)
        assert ids[2] not in [str(key.value) for key in private.table.rows]
        assert private.table.cursor_row == 2
        assert main_screen(app).selected_id == ids[3]  # the next note, not row 1
        assert main_screen(app).detail_view.note_data is not None
        assert main_screen(app).detail_view.note_data.note.id == ids[3]


# 2 ------------------------------------------------------------------------------
async def test_restore_on_an_active_note_says_what_to_do_when_deleted_notes_are_shown() -> None:
    app = demo_app()
    async with started(app) as pilot:
        await pilot.press("x")
        await settle(pilot)
        pane(app, "private").table.focus()
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        said = notices(app)[-1]
        assert "not deleted" in said and "struck-through" in said and "Press x" not in said


# 3, 5 -----------------------------------------------------------------------------
async def test_apply_and_undo_with_the_history_focused_keep_the_detail_on_runs() -> None:
    engine = demo_engine()
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        history = await focus_history(pilot)
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, ConsolidationPreview)
        app.screen.query_one("#apply").press()
        await settle(pilot)
        (run,) = engine.agent("dev").history()
        assert history.table.has_focus and history.current_id == run.id
        assert detail_title(app) == f"Consolidation run {run.id}"
        await pilot.press("z", "y")
        await settle(pilot)
        undo = next(r for r in engine.agent("dev").history() if r.undoes == run.id)
        # The notification names the run that was undone (and the run recording it).
        assert any(f"Undid consolidation run {run.id}" in n and undo.id in n for n in notices(app))
        assert history.current_id == run.id
        assert detail_title(app) == f"Consolidation run {run.id}"
        assert "undone" in detail_text(app)
        await pilot.press("up")  # the first key moves the detail to the other run
        await settle(pilot)
        assert history.current_id == undo.id
        assert detail_title(app) == f"Consolidation run {undo.id}"


# 4 ------------------------------------------------------------------------------
async def test_undo_merge_on_an_undo_run_says_why_not() -> None:
    engine = demo_engine()
    run = engine.agent("dev").consolidate(dry_run=False)
    undo = engine.agent("dev").undo(run.id)
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        history = await focus_history(pilot)
        history.table.move_cursor(row=history.table.get_row_index(undo.id))
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot)
        said = notices(app)[-1]
        assert f"an undo of run {run.id}" in said and "list" not in said
        assert isinstance(app.screen, MainScreen)


# 6 ------------------------------------------------------------------------------
async def test_a_merge_is_chosen_from_the_start_and_one_dropped_note_is_singular() -> None:
    engine = demo_engine()
    run = engine.agent("main").consolidate(dry_run=False, threshold=0.8)
    assert [len(m.dropped) for m in run.merges] == [1]
    app = demo_app(engine)
    async with started(app) as pilot:
        await focus_history(pilot)
        merges = main_screen(app).query_one("#links", OptionList)
        assert merges.display and merges.highlighted == 0
        await pilot.press("m")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        body = str(app.screen.body)
        assert "the dropped note is restored" in body and "1 dropped notes" not in body


# 7 ------------------------------------------------------------------------------
async def test_empty_lists_and_unchanged_fields_are_not_shown_python_style() -> None:
    engine = demo_engine()
    legacy = MemoryNote.from_payload(
        "00000000-0000-0000-0000-0000000000aa",
        {
            "content": "A note from an older version with noisy history entries",
            "agent_id": "main",
            "keywords": [],
            "tags": ["people"],
            "evolution_history": [
                EvolutionEntry(
                    triggeredBy="main",
                    triggeredAt="2026-11-01T09:00:00Z",
                    action="publish",
                    oldContext="",
                    newContext="",
                ).to_dict(),
                EvolutionEntry(
                    triggeredBy="main",
                    triggeredAt="2026-11-02T09:00:00Z",
                    action="crud_update",
                    oldTags=["people"],
                    newTags=["people"],
                    oldContent="before",
                ).to_dict(),
            ],
        },
    )
    engine.put_notes("amem_notes", [legacy])
    app = demo_app(engine)
    async with started(app) as pilot:
        pane(app, "private").select(legacy.id)
        pane(app, "private").table.focus()
        await settle(pilot)
        body = detail_text(app)
        assert "keywords          (none)" in body and "[]" not in body
        side = str(main_screen(app).query_one("#timeline-text", Static).render())
        assert "crud_update" in side and "was: before" in side
        assert "context" not in side and "tags" not in side and "[" not in side


# 8 ------------------------------------------------------------------------------
async def test_no_notification_covers_a_dialog_or_outlives_an_agent_switch() -> None:
    app = demo_app(agent="sandbox")
    async with started(app, size=SIZE, notifications=True) as pilot:
        await pilot.press("p")  # Mode B: refused, with a notification
        await settle(pilot)
        assert toasts(app)
        await pilot.press("s")
        await settle(pilot)
        assert isinstance(app.screen, AgentPicker)
        assert not toasts(app)  # the dialog is not covered
        picker = app.screen
        main_row = next(i for i, s in enumerate(picker.agents) if s.agent == "main")
        picker.table.move_cursor(row=main_row)
        await pilot.press("enter")
        await settle(pilot)
        assert main_screen(app).scope is not None and main_screen(app).scope.agent == "main"
        assert not toasts(app)  # the Mode B refusal is not about main
        assert any("cannot publish" in n for n in notices(app))  # but it is in the log
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, ConsolidationPreview) and not toasts(app)


# 9 ------------------------------------------------------------------------------
async def test_the_audit_names_the_demo_configuration() -> None:
    from amem_tui.tui.screens.audit import AuditScreen

    app = demo_app()
    async with started(app) as pilot:
        await pilot.press("A")
        await settle(pilot)
        assert isinstance(app.screen, AuditScreen)
        summary = str(app.screen.query_one("#audit-summary", Static).render())
        assert "configuration: demo-store/openclaw.json" in summary
        assert "none found" not in summary


# 10 -----------------------------------------------------------------------------
async def test_the_agent_list_is_aligned_and_stops_at_its_ends() -> None:
    app = demo_app()
    async with started(app) as pilot:
        await pilot.press("s")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, AgentPicker)
        table = picker.table
        lines = [table.render_line(y + 1).text for y in range(table.row_count)]
        assert len({line.index("Mode") for line in lines}) == 1
        assert len({line.index("amem_notes") for line in lines}) == 1
        last = table.row_count - 1
        table.move_cursor(row=last)
        await pilot.press("down")
        await settle(pilot)
        assert table.cursor_row == last  # no wrap from the last to the first
        table.move_cursor(row=0)
        await pilot.press("up")
        await settle(pilot)
        assert table.cursor_row == 0


# 12 -----------------------------------------------------------------------------
async def test_the_editor_saves_only_when_asked_as_the_docs_say() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    async with started(app) as pilot:
        await pilot.press("a")
        await settle(pilot)
        editor = app.screen
        assert isinstance(editor, NoteEditor)
        hint = " ".join(str(s.render()) for s in editor.query(".hint").results(Static))
        assert "Nothing is saved until you press Ctrl+S" in hint
        editor.query_one(TextArea).text = "A draft the user thinks better of and discards"
        editor.query_one("#tags", Input).value = "draft"
        await pilot.press("escape")
        await settle(pilot)
        assert engine.agent("main").count("private") == 8
    guide = (ROOT / "docs" / "tui.md").read_text(encoding="utf-8")
    assert "Every change asks for confirmation first" not in guide
    assert "Add and edit open a form that saves only when you press" in guide
