"""A note pane keeps its listing's table while hits are shown: a clear shows it again as
it was left, rebuilt only when the listing changed meanwhile, with the focus kept."""

from __future__ import annotations

from typing import Any

import pytest

from amem_tui.tui.widgets.note_pane import NotePane
from tests.support.tui import demo_app, demo_engine, main_screen, settle, started, until


def private(app: Any) -> NotePane:
    return main_screen(app).query_one("#private", NotePane)


def count_added_rows(pane: NotePane) -> list[str]:
    """The key of every row added to either of the pane's tables from now on."""
    added: list[str] = []
    for table in pane.query("NoteTable"):
        original = table.add_row  # type: ignore[attr-defined]

        def add_row(*cells: Any, original: Any = original, **kwargs: Any) -> Any:
            added.append(str(kwargs.get("key")))
            return original(*cells, **kwargs)

        table.add_row = add_row  # type: ignore[attr-defined]
    return added


async def wait_for_listing(pilot: Any, pane: NotePane) -> None:
    """Let the app run until the pane shows its listing again (a clear settles first)."""
    await until(pilot, lambda: not pane.searching)
    await settle(pilot)


async def test_a_clear_shows_the_listing_as_it_was_left_without_adding_rows() -> None:
    app = demo_app(agent="dev")
    async with started(app) as pilot:
        pane = private(app)
        listing = pane.table
        ids = [str(key.value) for key in listing.rows]
        await pilot.press("slash", *"deploy")
        await settle(pilot)
        assert pane.searching and pane.table is not listing
        added = count_added_rows(pane)
        await pilot.press("ctrl+u")
        await wait_for_listing(pilot, pane)
        assert added == []
        assert pane.table is listing and listing.display
        assert [str(key.value) for key in listing.rows] == ids
        assert pane.total == len(ids) and not pane.hits


async def test_a_listing_changed_while_hits_were_shown_is_rebuilt_on_clear() -> None:
    engine = demo_engine()
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        pane = private(app)
        await pilot.press("slash", *"deploy")
        await settle(pilot)
        note = engine.agent("dev").add("Written while a search was shown: the listing has it after")
        pane.merge_notes([note], [], pane.listing_total + 1)
        assert note.id not in pane.table.rows  # the hits stay as they are
        await pilot.press("ctrl+u")
        await wait_for_listing(pilot, pane)
        assert note.id in pane.table.rows
        assert pane.total == pane.listing_total


async def test_the_focus_follows_from_the_hits_to_the_listing() -> None:
    app = demo_app(agent="dev")
    async with started(app) as pilot:
        await pilot.press("slash", *"deploy", "enter")
        await settle(pilot)
        panes = main_screen(app).query(NotePane)
        pane = next(p for p in panes if p.table.has_focus)  # the pane of the best hit
        hits = pane.table
        assert pane.searching
        await pilot.press("escape")
        await wait_for_listing(pilot, pane)
        assert pane.table is not hits and not hits.display
        assert pane.table.has_focus


@pytest.mark.parametrize(
    ("query", "words"),
    [("lisbon flight", "Flight to Lisbon"), ("postgres connection pool", "Postgres connection")],
)
async def test_the_listing_shown_again_scrolls_just_enough_to_show_the_hit_selected(
    query: str, words: str
) -> None:
    # A short screen: the listing is taller than its pane, and the hit's row is
    # near its top in one case and below its last line in the other.
    app = demo_app(agent="main")
    async with started(app, size=(80, 24)) as pilot:
        pane = private(app)
        listing = pane.table
        await pilot.press("slash", *query, "enter")
        await settle(pilot)
        await pilot.press("escape")
        await wait_for_listing(pilot, pane)
        await settle(pilot)
        assert pane.table is listing
        selected = next(note for note in pane.listing if note.id == pane.current_id)
        assert words in selected.content
        height = listing.scrollable_content_region.height - 1  # the header row stays
        top = int(listing.scroll_y)
        assert top <= listing.cursor_row < top + height
        assert top == max(0, listing.cursor_row - height + 1)  # no further than needed
