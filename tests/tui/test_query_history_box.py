"""The search box's query history: queries kept once they stand, Up and Down recall
them per agent, Ctrl+O lists them, and Ctrl+S saves the search as a memory check."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from amem_tui.demo import demo_id, seed_demo
from amem_tui.engine.embed import TEST_MODEL
from amem_tui.engine.store.edge import EdgeStore
from amem_tui.tui.actions import ACTIONS_BY_ID
from amem_tui.tui.app import AmemApp
from amem_tui.tui.commands import attempt
from amem_tui.tui.dialogs.confirm import ConfirmDialog
from amem_tui.tui.dialogs.consolidation import ConsolidationPreview
from amem_tui.tui.dialogs.query_picker import QueryPicker
from amem_tui.tui.dialogs.save_check import SaveCheckDialog
from tests.support.cli import demo_like_config, run
from tests.support.engines import demo_like_settings, make_engine
from tests.support.tui import (
    demo_app,
    demo_engine,
    main_screen,
    select,
    settle,
    started,
    until,
)


def box_value(app: AmemApp) -> str:
    return main_screen(app).search_box.query_input.value


async def publish_question(pilot: Pilot[Any], note_id: str) -> str:
    """Ask to publish a private note, as a user does (select it, ``p``), and read what the
    question says the publish would do once it is worked out (a worker follows)."""
    app = pilot.app
    await select(pilot, "private", note_id)
    await pilot.press("p")
    await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
    preview = app.screen.query_one("#confirm-preview", Static)
    await until(pilot, lambda: "computing" not in str(preview.render()))
    return str(preview.render())


async def test_a_query_is_kept_once_it_stands_never_while_typed_nor_blank() -> None:
    engine = demo_engine()
    history = engine.query_history()
    async with started(demo_app(engine)) as pilot:
        await pilot.press("slash", *"deploy freeze")
        await until(pilot, lambda: history.recent("main") == ["deploy freeze"])
        await settle(pilot)
        await pilot.pause(1.3)  # longer than a query must stand: nothing more comes
        assert history.recent("main") == ["deploy freeze"]  # no prefix of it
        # Enter keeps a query at once; a blank box keeps nothing.
        await pilot.press("ctrl+u", *"billing cache", "enter")
        await until(pilot, lambda: history.recent("main")[:1] == ["billing cache"])
        await pilot.press("slash", "ctrl+u", "space", "space", "enter")
        await settle(pilot)
        await pilot.pause(1.3)
        assert history.recent("main") == ["billing cache", "deploy freeze"]


async def test_up_and_down_walk_the_agents_own_queries() -> None:
    engine = demo_engine()
    history = engine.query_history()
    for query in ("oldest main query", "newer main query"):
        history.record("main", query)
    history.record("dev", "a dev query")
    app = demo_app(engine)
    async with started(app) as pilot:
        await pilot.press("slash", "up")
        assert box_value(app) == "newer main query"
        await pilot.press("up")
        assert box_value(app) == "oldest main query"
        await pilot.press("up")  # the oldest stays
        assert box_value(app) == "oldest main query"
        await pilot.press("down")
        assert box_value(app) == "newer main query"
        await pilot.press("down")
        assert box_value(app) == ""
        # Text being edited is never replaced by Up.
        await pilot.press(*"half typed", "up")
        assert box_value(app) == "half typed"
        # Another agent recalls its own queries.
        await pilot.press("ctrl+u")
        main = main_screen(app)
        main.switch_agent(next(s for s in main.loader.agents if s.agent == "dev"))
        await until(pilot, lambda: main.scope is not None and main.scope.agent == "dev")
        await settle(pilot)
        await pilot.press("up")
        assert box_value(app) == "a dev query"


async def test_the_list_of_recent_queries_by_key_and_palette() -> None:
    engine = demo_engine()
    history = engine.query_history()
    for query in ("deploy freeze", "billing cache"):
        history.record("main", query)
    app = demo_app(engine)
    async with started(app) as pilot:
        await pilot.press("slash", "ctrl+o")
        await until(pilot, lambda: isinstance(app.screen, QueryPicker))
        listed = app.screen.query_one(OptionList)
        assert listed.option_count == 2
        await pilot.press("down", "enter")
        await until(pilot, lambda: box_value(app) == "deploy freeze")
        await settle(pilot)
        main = main_screen(app)
        await attempt(main, ACTIONS_BY_ID["search.history"])  # as the palette runs it
        await until(pilot, lambda: isinstance(app.screen, QueryPicker))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is main)
        assert box_value(app) == "deploy freeze"


def dialog_text(app: AmemApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def test_save_as_check_shows_the_diff_appends_and_passes_check(tmp_path: Path) -> None:
    folder = tmp_path / "store"
    config = demo_like_config(tmp_path)
    checks = tmp_path / "ci.toml"
    checks.write_text("# the team's checks\n", encoding="utf-8")
    settings = demo_like_settings(model=TEST_MODEL, store_path=folder)
    with make_engine(EdgeStore(folder), settings=settings) as engine:
        seed_demo(engine)
        app = AmemApp(engine, agent="dev", user_config=False)
        app.animation_level = "none"
        async with started(app) as pilot:
            await pilot.press("ctrl+s")  # nothing searched yet: nothing to save
            await settle(pilot)
            assert not isinstance(app.screen, SaveCheckDialog)
            await pilot.press("slash", *"deploy freeze")
            await settle(pilot)
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, SaveCheckDialog))
            dialog = app.screen
            path_box = dialog.query_one("#save-check-path", Input)
            assert path_box.value.endswith("amem-checks.toml")
            # A folder that does not exist is refused, and nothing is written.
            path_box.value = str(tmp_path / "missing" / "ci.toml")
            await pilot.press("enter")
            await settle(pilot)
            assert "Not saved" in dialog_text(app, "#save-check-problem")
            assert app.screen is dialog
            path_box.value = str(checks)
            await settle(pilot)
            diff = dialog_text(app, "#save-check-diff")
            assert "+[[check]]" in diff and '+agent = "dev"' in diff
            assert '+query = "deploy freeze"' in diff and "-" + "# the team" not in diff
            await pilot.press("enter")
            await until(pilot, lambda: app.screen is main_screen(app))
    text = checks.read_text(encoding="utf-8")
    assert text.startswith("# the team's checks\n\n[[check]]\n")
    args = ["--store", str(folder), "--config", str(config), "check", str(checks), "--json"]
    verdict: subprocess.CompletedProcess[bytes] = run(args, tmp_path)
    assert verdict.returncode == 0, verdict.stdout.decode() + verdict.stderr.decode()
    assert not (tmp_path / "missing").exists()


async def test_the_publish_question_shows_how_recent_queries_would_move() -> None:
    engine = demo_engine()
    engine.query_history().record("dev", "flight to the Lisbon offsite")
    app = demo_app(engine)  # as main
    trip = demo_id("main-trip")
    async with started(app) as pilot:
        said = await publish_question(pilot, trip)
        assert "recent queries whose top 5 would change: 1 of 1" in said
        assert "dev searches 'flight to the Lisbon offsite'" in said
        assert f"enters: {trip}" in said
        await pilot.press("n")  # nothing was written
        await until(pilot, lambda: app.screen is main_screen(app))
        assert not engine.agent("main").get(trip).is_shared


async def test_the_consolidation_preview_shows_how_recent_queries_would_move() -> None:
    engine = demo_engine()
    merge = engine.agent("dev").plan_consolidation().run.merges[0]
    dropped = engine.agent("dev").get(merge.dropped[0])
    engine.query_history().record("dev", dropped.content)
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, ConsolidationPreview))
        said = app.screen.query_one("#consolidation-what-if", Static)
        await until(pilot, lambda: "computing" not in str(said.render()))
        text = str(said.render())
        assert "recent queries whose top 5 would change: 1 of 1" in text
        assert f"leaves: {dropped.id}" in text
        await pilot.press("escape")  # nothing was written
        await until(pilot, lambda: app.screen is main_screen(app))
    assert engine.agent("dev").get(dropped.id).is_active


async def test_a_query_with_filter_words_is_kept_and_previewed_as_searched() -> None:
    """``subject:`` and ``topics:`` are kept as the filters they are, not as words: Up
    gives the query back as typed, and a dry run re-runs it with its filters."""
    engine = demo_engine()
    history = engine.query_history()
    app = demo_app(engine, agent="dev")
    typed = "subject:Bob topics:travel flight to the Lisbon offsite"
    async with started(app) as pilot:
        await pilot.press("slash", *typed, "enter")
        await until(pilot, lambda: history.recent_entries("dev")[:1] != [])
        [kept] = history.recent_entries("dev")
        assert (kept.query, kept.subject, kept.topics) == (
            "flight to the Lisbon offsite",
            "Bob",
            ["travel"],
        )
        await pilot.press("ctrl+u", "up")
        assert box_value(app) == typed
        await pilot.press("ctrl+u")
        main = main_screen(app)
        main.switch_agent(next(s for s in main.loader.agents if s.agent == "main"))
        await until(pilot, lambda: main.scope is not None and main.scope.agent == "main")
        await settle(pilot)
        said = await publish_question(pilot, demo_id("main-trip"))
        assert "dev searches 'flight to the Lisbon offsite' (subject Bob; topics travel)" in said
        await pilot.press("n")


async def test_the_questions_run_the_configured_checks_file(tmp_path: Path) -> None:
    """With a checks file configured (``AMEM_CHECKS``), a question runs its checks
    though nothing was saved as a check here, and says which file it ran."""
    checks = tmp_path / "team.toml"
    checks.write_text(
        '[[check]]\nagent = "dev"\nquery = "flight to the Lisbon offsite"\nforbid = ["seat 12A"]\n',
        encoding="utf-8",
    )
    app = demo_app(demo_engine(checks_file=checks))  # as main
    async with started(app) as pilot:
        said = await publish_question(pilot, demo_id("main-trip"))
        assert f"checks in {checks} that would flip: 1 of 1" in said
        await pilot.press("n")


async def test_up_recalls_a_query_with_its_limit_as_typed() -> None:
    """``limit:N`` is kept with the query: Up brings back what was typed, so the query
    is searched again for as many matches as before."""
    engine = demo_engine()
    history = engine.query_history()
    app = demo_app(engine, agent="dev")
    typed = "limit:8 deploy freeze"
    async with started(app) as pilot:
        await pilot.press("slash", *typed, "enter")
        await until(pilot, lambda: history.recent_entries("dev")[:1] != [])
        [kept] = history.recent_entries("dev")
        assert (kept.query, kept.limit) == ("deploy freeze", 8)
        await pilot.press("ctrl+u", "up")
        assert box_value(app) == typed
        await pilot.press("slash", "ctrl+u", *"deploy freeze", "enter")  # asked again, no limit
        await until(pilot, lambda: history.recent_entries("dev")[0].limit is None)
        queries = [e.query for e in history.recent_entries("dev")]
        assert queries[0] == "deploy freeze" and queries.count("deploy freeze") == 1
