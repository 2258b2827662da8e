"""The readers field of the add and edit forms, driven as a user does: space chooses an
agent, the form says what openclaw-amem will do (or why it would be refused) before
anything is saved, Enter saves, and only the owner chooses."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input, RadioButton, Static, TextArea

from amem_tui.demo import demo_id
from amem_tui.tui.dialogs.confirm import ConfirmDialog
from amem_tui.tui.dialogs.note_editor import NoteEditor
from amem_tui.tui.screens.main import MainScreen
from amem_tui.tui.widgets.note_pane import NotePane
from amem_tui.tui.widgets.readers_field import ReadersField, ReadersList, ReadersSaid
from tests.support.tui import (
    demo_app,
    demo_engine,
    main_screen,
    screen_lines,
    settle,
    started,
    until,
)


def editor(app: Any) -> NoteEditor:
    screen = app.screen
    assert isinstance(screen, NoteEditor), type(screen)
    return screen


def field(app: Any) -> ReadersField:
    return editor(app).query_one(ReadersField)


def said(app: Any) -> str:
    return str(editor(app).query_one(ReadersSaid).render())


def confirm(app: Any) -> str:
    """The question on screen (a confirm dialog), as text."""
    screen = app.screen
    assert isinstance(screen, ConfirmDialog), type(screen)
    return str(screen.body)


def preview(app: Any) -> str:
    """What the confirm dialog says the change would do (once worked out)."""
    return str(app.screen.query_one("#confirm-preview", Static).render())


def offered(app: Any) -> list[str]:
    listing = field(app).query_one(ReadersList)
    return [str(listing.get_option_at_index(i).value) for i in range(listing.option_count)]


async def tab_to_readers(pilot: Any) -> None:
    """Tab through the form until the readers list has the focus."""
    for _ in range(6):
        if isinstance(pilot.app.focused, ReadersList):
            return
        await pilot.press("tab")
        await settle(pilot)
    assert isinstance(pilot.app.focused, ReadersList), pilot.app.focused


async def choose(pilot: Any, agent: str) -> None:
    """Move the cursor to ``agent`` in the readers list and press space."""
    await tab_to_readers(pilot)
    listing = field(pilot.app).query_one(ReadersList)
    while str(listing.get_option_at_index(listing.highlighted or 0).value) != agent:
        await pilot.press("down")
    await pilot.press("space")
    await settle(pilot)


async def select_note(pilot: Any, which: str, note_id: str) -> None:
    pane = main_screen(pilot.app).query_one(f"#{which}", NotePane)
    await pilot.click(pane.table)
    await settle(pilot)
    assert pane.select(note_id)
    await settle(pilot)


async def test_readers_are_chosen_with_space_said_and_saved_with_enter() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    async with started(app) as pilot:
        await pilot.press("a")
        await settle(pilot)
        # The known agents, the agent itself left out; "*" is offered to say what it is.
        assert offered(app) == ["dev", "sandbox", "*"]
        assert "only main, its owner, reads it" in said(app)
        await pilot.press(*"The staging VPN profile is in the vault")
        await choose(pilot, "dev")
        assert field(app).chosen == ["dev"]
        assert "openclaw-amem: getNote returns it to dev" in said(app)
        assert "memory_search" in said(app)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        added = next(
            n
            for n in engine.agent("main").list_notes("private", limit=50).notes
            if n.content.startswith("The staging VPN")
        )
        assert added.readers == ["main", "dev"]
        assert engine.agent("dev").get(added.id).id == added.id
        assert any("dev may read it by id" in message for _, message in app.notice_log)


async def test_a_chosen_reader_reads_apart_from_the_others_without_colour(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")  # the app draws in monochrome
    app = demo_app(demo_engine())
    async with started(app) as pilot:
        await pilot.press("a")
        await settle(pilot)
        await choose(pilot, "dev")
        listing = field(app).query_one(ReadersList)
        # The characters drawn, no colour or style: the box of dev alone is ticked.
        boxes = [listing.render_line(y).text[:3] for y in range(listing.option_count)]
        assert boxes[0] != boxes[1] == boxes[2]
        assert "X" in boxes[0] and "X" not in boxes[1]
        await pilot.press("space")  # dev unchosen: every box alike
        await settle(pilot)
        assert len({listing.render_line(y).text[:3] for y in range(3)}) == 1


async def test_the_chosen_scope_reads_apart_from_the_other_without_colour(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = demo_app(demo_engine())
    async with started(app) as pilot:
        await pilot.press("a")
        await settle(pilot)
        buttons = [editor(app).query_one(f"#{id}", RadioButton) for id in ("private", "shared")]

        def drawn() -> list[str]:
            return [str(button.render())[:3] for button in buttons]

        assert drawn() == ["▐●▌", "▐ ▌"]
        await pilot.click(buttons[1])  # shared chosen: the dot moves
        await settle(pilot)
        assert drawn() == ["▐ ▌", "▐●▌"]


async def test_a_refused_choice_is_said_before_saving_and_keeps_the_form_open() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    async with started(app) as pilot:
        await pilot.press("a")
        await settle(pilot)
        editor(app).query_one(TextArea).text = "Only main and dev should know the pager code"
        await choose(pilot, "sandbox")
        assert said(app).startswith("Refused:") and "Mode B" in said(app)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, NoteEditor)  # nothing saved; the form says why
        assert said(app).startswith("Not saved:") and "Mode B" in said(app)
        assert engine.agent("main").count("private") == 8
        await choose(pilot, "sandbox")  # unchosen: the refusal goes
        await choose(pilot, "*")
        assert "publish" in said(app)
        await choose(pilot, "*")
        await choose(pilot, "dev")
        # Shared takes no readers: said as soon as it is chosen.
        editor(app).query_one("#shared").value = True
        await settle(pilot)
        assert said(app).startswith("Refused:") and "shared note" in said(app)
        editor(app).query_one("#private").value = True
        await settle(pilot)
        assert "getNote returns it to dev" in said(app)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert engine.agent("main").count("private") == 9


async def test_the_edit_form_shows_and_changes_the_owners_readers() -> None:
    engine = demo_engine()
    app = demo_app(engine, agent="dev")
    note_id = demo_id("dev-selective")
    async with started(app) as pilot:
        await select_note(pilot, "private", note_id)
        await pilot.press("e")
        await settle(pilot)
        assert field(app).chosen == ["main"]
        assert "getNote returns it to main" in said(app)
        await choose(pilot, "main")  # no other reader now
        assert "only dev, its owner, reads it" in said(app)
        await pilot.press("enter")
        await settle(pilot)
        # A change of readers is asked first, with what it would do; n keeps them.
        question = confirm(app)
        assert "Readers: main → none but dev." in question
        await until(pilot, lambda: "computing" not in preview(app))
        assert "recent queries whose top 5 would change" in preview(app)
        await pilot.press("n")
        await settle(pilot)
        assert engine.agent("dev").get(note_id).readers == ["dev", "main"]
        await pilot.press("e")
        await settle(pilot)
        await choose(pilot, "main")
        await pilot.press("enter")
        await settle(pilot)
        confirm(app)
        await pilot.press("y")
        await settle(pilot)
        assert engine.agent("dev").get(note_id).readers == ["dev"]
        assert any("no other agent reads it now" in m for _, m in app.notice_log)
        # Content only: saved at once, the readers left as they are.
        await pilot.press("e")
        await settle(pilot)
        editor(app).query_one("#tags", Input).value = "staging, secrets"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmDialog)
        note = engine.agent("dev").get(note_id)
        assert note.tags == ["staging", "secrets"] and note.readers == ["dev"]


async def test_another_agents_note_shows_its_readers_read_only_with_the_reason() -> None:
    engine = demo_engine()
    oncall = engine.agent("dev").get(demo_id("shared-oncall"))
    # dev's shared note that any agent may modify: main may edit it, never choose readers.
    engine.put_notes("amem_notes", [oncall.model_copy(update={"writers": ["*"]})])
    app = demo_app(engine)
    async with started(app) as pilot:
        await select_note(pilot, "shared", oncall.id)
        await pilot.press("e")
        await settle(pilot)
        listing = field(app).query_one(ReadersList)
        assert listing.disabled
        assert said(app).startswith("Read-only (readers: ") and "only its owner (dev)" in said(app)
        await tab_to_readers_or_not(pilot)
        editor(app).query_one("#tags", Input).value = "oncall, payments"
        await pilot.press("ctrl+s")
        await settle(pilot)
        note = engine.agent("main").get(oncall.id)
        assert note.tags == ["oncall", "payments"] and note.readers == ["*"]


async def tab_to_readers_or_not(pilot: Any) -> None:
    """A read-only list is no stop for Tab."""
    for _ in range(6):
        await pilot.press("tab")
        await settle(pilot)
        assert not isinstance(pilot.app.focused, ReadersList)


async def test_a_mode_b_agent_and_its_own_shared_note_take_no_readers() -> None:
    engine = demo_engine()
    app = demo_app(engine, agent="sandbox")
    async with started(app) as pilot:
        await pilot.press("a")
        await settle(pilot)
        assert field(app).query_one(ReadersList).disabled
        assert said(app).startswith("Read-only (readers: ") and "Mode B" in said(app)
    app = demo_app(engine)
    async with started(app) as pilot:
        await select_note(pilot, "shared", demo_id("shared-snake"))
        await pilot.press("e")
        await settle(pilot)
        assert field(app).query_one(ReadersList).disabled
        assert "unpublish it first" in said(app)


async def test_the_list_stays_in_view_when_what_is_said_grows() -> None:
    app = demo_app(demo_engine(), agent="dev")
    async with started(app, size=(80, 24)) as pilot:
        await select_note(pilot, "private", demo_id("dev-selective"))
        await pilot.press("e")
        await settle(pilot)
        await choose(pilot, "sandbox")  # a refusal: three lines where the sentence had two
        assert said(app).startswith("Refused:")
        fields = editor(app).query_one("#fields").region
        listing = field(app).query_one(ReadersList).region
        assert fields.contains_region(listing), (fields, listing)


async def test_a_mode_b_add_form_keeps_no_blank_rows_for_a_list_it_never_shows() -> None:
    app = demo_app(agent="sandbox")
    async with started(app, size=(120, 40)) as pilot:
        await pilot.press("a")
        await settle(pilot)
        lines = screen_lines(app)
        title = next(i for i, line in enumerate(lines) if "Readers: agents" in line)
        assert "Read-only (readers: none but sandbox)" in lines[title + 1], lines[title + 1]
    app = demo_app(agent="dev")  # a list to show: the form keeps its height
    async with started(app, size=(120, 40)) as pilot:
        await pilot.press("a")
        await settle(pilot)
        assert field(app).query_one(ReadersList).display
        assert editor(app).query_one("#form").region.height == 32
