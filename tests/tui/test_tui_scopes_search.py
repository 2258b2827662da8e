"""Scopes shown fully (notes shared through readers, counts that agree), readable search
results, and a detail view that never names a note the agent may not read."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Static

from amem_tui.demo import demo_id
from amem_tui.tui.widgets.header import HeaderBar
from tests.support.tui import (
    demo_app,
    demo_engine,
    detail_text,
    main_screen,
    pane,
    settle,
    started,
    until,
)


def rows(app: Any, which: str) -> dict[str, str]:
    """Each row's drawn text by note id."""
    table = pane(app, which).table
    keys = [str(key.value) for key in table.rows]
    return {key: table.render_line(y + 1).text for y, key in enumerate(keys)}


async def test_a_note_shared_through_readers_is_listed_apart_as_get_only() -> None:
    app = demo_app()
    async with started(app) as pilot:
        # main's Shared pane is the shared scope: dev's note naming main in its readers
        # is read by id only (openclaw-amem's agent filter ignores readers).
        assert demo_id("dev-selective") not in rows(app, "shared")
        assert "readers" not in rows(app, "shared")[demo_id("shared-snake")]
        pane(app, "shared").table.focus()
        await pilot.press("g")
        await until(pilot, lambda: demo_id("dev-selective") in rows(app, "shared"))
        listed = rows(app, "shared")
        assert list(listed) == [demo_id("dev-selective")]  # never mixed with the shared
        assert "readers dev, main" in listed[demo_id("dev-selective")]
        assert "Get only" in str(pane(app, "shared").border_title)
        pane(app, "shared").select(demo_id("dev-selective"))
        await settle(pilot)
        detail = detail_text(app)
        assert "selectively shared with its readers: dev, main" in detail
        assert "getNote returns it to main" in detail
        await pilot.press("g")
        await until(pilot, lambda: demo_id("shared-snake") in rows(app, "shared"))
        assert demo_id("dev-selective") not in rows(app, "shared")


@pytest.mark.parametrize("agent", ["main", "dev", "sandbox"])
async def test_counts_and_panes_agree_for_every_agent(agent: str) -> None:
    engine = demo_engine()
    app = demo_app(engine, agent=agent)
    async with started(app) as pilot:
        screen = main_screen(app)
        assert screen.scope is not None
        visible = engine.agent(agent).count("visible")
        listed = len(rows(app, "private"))
        if screen.scope.has_shared_scope:
            listed += len(rows(app, "shared"))
            counts = f"private {engine.agent(agent).count('private')} · shared "
            counts += f"{engine.agent(agent).count('shared')} · visible {visible}"
        else:  # Mode B: its whole collection in one pane
            counts = f"notes {visible}"
        assert listed == visible
        assert counts in screen.query_one(HeaderBar).text
        # Shown deleted notes are counted apart: the header's numbers do not move.
        await pilot.press("x")
        await settle(pilot)
        assert counts in screen.query_one(HeaderBar).text
        if agent == "main":
            assert "(8, 1 deleted)" in str(pane(app, "private").border_title)


async def test_search_shows_cosine_the_words_that_matched_and_weak_hits_apart() -> None:
    app = demo_app(agent="dev")
    async with started(app) as pilot:
        # Ten matches, where the agent's own search stops at five: the weak ones come.
        await pilot.press("slash", *"limit:10 deploy freeze", "enter")
        await settle(pilot)
        result = main_screen(app).search_box.result
        assert result is not None and len(result.hits) == 10
        shown = {**rows(app, "private"), **rows(app, "shared")}
        # The agent's true top-k: every hit is shown, none dropped as "weak".
        assert set(shown) == {hit.note.id for hit in result.hits}
        for hit in result.hits:
            line = shown[hit.note.id]
            assert f"{hit.similarity:.2f}" in line  # the cosine, two decimals
            if hit.matched_terms:
                assert f"{len(hit.matched_terms)}/2" in line
            elif hit.weak:
                assert " weak " in line
        freeze = next(h for h in result.hits if h.note.id == demo_id("shared-freeze"))
        assert freeze.matched_terms == ["deploy", "freeze"] and "2/2" in shown[freeze.note.id]
        weak = sum(1 for hit in result.hits if hit.weak)
        assert weak and f"{weak} weak" in str(
            main_screen(app).query_one("#search-status", Static).render()
        )
        # The detail keeps the full explanation.
        pane(app, "shared").select(freeze.note.id)
        pane(app, "shared").table.focus()
        await settle(pilot)
        text = detail_text(app)
        assert "matched words     deploy, freeze" in text
        assert "BM25 #" in text and "similarity" in text and "rrf" in text and "score" in text


async def test_a_weak_hit_says_why_in_the_detail() -> None:
    app = demo_app(agent="dev")
    async with started(app) as pilot:
        await pilot.press("slash", *"deploy freeze", "enter")
        await settle(pilot)
        result = main_screen(app).search_box.result
        assert result is not None
        weak = next(h for h in result.hits if h.weak and h.via == "match")
        which = "private" if weak.because == "private" else "shared"
        pane(app, which).select(weak.note.id)
        pane(app, which).table.focus()
        await settle(pilot)
        assert "weak match" in detail_text(app)
        assert "none of the query's words" in detail_text(app)


async def test_the_detail_never_names_a_note_the_agent_cannot_read() -> None:
    app = demo_app(agent="dev")
    async with started(app) as pilot:
        pane(app, "shared").select(demo_id("shared-freeze"))
        pane(app, "shared").table.focus()
        await settle(pilot)
        text = detail_text(app)
        hidden = demo_id("main-trip")  # main's private note: linked and in conflict
        assert hidden[:8] not in text
        assert "1 conflicting note this agent cannot see" in text
        assert "1 link this agent cannot see" in text
        # As main, who may read it, the same note names it.
    app = demo_app(agent="main")
    async with started(app) as pilot:
        pane(app, "shared").select(demo_id("shared-freeze"))
        pane(app, "shared").table.focus()
        await settle(pilot)
        assert demo_id("main-trip") in detail_text(app)
        assert "cannot see" not in detail_text(app)
