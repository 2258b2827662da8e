"""``agents``: who shares the store, in which mode, reading which collection.

Agents are the first thing a user of a multi-agent memory asks about, and every
other command acts as one of them (``--agent``), so they have their own module.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from amem_tui.cli.command import Command

if TYPE_CHECKING:
    from amem_tui.cli.context import Context


class AgentRows(list[dict[str, str]]):
    """The agents list (a plain list in JSON), with the configuration file it came from."""

    config_file: str | None = None


def list_agents(ctx: Context, args: argparse.Namespace) -> AgentRows:
    """Each agent with its mode and collection."""
    rows = AgentRows(
        {"agent": s.agent, "mode": s.mode, "collection": s.collection} for s in ctx.engine.agents()
    )
    config = ctx.settings.config_file
    rows.config_file = str(config) if config else None
    return rows


def agents_text(rows: AgentRows) -> str:
    """One line per agent, then the configuration file they come from."""
    lines = [f"{r['agent']:<16} Mode {r['mode']}  {r['collection']}" for r in rows]
    return "\n".join([*lines, f"configuration: {rows.config_file or 'none found (defaults)'}"])


COMMANDS: tuple[Command[Any], ...] = (
    Command(
        "agents",
        "list agents with their mode and collection",
        handler=list_agents,
        text=agents_text,
    ),
)
