"""Pilot behaviour tests: panes, agent switching, live search, every action, refusals."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, OptionList, Static, TextArea

from amem_tui.demo import demo_id
from amem_tui.engine.models import MemoryNote
from amem_tui.tui.dialogs.agent_picker import AgentPicker
from amem_tui.tui.dialogs.confirm import ConfirmDialog
from amem_tui.tui.dialogs.consolidation import ConsolidationPreview
from amem_tui.tui.dialogs.note_editor import NoteEditor
from amem_tui.tui.screens.help import HelpScreen
from amem_tui.tui.screens.main import MainScreen
from amem_tui.tui.widgets.header import HeaderBar
from amem_tui.tui.widgets.history_pane import HistoryPane
from tests.support.tui import (
    demo_app,
    demo_engine,
    detail_text,
    main_screen,
    notices,
    pane,
    row_ids,
    select,
    settle,
    started,
    until,
)


def header_text(app: Any) -> str:
    return str(main_screen(app).query_one(HeaderBar).render())


async def test_main_view_shows_private_shared_and_header() -> None:
    app = demo_app()
    async with started(app):
        assert len(row_ids(pane(app, "private"))) == 8
        # The shared scope only: dev's note whose readers name main is main's to read
        # by id, listed apart (g) and counted apart in the header.
        assert set(row_ids(pane(app, "shared"))) == {
            demo_id(k)
            for k in ("shared-snake", "shared-freeze", "shared-oncall", "shared-branches")
        }
        head = header_text(app)
        assert "main" in head and "Mode A" in head and "amem_notes" in head
        assert "private 8" in head and "shared 4" in head
        assert "visible 12" in head and "get only 1" in head
        # At 120 columns the store gives way to the counts; the full line names it.
        assert "demo-store" in main_screen(app).query_one(HeaderBar).text
        assert "No consolidation runs yet" in str(
            main_screen(app).query_one(HistoryPane).query_one(".pane-message", Static).render()
        )
        # A note is selected and its detail shown.
        assert main_screen(app).detail_view.note_data is not None


async def test_switch_agent_with_picker_changes_every_pane() -> None:
    app = demo_app()
    async with started(app) as pilot:
        await pilot.press("s")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, AgentPicker)
        table = picker.table
        labels = [" ".join(str(c) for c in table.get_row_at(i)) for i in range(table.row_count)]
        assert any("sandbox" in label and "Mode B" in label for label in labels)
        assert any("dev" in label and "Mode A" in label for label in labels)
        sandbox = next(i for i, label in enumerate(labels) if "sandbox" in label)
        table.move_cursor(row=sandbox)
        await pilot.press("enter")
        await settle(pilot)
        main = main_screen(app)
        assert main.scope is not None and main.scope.agent == "sandbox"
        assert "Mode B" in header_text(app) and "amem_notes_sandbox" in header_text(app)
        assert set(row_ids(pane(app, "private"))) == {
            demo_id(k) for k in ("sandbox-exp", "sandbox-exp-dup", "sandbox-tools")
        }
        shared = pane(app, "shared")
        message = str(shared.query_one(".pane-message", Static).render())
        assert "no shared scope" in message and not shared.table.display


async def test_switch_agent_by_session_key_from_palette() -> None:
    app = demo_app()
    async with started(app) as pilot:
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"agent:dev:1234")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        main = main_screen(app)
        assert main.scope is not None and main.scope.agent == "dev"
        # dev sees its own notes privately and main's private notes nowhere.
        assert demo_id("dev-jwt") in row_ids(pane(app, "private"))
        assert demo_id("main-trip") not in row_ids(pane(app, "private")) + row_ids(
            pane(app, "shared")
        )


async def test_live_search_shows_only_visible_hits_and_clearing_restores() -> None:
    app = demo_app(agent="dev")
    async with started(app) as pilot:
        await pilot.press("slash")
        await pilot.press(*"production deploy frozen", "enter")
        await settle(pilot)
        shared_hits = pane(app, "shared").hits
        assert demo_id("shared-freeze") in shared_hits
        visible = set(row_ids(pane(app, "private"))) | set(row_ids(pane(app, "shared")))
        # dev never sees main's private notes in a search.
        assert not visible & {demo_id("main-trip"), demo_id("main-vendor")}
        best = max(
            [*pane(app, "private").hits.values(), *pane(app, "shared").hits.values()],
            key=lambda h: h.score,
        )
        assert best.note.id == demo_id("shared-freeze")
        assert "score" in detail_text(app) and "shared scope" in detail_text(app)
        status = str(main_screen(app).query_one("#search-status", Static).render())
        assert " · for 'production deploy frozen' as dev" in status
        # Clearing the query brings back the full lists.
        main_screen(app).query_one("#search", Input).value = ""
        # The listings come back once the box has stayed empty a moment (a timer).
        await until(pilot, lambda: not pane(app, "private").searching)
        assert len(row_ids(pane(app, "private"))) == 6


async def test_add_private_note_through_modal() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    async with started(app) as pilot:
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, NoteEditor)
        app.screen.query_one(TextArea).text = "Remember to renew the TLS certificate for the API"
        await pilot.press("ctrl+s")
        await settle(pilot)
        page = engine.agent("main").list_notes("private", limit=50)
        assert page.total == 9
        added = next(n for n in page.notes if n.content.startswith("Remember to renew"))
        assert added.agent_id == "main" and added.readers == ["main"]
        assert added.id in row_ids(pane(app, "private"))
        assert any("Added private note" in n for n in notices(app))


async def test_add_shared_note_and_quality_gate_refusal() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    async with started(app) as pilot:
        await pilot.press("a")
        await settle(pilot)
        app.screen.query_one(
            TextArea
        ).text = "Everyone: the staging cluster moves to region eu-west"
        app.screen.query_one("#shared").value = True
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert engine.agent("main").count("shared") == 5
        # Too short: the quality gate refuses, the app says why, nothing is written.
        await pilot.press("a")
        await settle(pilot)
        app.screen.query_one(TextArea).text = "short"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert engine.agent("main").count("private") == 8
        assert any("quality gate" in n and n.startswith("Rejected") for n in notices(app))
        assert isinstance(app.screen, MainScreen)


async def test_edit_note_changes_content_and_tags() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    note_id = demo_id("main-trip")
    async with started(app) as pilot:
        await select(pilot, "private", note_id)
        await pilot.press("e")
        await settle(pilot)
        assert isinstance(app.screen, NoteEditor)
        app.screen.query_one(TextArea).text = "Flight to Lisbon moved to December 15, seat 14C"
        app.screen.query_one("#tags", Input).value = "travel, offsite"
        await pilot.press("ctrl+s")
        await settle(pilot)
        note = engine.agent("main").get(note_id)
        assert note.content == "Flight to Lisbon moved to December 15, seat 14C"
        assert note.tags == ["travel", "offsite"]
        assert note.evolution_history[-1].action == "crud_update"
        assert "December 15" in detail_text(app)


async def test_publish_asks_first_and_cancel_changes_nothing() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    note_id = demo_id("main-vendor")
    async with started(app) as pilot:
        await select(pilot, "private", note_id)
        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        await settle(pilot)
        assert not engine.agent("main").get(note_id).is_shared
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        note = engine.agent("main").get(note_id)
        assert note.is_shared and note.owner == "main" and note.readers == ["*"]
        assert note_id in row_ids(pane(app, "shared"))
        assert note_id not in row_ids(pane(app, "private"))


async def test_publish_asks_naming_what_becomes_of_the_chosen_readers() -> None:
    engine = demo_engine()
    note_id = (
        engine.agent("main").add("The staging VPN profile is in the vault", readers=["dev"]).id
    )
    app = demo_app(engine)
    async with started(app) as pilot:
        await select(pilot, "private", note_id)
        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        body = " ".join(str(app.screen.body).split())
        assert "readers become everyone (*) instead of main, dev" in body
        assert "Unpublish gives them back" in body


async def test_unpublish_makes_note_private_again() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    note_id = demo_id("shared-snake")
    async with started(app) as pilot:
        await select(pilot, "shared", note_id)
        await pilot.press("u", "y")
        await settle(pilot)
        note = engine.agent("main").get(note_id)
        assert note.agent_id == "main" and note.readers == ["main"]
        assert note_id in row_ids(pane(app, "private"))


async def test_publish_is_disabled_for_mode_b_with_the_reason() -> None:
    engine = demo_engine()
    app = demo_app(engine, agent="sandbox")
    async with started(app) as pilot:
        await select(pilot, "private", demo_id("sandbox-tools"))
        assert main_screen(app).check_action("publish", ()) is None
        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)  # no confirmation: nothing to confirm
        assert any("Mode B" in n and "cannot publish" in n for n in notices(app))
        assert not engine.agent("sandbox").get(demo_id("sandbox-tools")).is_shared


async def test_permission_denied_is_a_notification_naming_the_rule() -> None:
    engine = demo_engine()
    app = demo_app(engine, agent="dev")
    note_id = demo_id("shared-snake")  # owned by main
    async with started(app) as pilot:
        await select(pilot, "shared", note_id)
        await pilot.press("d", "y")
        await settle(pilot)
        assert engine.agent("dev").get(note_id).active
        messages = notices(app)
        assert any("PERMISSION_DENIED" in n and "only its owner (main)" in n for n in messages)
        assert isinstance(app.screen, MainScreen)


async def test_soft_delete_then_restore() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    note_id = demo_id("main-trip")
    async with started(app) as pilot:
        await select(pilot, "private", note_id)
        await pilot.press("d", "y")
        await settle(pilot)
        assert not engine.agent("main").get(note_id).active
        assert note_id not in row_ids(pane(app, "private"))
        await pilot.press("x")  # show soft-deleted notes
        await settle(pilot)
        assert note_id in row_ids(pane(app, "private"))
        await select(pilot, "private", note_id)
        await pilot.press("r", "y")
        await settle(pilot)
        assert engine.agent("main").get(note_id).active


async def test_read_only_store_disables_writes_and_says_why() -> None:
    engine = demo_engine(read_only=True)
    app = demo_app(engine)
    async with started(app) as pilot:
        assert "READ-ONLY" in header_text(app)
        for key in ("a", "p", "d", "c"):
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, MainScreen)
        assert any("read-only" in n for n in notices(app))
        assert engine.agent("main").count("private") == 8


async def test_links_follow_the_read_rule() -> None:
    app = demo_app(agent="dev")
    async with started(app) as pilot:
        await select(pilot, "shared", demo_id("shared-freeze"))
        links = main_screen(app).query_one("#links", OptionList)
        prompts = [str(links.get_option_at_index(i).prompt) for i in range(links.option_count)]
        # The link to main's private note is counted, never named (not even its id).
        hidden = [p for p in prompts if "this agent cannot see" in p]
        assert hidden == ["⊘ 1 link this agent cannot see"]
        shown = " ".join(prompts) + detail_text(app)
        assert "Flight to Lisbon" not in shown and demo_id("main-trip")[:8] not in shown
        visible = next(i for i, p in enumerate(prompts) if "snake_case" in p)
        links.focus()
        links.highlighted = visible
        await pilot.press("enter")
        await settle(pilot)
        assert main_screen(app).detail_view.note_data is not None
        assert main_screen(app).detail_view.note_data.note.id == demo_id("shared-snake")


async def test_hostile_content_is_shown_literally() -> None:
    engine = demo_engine()
    hostile = [
        "[bold red]markup[/] and a stray [/] closing tag [link=http://x]y[/link]",
        "ANSI \x1b[31mred\x1b[0m OSC \x1b]0;pwned\x07 bell \x07 nul \x00 end",
        "x" * 1_000_000,
        "long line " + "word " * 5000,
    ]
    ids = [engine.agent("main").add(text).id for text in hostile]
    app = demo_app(engine)
    async with started(app) as pilot:
        for note_id in ids:
            await select(pilot, "private", note_id)
            text = detail_text(app)
            assert "\x1b" not in text and "\x07" not in text and "\x00" not in text
        await select(pilot, "private", ids[0])
        assert "[bold red]markup[/]" in detail_text(app)
        await select(pilot, "private", ids[2])
        assert "more characters not shown" in detail_text(app)


async def test_help_screen_lists_binding_ids() -> None:
    app = demo_app()
    async with started(app) as pilot:
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        ids = {row[2] for row in app.screen.bindings}
        assert {"publish", "switch_agent", "consolidate", "add"} <= ids
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)


async def test_keymap_rebinds_by_id() -> None:
    app = demo_app()
    async with started(app) as pilot:
        app.set_keymap({"switch_agent": "j"})  # a key no action holds
        await pilot.press("j")
        await settle(pilot)
        assert isinstance(app.screen, AgentPicker)


async def test_panes_load_page_by_page() -> None:
    engine = demo_engine()
    notes = [
        MemoryNote.from_payload(
            f"00000000-0000-0000-0000-{i:012d}",
            {
                "content": f"bulk note number {i} about topic {i % 7}",
                "agent_id": "main",
                "owner": "main",
                "readers": ["main"],
                "writers": ["main"],
                "is_active": True,
            },
        )
        for i in range(450)
    ]
    engine.put_notes("amem_notes", notes)
    app = demo_app(engine)
    async with started(app) as pilot:
        private = pane(app, "private")
        assert private.total == 458
        assert private.loaded == 200
        private.table.focus()
        private.table.move_cursor(row=199)
        await settle(pilot)
        assert private.loaded == 400
        private.table.move_cursor(row=399)
        await settle(pilot)
        assert private.loaded == 458


async def test_consolidate_previews_then_applies_and_history_updates() -> None:
    engine = demo_engine()
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        before = engine.agent("dev").count("private")
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, ConsolidationPreview)
        planned = app.screen.run
        assert planned.dry_run and planned.merges
        # The preview changed nothing.
        assert engine.agent("dev").count("private") == before
        await pilot.press("escape")
        await settle(pilot)
        assert engine.agent("dev").count("private") == before
        assert engine.agent("dev").history() == []
        await pilot.press("c")
        await settle(pilot)
        app.screen.query_one("#apply").press()
        await settle(pilot)
        dropped = sum(len(m.dropped) for m in planned.merges)
        assert engine.agent("dev").count("private") == before - dropped
        runs = engine.agent("dev").history()
        assert len(runs) == 1 and not runs[0].dry_run
        history = main_screen(app).query_one(HistoryPane)
        assert list(history.runs) == [runs[0].id]
        assert not main_screen(app).query_one("#progress").display


async def test_undo_a_consolidation_run_from_the_history_pane() -> None:
    engine = demo_engine()
    run = engine.agent("dev").consolidate(dry_run=False)
    assert run.merges
    before = engine.agent("dev").count("private")
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        history = main_screen(app).query_one(HistoryPane)
        history.table.focus()
        await settle(pilot)
        assert history.current_id == run.id
        assert "1 merge" in detail_text(app)
        await pilot.press("z")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await settle(pilot)
        assert engine.agent("dev").count("private") > before
        assert len(history.runs) == 2


def rendered_rows(app: Any, which: str) -> list[str]:
    """The text the table draws for each row (line 0 is the column header)."""
    table = pane(app, which).table
    return [table.render_line(y).text for y in range(1, table.row_count + 1)]


async def test_content_column_keeps_its_width_after_a_refresh() -> None:
    engine = demo_engine()
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, ConsolidationPreview)
        app.screen.query_one("#apply").press()
        await settle(pilot)
        page = engine.agent("dev").list_notes("private")
        notes = {n.id: n for n in page.notes}

        def check() -> None:
            rows = rendered_rows(app, "private")
            assert rows and len(rows) == len(notes)
            for note_id, text in zip(row_ids(pane(app, "private")), rows, strict=True):
                # A long prefix of the content is drawn (after any marker such as
                # "readers dev, main · "), not "Experi…".
                prefix = " ".join(notes[note_id].content.split())[:16]
                assert prefix in text, (prefix, text)

        check()
        # Rows replaced and drawn before the table has had an idle moment to re-measure
        # (what a loaded machine does): the content column must not fall back to its
        # label's width.
        pane(app, "private").show_listing(page.notes, page.total)
        check()
        await settle(pilot)
        check()


async def test_audit_key_opens_the_report_and_escape_closes_it() -> None:
    from amem_tui.tui.screens.audit import AuditScreen

    engine = demo_engine()
    app = demo_app(engine)
    async with started(app) as pilot:
        await pilot.press("A")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, AuditScreen)
        expected = engine.audit()
        assert screen.report.counts() == expected.counts()
        assert expected.counts()["shared"] > 0
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        # The command palette reaches it too.
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"Audit the store")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, AuditScreen)


async def test_history_pane_says_what_runs_the_nightly_pass() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    async with started(app):
        history = main_screen(app).query_one(HistoryPane)
        # The open inspector runs it (see test_nightly_in_inspector): a time is promised.
        assert "next nightly 02:30" in str(history.border_subtitle)
        said = str(history.nightly.render())
        assert "Next nightly pass 02:30, by this inspector" in said
        # The old per-agent cron advice is gone.
        assert "--agent main consolidate" not in str(history.message_line.render())
        # The app runs its own timer; the engine's scheduler thread is never started.
        assert not engine.scheduler.running
