"""The detail view's Versions tab (V): every version of the subject, the words a version
changed, and a revert (Enter or R, confirmed) kept as a new version."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from amem_tui.demo import demo_id
from amem_tui.tui.dialogs.confirm import ConfirmDialog
from tests.support.tui import demo_app, demo_engine, main_screen, settle, started, until

TRIP = demo_id("main-trip")
ORIGINAL = "Flight to Lisbon for the offsite is booked for December 14, seat 12A"
EDITS = (
    "Flight to Lisbon for the offsite is booked for December 15, seat 12A",
    "Flight to Lisbon for the offsite is booked for December 15, seat 3C",
    "Train to Lisbon for the offsite is booked for December 15, coach 3",
)


def edited_engine() -> Any:
    """The demo, with main's trip note edited three times through the engine."""
    engine = demo_engine()
    for content in EDITS:
        engine.agent("main").update(TRIP, content=content)
    return engine


async def open_versions(pilot: Any, note_id: str = TRIP) -> Any:
    screen = main_screen(pilot.app)
    assert screen.panes.select(note_id)
    await settle(pilot)
    await pilot.press("V")
    await settle(pilot)
    detail = screen.detail_view
    assert detail.tab == "versions"
    await until(pilot, lambda: detail.versions.history is not None)
    return detail


def rows(detail: Any) -> list[str]:
    options = detail.versions.version_list
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def body(detail: Any) -> Text:
    renderable = detail.versions.version_body.content
    assert isinstance(renderable, Text)
    return renderable


def styled(text: Text, style: str) -> list[str]:
    return [text.plain[span.start : span.end] for span in text.spans if str(span.style) == style]


async def test_a_note_edited_three_times_is_reverted_to_its_first_version() -> None:
    engine = edited_engine()
    async with started(demo_app(engine, agent="main")) as pilot:
        detail = await open_versions(pilot)
        # Newest first: three updates, and the demo's note as it was found (outside).
        listed = rows(detail)
        assert [line.split()[:2] for line in listed] == [
            ["4", "main"],
            ["3", "main"],
            ["2", "main"],
            ["1", "?"],
        ]
        assert "outside change" in listed[-1]
        await pilot.press("end")  # the oldest version
        await settle(pilot)
        shown = detail.shown_versions
        assert shown is not None and shown[1].number == 1
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert engine.agent("main").get(TRIP).content == ORIGINAL
        await until(pilot, lambda: len(rows(detail)) == 5)
        assert "reverted to 1" in rows(detail)[0]
        history = engine.agent("main").versions(TRIP).versions
        assert [v.action for v in history] == ["outside", "update", "update", "update", "revert"]


async def test_a_version_shows_the_words_it_changed() -> None:
    async with started(demo_app(edited_engine(), agent="main")) as pilot:
        detail = await open_versions(pilot)
        await pilot.press("down")  # version 3: the seat changed
        await settle(pilot)
        text = body(detail)
        assert "Version 3 of 4" in text.plain
        assert styled(text, "strike red") == ["12A"]
        assert styled(text, "underline green") == ["3C"]


def question(app: Any) -> str:
    """The plain text of the confirm dialog on screen."""
    dialog = app.screen
    assert isinstance(dialog, ConfirmDialog)
    return dialog.body.plain


async def test_the_revert_confirm_marks_the_words_that_change_and_the_access_that_stays() -> None:
    app = demo_app(edited_engine(), agent="main")
    async with started(app) as pilot:
        await open_versions(pilot)
        await pilot.press("end", "enter")  # ask to revert to version 1
        await settle(pilot)
        said = question(app)
        # The whole text, the changed words marked (the long note was once cut short
        # at the same place on both lines, hiding the change).
        assert "[-Train-]{+Flight+} to Lisbon" in said
        assert "December [-15-]{+14+}, [-coach 3-]{+seat 12A+}" in said
        assert "readers" in said and "main  (stay)" in said
        assert "writers" in said
        assert "scope" not in said  # private to main before and after
        assert "Train" in styled(app.screen.body, "strike red")
        assert "Flight" in styled(app.screen.body, "underline green")
        await pilot.press("n")
        await settle(pilot)


async def test_the_revert_confirm_says_when_readers_and_writers_change() -> None:
    engine = demo_engine()
    engine.agent("main").update(TRIP, readers=["dev"])
    engine.agent("main").publish(TRIP)
    app = demo_app(engine, agent="main")
    async with started(app) as pilot:
        await open_versions(pilot)
        await pilot.press("down", "enter")  # back to before the publish
        await settle(pilot)
        said = question(app)
        assert "content" in said and "stays as it is" in said
        assert "shared → private to main" in said
        assert "* → main, dev" in said
        assert "writers" in said and "main  (stay)" in said


async def test_v_goes_back_to_the_note_and_says_when_there_is_no_note() -> None:
    async with started(demo_app(edited_engine(), agent="main")) as pilot:
        screen = main_screen(pilot.app)
        table = screen.focused
        assert table is not None
        detail = await open_versions(pilot)
        await pilot.press("V")
        await settle(pilot)
        assert detail.tab == "note"
        assert "Versions (V)" in str(detail.border_title)
        # The keys go back to the list the Versions tab was opened from.
        assert screen.focused is table
        await pilot.press("down")
        await settle(pilot)
        assert screen.selected_id != TRIP
    app = demo_app(demo_engine(seed=False), agent="main")
    async with started(app) as pilot:
        await pilot.press("V")
        await settle(pilot)
        assert main_screen(pilot.app).detail_view.tab == "note"
        assert "Select a note first" in app.notice_log[-1][1]


async def test_a_revert_the_agent_may_not_make_is_refused_before_asking() -> None:
    engine = demo_engine()
    freeze = demo_id("shared-freeze")
    engine.agent("main").update(freeze, content="Production deploys are frozen until the audit")
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        await open_versions(pilot, freeze)
        await pilot.press("end")
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        assert main_screen(app) is app.screen  # refused before any dialog opened
        said = app.notice_log[-1][1]
        assert "dev" in said and freeze in said
        assert "audit" in engine.agent("main").get(freeze).content
        assert len(engine.agent("main").versions(freeze).versions) == 2


async def test_revert_is_off_on_a_read_only_store() -> None:
    engine = edited_engine()
    engine.settings = engine.settings.model_copy(update={"read_only": True})
    async with started(demo_app(engine, agent="main")) as pilot:
        await open_versions(pilot)
        assert main_screen(pilot.app).verdict("revert").reason
        await pilot.press("end", "R")
        await settle(pilot)
        assert engine.agent("main").get(TRIP).content == EDITS[-1]
