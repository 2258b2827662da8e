"""The consolidation preview is the plan that gets applied: the merges shown, under the
id shown, or nothing (with what changed) when the agent's notes moved meanwhile."""

from __future__ import annotations

from typing import Any

from amem_tui.tui.dialogs.consolidation import ConsolidationPreview
from tests.support.tui import demo_app, demo_engine, main_screen, settle, started


async def preview(pilot: Any) -> ConsolidationPreview:
    await pilot.press("c")
    await settle(pilot)
    dialog = pilot.app.screen
    assert isinstance(dialog, ConsolidationPreview)
    assert dialog.run.merges
    return dialog


async def test_applying_the_preview_records_the_previewed_run() -> None:
    engine = demo_engine()
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        shown = (await preview(pilot)).run
        app.screen.query_one("#apply").press()
        await settle(pilot)
        [run] = engine.agent("dev").history()
        assert run.id == shown.id
        assert [(m.keeper, m.dropped) for m in run.merges] == [
            (m.keeper, m.dropped) for m in shown.merges
        ]


async def test_a_preview_outdated_by_an_edit_is_refused_with_what_changed() -> None:
    engine = demo_engine()
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        shown = (await preview(pilot)).run
        edited = shown.merges[0].dropped[0]
        dev = engine.agent("dev")
        dev.update(edited, content="Rewritten by dev in another window while the preview was open")
        before = dev.count("private")
        app.screen.query_one("#apply").press()
        await settle(pilot)
        assert dev.history() == []  # nothing applied, nothing recorded
        assert dev.count("private") == before
        assert dev.get(edited).is_active is not False
        said = " ".join(message for _, message in app.notice_log)
        assert "out of date" in said and f"modified: {edited}" in said
        assert not main_screen(app).query_one("#progress").display
