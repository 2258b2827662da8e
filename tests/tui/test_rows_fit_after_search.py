"""Rows cut at a pane's border always say so with an ellipsis: after a search is cleared
(the panes narrow again as the history comes back) and after an agent switch, to a Mode A
agent or a Mode B one (its collection pane beside the pane saying it has no shared scope)."""

from __future__ import annotations

from typing import Any

from amem_tui.tui.dialogs.agent_picker import AgentPicker
from tests.support.tui import demo_app, screen_lines, settle, started, until

LONG = "Priya does thorough code reviews"  # a note of main's, longer than its pane


def private_rows(app: Any, starting: str) -> list[str]:
    """The private pane's cells (left of its right border) of the lines holding ``starting``."""
    return [line.split("│")[1] for line in screen_lines(app) if starting in line and "││" in line]


def full_private_rows(app: Any) -> list[str]:
    """The private pane's cells that fill its width (a longer text was cut there)."""
    cells = [line.split("│")[1] for line in screen_lines(app) if "││" in line]
    return [c for c in cells[1:] if c.strip() and len(c.rstrip()) >= len(c) - 1]


async def test_rows_keep_their_ellipsis_once_a_search_is_cleared() -> None:
    app = demo_app()
    async with started(app, size=(120, 40)) as pilot:
        assert all(row.rstrip().endswith("…") for row in private_rows(app, LONG))
        await pilot.press("slash", *"deploy")
        await until(pilot, lambda: "hits" in " ".join(screen_lines(app)))
        await settle(pilot)
        await pilot.press("escape", "escape")
        await settle(pilot)
        await until(pilot, lambda: bool(private_rows(app, LONG)))
        await settle(pilot)
        rows = private_rows(app, LONG)
        assert rows and all(row.rstrip().endswith("…") for row in rows), rows


async def switch_to(pilot: Any, agent: str) -> None:
    """Act as ``agent``, chosen in the agent picker (s) as a user does."""
    app = pilot.app
    await pilot.press("s")
    await settle(pilot)
    picker = app.screen
    assert isinstance(picker, AgentPicker)
    table = picker.table
    labels = [str(table.get_row_at(i)[1]).strip() for i in range(table.row_count)]
    table.move_cursor(row=labels.index(agent))
    await pilot.press("enter")
    await settle(pilot)
    await until(pilot, lambda: f"agent {agent}" in screen_lines(app)[0])
    await settle(pilot)


async def test_rows_keep_their_ellipsis_after_an_agent_switch() -> None:
    app = demo_app()
    async with started(app, size=(120, 40)) as pilot:
        await switch_to(pilot, "dev")
        rows = full_private_rows(app)
        assert rows and all(row.rstrip().endswith("…") for row in rows), rows


async def test_a_mode_b_agents_rows_keep_their_ellipsis_once_a_search_is_cleared() -> None:
    app = demo_app()
    async with started(app, size=(120, 40)) as pilot:
        await switch_to(pilot, "sandbox")
        await pilot.press("slash", *"plugin")
        await until(pilot, lambda: "hits" in " ".join(screen_lines(app)))
        await settle(pilot)
        await pilot.press("escape", "escape")
        await settle(pilot)
        # sandbox's collection pane, beside its Mode B explanation and its history.
        await until(pilot, lambda: "Shared: none" in " ".join(screen_lines(app)))
        await settle(pilot)
        rows = [row for row in full_private_rows(app) if "Experiment" in row]
        assert len(rows) == 2 and all(row.rstrip().endswith("…") for row in rows), rows
