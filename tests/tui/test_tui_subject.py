"""The note the detail shows and the note actions act on is the highlighted row: after a
publish or an unpublish, after a linked note, and from the command palette."""

from __future__ import annotations

from typing import Any

from textual.widgets import DataTable, OptionList

from amem_tui.demo import demo_id
from amem_tui.tui.dialogs.confirm import ConfirmDialog
from amem_tui.tui.screens.main import MainScreen
from amem_tui.tui.widgets.note_pane import NotePane
from tests.support.tui import demo_app, demo_engine, main_screen, settle, started


def highlighted(main: MainScreen) -> tuple[str, str | None]:
    """The focused note pane and its highlighted row."""
    table = main.focused
    assert isinstance(table, DataTable) and isinstance(table.parent, NotePane)
    return table.parent.which, table.parent.current_id


async def asked_about(pilot: Any, key: str) -> str:
    """Press ``key`` (a note action) and cancel its question: what it asked, or what it
    said instead (the rule that refuses it)."""
    app = pilot.app
    said = len(app.notice_log)
    await pilot.press(key)
    await settle(pilot)
    dialog = app.screen
    if not isinstance(dialog, ConfirmDialog):
        assert isinstance(dialog, MainScreen), type(dialog)
        return " ".join(message for _, message in list(app.notice_log)[said:])
    await pilot.press("escape")
    await settle(pilot)
    return str(dialog.body)


async def test_after_a_publish_the_detail_and_delete_follow_the_highlighted_row() -> None:
    # The scenario of the report: on the first private row, p, Enter, then Down twice.
    async with started() as pilot:
        main = main_screen(pilot.app)
        published = main.private_pane.current_id
        assert published is not None
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert published in [note.id for note in main.shared_pane.listing]
        assert highlighted(main) == ("shared", published)  # the selection went with it
        await pilot.press("down", "down")
        await settle(pilot)
        which, row = highlighted(main)
        assert which == "shared" and row is not None and row != published
        assert main.detail_view.note is not None and main.detail_view.note.id == row
        assert row in await asked_about(pilot, "d")
        assert published not in await asked_about(pilot, "d")


async def test_after_an_unpublish_the_detail_and_the_actions_follow_the_highlighted_row() -> None:
    async with started() as pilot:
        main = main_screen(pilot.app)
        snake = demo_id("shared-snake")  # main's shared note
        main.shared_pane.table.focus()
        await settle(pilot)
        assert main.shared_pane.select(snake)
        await settle(pilot)
        await pilot.press("u", "y")
        await settle(pilot)
        assert highlighted(main) == ("private", snake)
        await pilot.press("down")
        await settle(pilot)
        _, row = highlighted(main)
        assert row is not None and row != snake
        assert main.detail_view.note is not None and main.detail_view.note.id == row
        assert row in await asked_about(pilot, "p")


async def test_moving_in_the_other_pane_never_changes_the_subject() -> None:
    async with started() as pilot:
        main = main_screen(pilot.app)
        subject = main.private_pane.current_id
        main.shared_pane.table.move_cursor(row=2)  # not the pane the user works in
        await settle(pilot)
        assert highlighted(main) == ("private", subject)
        assert main.selected_id == subject and main.detail_view.note_data is not None
        assert main.detail_view.note_data.note.id == subject


async def test_a_followed_link_in_no_pane_is_the_subject_until_a_pane_moves() -> None:
    engine = demo_engine()
    gone = engine.agent("main").add("The old release checklist lived on the team wiki")
    engine.agent("main").delete(gone.id)  # listed by no pane while deleted notes are hidden
    linking = engine.agent("main").add("Release checklist: see the old one", links=[gone.id])
    async with started(demo_app(engine)) as pilot:
        main = main_screen(pilot.app)
        assert main.private_pane.select(linking.id)
        await settle(pilot)
        links = main.query_one("#links", OptionList)
        links.focus()
        links.highlighted = 0
        await pilot.press("enter")
        await settle(pilot)
        assert main.selected_id == gone.id
        assert main.detail_view.note is not None and main.detail_view.note.id == gone.id
        assert gone.id in await asked_about(pilot, "r")  # what the detail shows
        main.private_pane.table.focus()
        await pilot.press("down")
        await settle(pilot)
        _, row = highlighted(main)
        assert main.selected_id == row != gone.id
        assert main.detail_view.note is not None and main.detail_view.note.id == row


async def test_a_dimmed_action_from_the_palette_says_why_it_is_off() -> None:
    async with started(demo_app(demo_engine(read_only=True))) as pilot:
        app = pilot.app
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"Publish the selected note")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert any("read-only" in message for _, message in app.notice_log)


async def test_publishing_a_shared_note_is_refused_before_any_question() -> None:
    async with started() as pilot:
        main = main_screen(pilot.app)
        snake = demo_id("shared-snake")
        main.shared_pane.table.focus()
        assert main.shared_pane.select(snake)
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        assert isinstance(pilot.app.screen, MainScreen)
        _, said = pilot.app.notice_log[-1]
        assert snake in said and "already shared" in said
