"""The plain-text filter inside a pane (F) and the sort by any column (S, I): both work
on the rows the pane has loaded, never ask the store, and keep the subject on the
highlighted row."""

from __future__ import annotations

from typing import Any

import pytest

from amem_tui.engine import MemoryNote
from amem_tui.tui.screens.help import HelpScreen
from amem_tui.tui.widgets.listing_view import Order, sort_notes, sort_value
from amem_tui.tui.widgets.note_pane import NotePane
from amem_tui.tui.widgets.pane_filter import PaneFilter
from tests.support.tui import demo_app, demo_engine, main_screen, pane, row_ids, settle, started


def column_labels(p: NotePane) -> list[str]:
    return [column.label.plain for column in p.table.ordered_columns]


def holding(notes: list[MemoryNote], text: str) -> list[str]:
    """The ids of the notes whose content, tags or owner hold ``text`` (any case)."""
    text = text.casefold()
    return [
        n.id
        for n in notes
        if text in n.content.casefold()
        or any(text in t.casefold() for t in n.tags)
        or text in (n.effective_owner or "").casefold()
    ]


async def test_the_filter_narrows_the_rows_by_text_in_any_case_and_esc_brings_them_back() -> None:
    app = demo_app()
    async with started(app) as pilot:
        private = pane(app)
        everything = row_ids(private)
        expected = holding(private.listing, "code")
        assert 0 < len(expected) < len(everything)
        await pilot.press("F", *"CoDe")
        await settle(pilot)
        assert isinstance(app.focused, PaneFilter)
        assert row_ids(private) == expected
        assert private.subtitle_text == f"filter: CoDe — {len(expected)} of {len(everything)}"
        await pilot.press("escape")
        await settle(pilot)
        assert row_ids(private) == everything
        assert private.subtitle_text == "" and not private.filter_box.display
        assert app.focused is private.table


async def test_enter_keeps_the_filter_and_esc_in_the_rows_clears_it_not_the_search() -> None:
    app = demo_app()
    async with started(app) as pilot:
        private, main = pane(app), main_screen(app)
        everything = row_ids(private)
        await pilot.press("F", *"standup", "enter")
        await settle(pilot)
        assert app.focused is private.table and not private.filter_box.display
        kept = row_ids(private)
        assert kept == holding(private.listing, "standup") and len(kept) == 2
        # The subject is the highlighted row of what the filter kept.
        await pilot.press("down")
        await settle(pilot)
        assert main.selected_id == kept[1] == main.detail_view.note_id
        await pilot.press("escape")
        await settle(pilot)
        assert row_ids(private) == everything
        assert main.selected_id == kept[1]  # the cursor stays on its note


async def test_the_filter_matches_tags_and_owners_too() -> None:
    app = demo_app()
    async with started(app) as pilot:
        shared = pane(app, "shared")
        await pilot.press("tab", "F", *"dev")
        await settle(pilot)
        dev = [n.id for n in shared.listing if n.effective_owner == "dev"]
        assert dev and set(dev) <= set(row_ids(shared))
        await pilot.press("escape", "shift+tab", "F", *"people")
        await settle(pilot)
        private = pane(app)
        tagged = [n.id for n in private.listing if "people" in n.tags]
        assert tagged and row_ids(private) == holding(private.listing, "people")
        assert set(tagged) <= set(row_ids(private))


async def test_typing_in_the_filter_never_asks_the_store() -> None:
    engine = demo_engine()
    app = demo_app(engine)
    calls: list[str] = []
    async with started(app) as pilot:
        store = engine.store
        for name in ("scroll", "scan", "search"):  # (the detail reads its note by id)
            original = getattr(store, name)

            def counted(*args: Any, _name: str = name, _original: Any = original, **kw: Any) -> Any:
                calls.append(_name)
                return _original(*args, **kw)

            setattr(store, name, counted)
        await pilot.press("F", *"the team wiki", "backspace", "backspace", "enter")
        await settle(pilot)
        await pilot.press("S", "S", "I")
        await settle(pilot)
        assert calls == []
        assert len(row_ids(pane(app))) == 1


async def test_the_filter_narrows_search_hits_too() -> None:
    app = demo_app(agent="dev")
    async with started(app) as pilot:
        await pilot.press("slash", *"deploy", "enter")
        await settle(pilot)
        panes = main_screen(app).panes
        hits = panes.pane(panes.working)
        shown = row_ids(hits)
        assert hits.searching and len(shown) > 1
        word = hits.hits[shown[-1]].note.content.split()[0]
        await pilot.press("F", *word)
        await settle(pilot)
        kept = row_ids(hits)
        assert shown[-1] in kept and len(kept) < len(shown)
        assert kept == [i for i in shown if i in holding([hits.hits[i].note for i in shown], word)]
        assert hits.subtitle_text.startswith(f"filter: {word} — {len(kept)} of {len(shown)}")


@pytest.mark.parametrize(
    ("presses", "header"),
    [
        (1, "updated ↓"),
        (2, "owner ↑"),
        (3, "recalls ↓"),
        (4, "recalled ↓"),
        (5, None),  # back to newest first: no sort column
    ],
)
async def test_s_cycles_the_sort_column_shown_with_its_direction(
    presses: int, header: str | None
) -> None:
    app = demo_app()
    async with started(app) as pilot:
        private = pane(app)
        notes = list(private.listing)
        await pilot.press(*["S"] * presses)
        await settle(pilot)
        order = private.order
        if header is None:
            assert order.is_default and column_labels(private) == ["content"]
            return
        assert column_labels(private) == [header, "content"]
        assert row_ids(private) == [n.id for n in sort_notes(notes, order)]
        values = [sort_value(n, order.key) for n in sort_notes(notes, order)]
        present = [v for v in values if v is not None]
        assert present == sorted(present, reverse=order.descending)  # type: ignore[type-var]


async def test_i_reverses_the_order_and_the_subject_stays_on_its_note() -> None:
    app = demo_app()
    async with started(app) as pilot:
        private, main = pane(app), main_screen(app)
        await pilot.press("S", "S", "S")  # recalls, most first
        await settle(pilot)
        most_first = row_ids(private)
        subject = main.selected_id
        await pilot.press("I")
        await settle(pilot)
        assert column_labels(private)[0] == "recalls ↑"
        counts = [n.retrieval_count for n in private.listing]
        shown = {n.id: n.retrieval_count for n in private.listing}
        assert [shown[i] for i in row_ids(private)] == sorted(counts)
        assert set(row_ids(private)) == set(most_first)
        assert main.selected_id == subject == main.detail_view.note_id


async def test_the_shared_pane_says_an_owner_sort_in_its_owner_column() -> None:
    app = demo_app()
    async with started(app) as pilot:
        shared = pane(app, "shared")
        await pilot.press("tab", "S", "S")
        await settle(pilot)
        assert column_labels(shared) == ["owner ↑", "content"]
        owners = [shared.table.get_row(key)[0].plain for key in shared.table.rows]
        assert owners == sorted(owners)


async def test_from_the_palette_a_pane_key_acts_on_the_pane_worked_in() -> None:
    app = demo_app()
    async with started(app) as pilot:
        main = main_screen(app)
        private, shared = pane(app), pane(app, "shared")
        main.detail_view.body_scroll.focus()  # the pane keys are the panes' own
        await settle(pilot)
        await pilot.press("S")
        await settle(pilot)
        assert private.order.is_default
        await pilot.press("ctrl+p", *"Sort the pane by the next column", "enter")
        await settle(pilot)
        assert private.order.key == "updated" and column_labels(private)[0] == "updated ↓"
        # The get-only listing is the Shared pane's, asked for from anywhere.
        await pilot.press("ctrl+p", *"List what this agent reads only by", "enter")
        await settle(pilot)
        assert shared.kind == "get_only" and main.panes.working == "shared"


def test_an_order_is_kept_as_text_and_read_back() -> None:
    for order in (Order(), Order("recalls", False), Order("owner", True)):
        assert Order.from_text(order.to_text()) == order
    assert Order.from_text("size desc") is None and Order.from_text(3) is None


async def test_help_lists_the_filter_and_sort_keys() -> None:
    app = demo_app()
    async with started(app) as pilot:
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        rows = {(key, what) for key, what, _ in app.screen.bindings}
        assert {("F", "Filter"), ("S", "Sort"), ("I", "Reverse order")} <= rows
