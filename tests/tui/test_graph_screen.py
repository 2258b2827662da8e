"""The memory graph (n): the subject's links two out, both ways, as the agent browsed
sees them; Enter re-centres, Backspace goes back, Esc closes."""

from __future__ import annotations

from typing import Any

from textual.widgets import Tree

from amem_tui.demo import demo_id
from amem_tui.tui.screens.graph import GraphScreen
from tests.support.tui import demo_app, demo_engine, main_screen, settle, started


def tree_lines(app: Any) -> list[str]:
    tree = app.screen.query_one(Tree)
    lines: list[str] = []

    def walk(node: Any) -> None:
        lines.append(str(node.label))
        for child in node.children:
            walk(child)

    walk(tree.root)
    return lines


async def open_graph(pilot: Any, note: str) -> GraphScreen:
    screen = main_screen(pilot.app)
    assert screen.panes.select(demo_id(note))
    await settle(pilot)
    await pilot.press("n")
    await settle(pilot)
    graph = pilot.app.screen
    assert isinstance(graph, GraphScreen)
    return graph


async def test_dev_sees_the_freeze_note_link_to_mains_trip_counted_not_named() -> None:
    async with started(demo_app(demo_engine(), agent="dev")) as pilot:
        await open_graph(pilot, "shared-freeze")
        lines = tree_lines(pilot.app)
        text = "\n".join(lines)
        assert lines[0].startswith("shared") and "Production deploy is frozen" in lines[0]
        assert "All API endpoints use snake_case" in text
        assert "1 unreadable note: not shown" in text
        assert "Lisbon" not in text and demo_id("main-trip") not in text


async def test_main_sees_its_private_note_behind_the_shared_link_marked() -> None:
    async with started(demo_app(demo_engine(), agent="main")) as pilot:
        await open_graph(pilot, "shared-freeze")
        [trip] = [line for line in tree_lines(pilot.app) if "Lisbon" in line]
        assert trip.startswith("private") and "⇄" in trip


async def test_enter_centres_on_a_neighbour_and_backspace_goes_back() -> None:
    async with started(demo_app(demo_engine(), agent="dev")) as pilot:
        graph = await open_graph(pilot, "shared-freeze")
        tree = graph.query_one(Tree)
        node = next(n for n in tree.root.children[0].children if n.data)
        tree.move_cursor(node)
        await pilot.press("enter")
        await settle(pilot)
        assert graph.centres[-1] == demo_id("shared-snake")
        assert "All API endpoints" in tree_lines(pilot.app)[0]
        assert any("Production deploy is frozen" in line for line in tree_lines(pilot.app))
        await pilot.press("backspace")
        await settle(pilot)
        assert "Production deploy is frozen" in tree_lines(pilot.app)[0]
        await pilot.press("escape")
        await settle(pilot)
        assert pilot.app.screen is main_screen(pilot.app)


async def test_without_a_highlighted_note_it_says_so() -> None:
    app = demo_app(demo_engine(seed=False), agent="dev")
    async with started(app) as pilot:
        await pilot.press("n")
        await settle(pilot)
        assert not isinstance(pilot.app.screen, GraphScreen)
        assert any("Highlight a note first" in message for _, message in app.notice_log)
