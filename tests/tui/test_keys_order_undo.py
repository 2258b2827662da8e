"""Keys that work where the hints say, newest-first listings, undo of one merge."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, OptionList

from amem_tui.tui.dialogs.confirm import ConfirmDialog
from amem_tui.tui.screens.main import MainScreen
from amem_tui.tui.widgets.detail import NoteDetail
from amem_tui.tui.widgets.history_pane import HistoryPane
from amem_tui.tui.widgets.note_pane import NotePane
from tests.support.engines import wrap_view_calls
from tests.support.tui import (
    demo_app,
    demo_engine,
    detail_text,
    main_screen,
    notices,
    search_status,
    settle,
    started,
)


async def test_hidden_matches_toggle_from_the_search_box_with_the_key_the_hint_names() -> None:
    app = demo_app(agent="dev")
    async with started(app) as pilot:
        await pilot.press("slash", *"flight to lisbon offsite seat")
        await settle(pilot)
        main = main_screen(app)
        search = main.query_one("#search", Input)
        assert search.has_focus
        assert "(^t to show)" in search_status(app)
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert search.value == "flight to lisbon offsite seat"  # nothing typed
        assert search.has_focus
        assert "not visible" in detail_text(app) and "Lisbon" not in detail_text(app)
        assert "(^t to hide)" in search_status(app)
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert "Hidden matches" not in str(main.query_one(NoteDetail).border_title)
        # h is text while the box has focus; it still toggles elsewhere.
        await pilot.press("h")
        await settle(pilot)
        assert search.value.endswith("h")
        await pilot.press("backspace", "enter")
        await settle(pilot)
        assert not search.has_focus
        await pilot.press("h")
        await settle(pilot)
        assert "not visible" in detail_text(app)


async def test_hint_follows_a_rebound_key() -> None:
    app = demo_app(agent="dev")
    async with started(app) as pilot:
        app.set_keymap({"toggle_hidden_anywhere": "ctrl+g"})
        await pilot.press("slash", *"flight to lisbon offsite seat")
        await settle(pilot)
        assert "(^g to show)" in search_status(app)
        await pilot.press("ctrl+g")
        await settle(pilot)
        assert "not visible" in detail_text(app)


async def test_private_rows_are_newest_first() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    async with started(app):
        table = main_screen(app).query_one("#private", NotePane).table
        shown = [str(key.value) for key in table.rows]
        notes = {n.id: n for n in engine.agent("main").list_notes("private", limit=100).notes}
        times = [notes[i].timestamp for i in shown]
        assert len(shown) == len(notes) > 2
        assert times == sorted(times, reverse=True)
        assert shown != list(notes)  # the store's order is not by time here


def _two_merges() -> Any:
    """dev with two merge groups applied: the demo's pair and one more."""
    engine = demo_engine()
    engine.agent("dev").add("The staging database password rotates every Monday at noon")
    engine.agent("dev").add("The staging database password rotates every Monday at noon UTC")
    run = engine.agent("dev").consolidate(dry_run=False)
    assert len(run.merges) == 2
    return engine, run


async def _show_run(pilot: Any) -> tuple[MainScreen, NoteDetail]:
    await settle(pilot)
    main = main_screen(pilot.app)
    main.query_one(HistoryPane).table.focus()
    await settle(pilot)
    detail = main.query_one(NoteDetail)
    assert detail.run is not None
    return main, detail


async def test_undo_one_merge_from_the_history_detail() -> None:
    engine, run = _two_merges()
    chosen, other = run.merges[1], run.merges[0]
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        main, detail = await _show_run(pilot)
        assert "m (or Enter" in detail_text(app)
        # Two merges, the first chosen from the start (issue 13): m asks about it.
        await pilot.press("m")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        assert other.keeper in str(app.screen.body)
        await pilot.press("n")
        await settle(pilot)
        merges = detail.query_one("#links", OptionList)
        merges.focus()
        merges.highlighted = 1
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("enter")  # the confirm button has focus
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert any(f"Undid the merge into {chosen.keeper}" in n for n in notices(app))
        for dropped in chosen.dropped:
            assert engine.agent("dev").get(dropped).active
        for dropped in other.dropped:
            assert not engine.agent("dev").get(dropped).active
        undo_runs = [r for r in engine.agent("dev").history() if r.trigger == "undo"]
        assert len(undo_runs) == 1
        assert len(main.query_one(HistoryPane).runs) == 2  # the pane was reloaded


async def test_undo_merge_cancelled_changes_nothing_and_refusal_names_the_reason() -> None:
    engine, run = _two_merges()
    merge = run.merges[0]
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        main, detail = await _show_run(pilot)
        detail.query_one("#links", OptionList).highlighted = 0
        await pilot.press("m")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("escape")
        await settle(pilot)
        assert all(not engine.agent("dev").get(d).active for d in merge.dropped)
        # The keeper changes elsewhere: the engine refuses, the app says why.
        engine.agent("dev").update(merge.keeper, content="Changed after the run, by hand")
        main.query_one(HistoryPane).table.focus()
        detail.query_one("#links", OptionList).highlighted = 0
        await pilot.press("m")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert app.is_running and isinstance(app.screen, MainScreen)
        refusals = [n for n in notices(app) if n.startswith("Rejected")]
        assert refusals and "changed" in refusals[-1]
        assert all(not engine.agent("dev").get(d).active for d in merge.dropped)


async def test_undo_merge_is_off_in_a_read_only_store() -> None:
    engine, _ = _two_merges()
    engine.settings = engine.settings.model_copy(update={"read_only": True})
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        await _show_run(pilot)
        await pilot.press("m")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmDialog)
        assert any("read-only" in n for n in notices(app))


async def test_hits_show_first_and_hidden_matches_follow() -> None:
    engine = demo_engine()
    found: list[str] = []

    def broken(view: Any, original: Any, query: str, *args: Any, **kwargs: Any) -> Any:
        found.append(query)
        raise RuntimeError("hidden-match step failed")

    mend = wrap_view_calls(engine, "hidden_matches", broken)
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        await pilot.press("slash", *"flight to lisbon offsite seat")
        await settle(pilot)
        result = main_screen(app).search_box.result
        assert result is not None and result.query == "flight to lisbon offsite seat"
        assert result.hits, "the hits do not wait for the hidden matches"
        assert found and found[-1] == "flight to lisbon offsite seat"
        assert "hidden matches" not in search_status(app)
        mend()
        await pilot.press("backspace", "t")
        await settle(pilot)
        assert "hidden matches (^t to show)" in search_status(app)
        assert main_screen(app).search_box.result.hidden  # type: ignore[union-attr]
