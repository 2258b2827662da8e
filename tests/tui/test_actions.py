"""The action table drives the bindings, the palette and the read-only check consistently."""

from __future__ import annotations

from textual.binding import Binding
from textual.widget import Widget

from amem_tui.engine.scope import AgentScope
from amem_tui.tui.actions import (
    ACTIONS_BY_ID,
    APP_ACTIONS,
    MAIN_ACTIONS,
    READ_ONLY_REASON,
    WRITE_ACTIONS,
    Situation,
    palette_actions,
    verdict,
)
from amem_tui.tui.app import AmemApp
from amem_tui.tui.messages import ConsolidationFinished, ConsolidationProgress
from amem_tui.tui.screens.main import MainScreen
from amem_tui.tui.widgets.browser import NoteBrowser
from amem_tui.tui.widgets.note_pane import NotePane
from amem_tui.tui.widgets.rows_table import RowsTable
from amem_tui.tui.widgets.search_box import SearchBox

MODE_A = AgentScope(agent="dev", mode="A", collection="amem_notes")
MODE_B = AgentScope(agent="sandbox", mode="B", collection="amem_notes_sandbox")


#: The class behind each target of the table.
TARGETS: dict[str, type[Widget] | type[AmemApp]] = {
    "app": AmemApp,
    "screen": MainScreen,
    "browser": NoteBrowser,
    "pane": NotePane,
    "search": SearchBox,
    "table": RowsTable,
}


def test_every_action_runs_a_method_where_its_binding_lives() -> None:
    for action in MAIN_ACTIONS:
        for target in (action.target, *action.first):
            method = getattr(TARGETS[target], f"action_{action.action}", None)
            assert callable(method), (action.id, target)
    for action in APP_ACTIONS:
        assert callable(getattr(AmemApp, f"action_{action.action}", None)), action.id


def test_binding_ids_are_unique_and_bindings_follow_the_table() -> None:
    assert len(ACTIONS_BY_ID) == len(MAIN_ACTIONS) + len(APP_ACTIONS)
    held: list[str] = []
    for target, holder in TARGETS.items():
        if target == "app":
            continue  # the app's own bindings are APP_ACTIONS; its main ones the screen holds
        ids = [b.id for b in vars(holder).get("BINDINGS", []) if isinstance(b, Binding)]
        assert ids == [a.id for a in MAIN_ACTIONS if target in (a.held_by, *a.first)], target
        held += ids
    # Each action is held once, and once more by each widget that acts on it first.
    assert sorted(held) == sorted(a.id for a in MAIN_ACTIONS for _ in (a.target, *a.first))


def test_the_screen_holds_the_keys_of_the_apps_actions_and_runs_them_on_the_app() -> None:
    bound = {b.id: b.action for b in MainScreen.BINDINGS if isinstance(b, Binding)}
    for action in MAIN_ACTIONS:
        if action.target == "app":
            assert bound[action.id] == f"app.{action.action}", action.id
    assert "overview" in bound and not hasattr(MainScreen, "action_overview")


def test_palette_offers_each_entry_once_in_rank_order() -> None:
    offered = palette_actions()
    ranks = [entry.rank for _, entry in offered]
    assert ranks == sorted(set(ranks))
    assert len({action.action for action, _ in offered}) == len(offered)


def test_read_only_turns_off_exactly_the_writing_actions() -> None:
    for action in MAIN_ACTIONS:
        reason = verdict(action.action, Situation(read_only=True, scope=MODE_A)).reason
        assert (reason == READ_ONLY_REASON) == (action.action in WRITE_ACTIONS), action.id
        assert verdict(action.action, Situation(read_only=False, scope=MODE_A)).runs


def test_a_mode_b_agent_cannot_publish() -> None:
    reason = verdict("publish", Situation(read_only=False, scope=MODE_B)).reason
    assert reason is not None and "Mode B" in reason
    assert verdict("unpublish", Situation(read_only=False, scope=MODE_B)).runs


def test_a_collection_that_cannot_be_written_turns_off_the_writes_with_its_reason() -> None:
    mem0 = Situation(read_only=False, scope=MODE_A, collection_refusal="a mem0 collection")
    for action in MAIN_ACTIONS:
        found = verdict(action.action, mem0)
        assert found.reason == ("a mem0 collection" if action.writes else None), action.id
        assert found.binding_state is (None if action.writes else True), action.id


def test_slash_is_typed_while_a_text_box_has_the_focus() -> None:
    typing = Situation(read_only=False, scope=MODE_A, typing=True)
    assert verdict("focus_search", typing).binding_state is False
    assert not verdict("focus_search", typing).runs
    assert verdict("focus_search", Situation(read_only=False)).binding_state is True


def test_progress_messages_coalesce_but_the_end_does_not() -> None:
    assert ConsolidationProgress(1, 5).can_replace(ConsolidationProgress(2, 5))
    assert not ConsolidationProgress(1, 5).can_replace(ConsolidationFinished())
