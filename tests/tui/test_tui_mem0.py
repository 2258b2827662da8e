"""A mem0 store in the inspector, as the OpenClaw mem0 plugin sees it: users, agents,
subagent views, read-only memories and mem0's own fields."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from amem_tui.tui.dialogs.agent_picker import AgentPicker
from amem_tui.tui.dialogs.note_editor import NoteEditor
from amem_tui.tui.screens.main import MainScreen
from amem_tui.tui.widgets.note_pane import NotePane
from tests.support.mem0_stores import (
    ALICE_COFFEE,
    ALICE_RUN,
    ALICE_STANDUP,
    BOB_DEV,
    NAMESPACES,
    PY_COLLECTION,
    SESSION,
    SUBAGENT_SESSION,
    mem0_engine,
)
from tests.support.tui import (
    demo_app,
    detail_text,
    header_text,
    main_screen,
    select,
    settle,
    started,
)


def listed(app: Any) -> set[str]:
    table = main_screen(app).query_one("#private", NotePane).table
    return {str(key.value) for key in table.rows}


async def test_several_users_and_none_chosen_shows_the_first_and_says_so() -> None:
    app = demo_app(mem0_engine())
    async with started(app):
        scope = main_screen(app).scope
        assert scope is not None and (scope.user, scope.agent) == ("alice", "main")
        assert listed(app) == NAMESPACES["alice"]
        assert "user alice" in header_text(app) and "agent main" in header_text(app)
        said = [message for _, message in app.notice_log]
        assert any("several users (alice, bob)" in m and "press s" in m for m in said)


async def test_the_switcher_lists_user_and_agent_pairs_and_reaches_exactly_one() -> None:
    app = demo_app(mem0_engine(user="alice"))
    async with started(app) as pilot:
        assert not app.notice_log  # a user is named: nothing to choose
        await pilot.press("s")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, AgentPicker)
        pairs = [(s.user, s.agent, s.namespace) for s in picker.agents]
        assert ("bob", "dev", "bob:agent:dev") in pairs
        assert ("alice", "main", "alice:agent:main") in pairs  # apart from alice's main
        picker.table.move_cursor(row=pairs.index(("bob", "dev", "bob:agent:dev")))
        await pilot.press("enter")
        await settle(pilot)
        assert listed(app) == {BOB_DEV}
        assert "user bob" in header_text(app) and "agent dev" in header_text(app)
        assert "memories 1" in header_text(app)
        # A reload keeps exactly that namespace (not the configured user's dev).
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert listed(app) == {BOB_DEV}
        await pilot.press("s")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, AgentPicker)
        explicit = next(i for i, s in enumerate(picker.agents) if s.view == "agentId")
        picker.table.move_cursor(row=explicit)
        await pilot.press("enter")
        await settle(pilot)
        assert listed(app) == NAMESPACES["alice:agent:main"]
        assert "explicit agentId view" in header_text(app)


async def test_a_subagent_key_offers_its_search_and_auto_recall_views_each_labelled() -> None:
    app = demo_app(mem0_engine(user="alice"))
    async with started(app) as pilot:
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*SUBAGENT_SESSION)
        await settle(pilot)
        await pilot.press("down", "enter")  # the second offer: the auto-recall view
        await settle(pilot)
        scope = main_screen(app).scope
        assert scope is not None and (scope.agent, scope.view) == ("subagent-helper", "recall")
        assert "auto-recall view (alice)" in header_text(app)
        assert listed(app) == NAMESPACES["alice"]
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*SUBAGENT_SESSION, "enter")  # the first: the search view
        await settle(pilot)
        assert "search view (alice:agent:subagent-helper)" in header_text(app)
        assert listed(app) == NAMESPACES["alice:agent:subagent-helper"]


async def test_a_recall_view_from_the_settings_is_labelled() -> None:
    app = demo_app(mem0_engine(user="alice", session_key=SUBAGENT_SESSION, mem0_view="recall"))
    async with started(app):
        assert "subagent-helper" in header_text(app) and "auto-recall view (alice)" in header_text(
            app
        )
        assert listed(app) == NAMESPACES["alice"]


async def test_mem0_memories_are_read_only_with_the_reason_everywhere() -> None:
    engine = mem0_engine(user="alice")
    app = demo_app(engine)
    async with started(app) as pilot:
        await select(pilot, "private", ALICE_COFFEE)
        assert "may modify        no:" in detail_text(app)
        assert "mem0 memory" in detail_text(app) and "never writes" in detail_text(app)
        screen = main_screen(app)
        for key, action in (("e", "edit"), ("d", "delete"), ("a", "add"), ("c", "consolidate")):
            assert screen.check_action(action, ()) is None  # dimmed in the footer
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, MainScreen), key  # no dialog opened
            title, message = app.notice_log[-1]
            assert title == "Not available" and "mem0" in message, key
        assert not isinstance(app.screen, NoteEditor)
        shared = screen.query_one("#shared", NotePane)
        assert "no shared scope" in str(shared.query_one(".pane-message", Static).render())


async def test_mem0_fields_are_shown_as_mem0_wrote_them() -> None:
    app = demo_app(mem0_engine(user="alice"))
    async with started(app) as pilot:
        await select(pilot, "private", ALICE_STANDUP)
        text = detail_text(app)
        assert "updated_at        2026-02-03T09:15:00.000Z" in text
        assert "last_accessed" not in text  # an update is not an access
        assert "user_id           alice" in text
        await select(pilot, "private", ALICE_RUN)
        assert f"run_id            {SESSION}" in detail_text(app)
        await select(pilot, "private", ALICE_COFFEE)
        text = detail_text(app)
        assert "mem0 metadata" in text and "category" in text and "preference" in text
    app = demo_app(mem0_engine(collection=PY_COLLECTION, user="alice"))
    async with started(app) as pilot:
        await select(pilot, "private", ALICE_STANDUP)
        text = detail_text(app)
        assert "role              user" in text and "actor_id          alice" in text
        assert "updated_at        2026-02-03T09:15:00.000000-08:00" in text
