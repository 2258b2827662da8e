"""``agents``: who shares the store, in which mode, reading which collection.

Agents are the first thing a user of a multi-agent memory asks about, and every
other command acts as one of them (``--agent``), so they have their own module. In
a mem0 collection they are user and agent pairs, one per ``user_id`` the store
holds, each with the view that reads it.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from amem_tui.cli.command import Command
from amem_tui.cli.output import mem0_view_json

if TYPE_CHECKING:
    from amem_tui.cli.context import Context


class AgentRows(list[dict[str, Any]]):
    """The agents list (a plain list in JSON), with the configuration file it came from
    and, for a mem0 collection, the user read by default."""

    config_file: str | None = None
    user: str | None = None


def list_agents(ctx: Context, args: argparse.Namespace) -> AgentRows:
    """Each agent with its mode and collection (and its user, user_id and view in a
    mem0 collection)."""
    rows = AgentRows(
        {"agent": s.agent, "mode": s.mode, "collection": s.collection, **mem0_view_json(s)}
        for s in ctx.engine.agents()
    )
    config = ctx.settings.config_file
    rows.config_file = str(config) if config else None
    rows.user = ctx.settings.user
    return rows


def _row_text(row: dict[str, Any]) -> str:
    if "namespace" not in row:
        return f"{row['agent']:<16} Mode {row['mode']}  {row['collection']}"
    return (
        f"{row['user'] or '-':<10} {row['agent']:<18} {row['namespace'] or '-':<32} {row['view']}"
    )


def _mem0_hints(rows: AgentRows) -> list[str]:
    """How to read each kind of mem0 view from the command line."""
    pairs = [row for row in rows if "namespace" in row]
    if not pairs:
        return []
    lines = []
    if rows.user:
        lines.append(f"user read by default: {rows.user} (--user or AMEM_USER to change)")
    lines.append("read a pair with: --user USER --agent AGENT")
    for row in pairs:
        if row["view"] == "agentId":
            lines.append(
                f"{row['namespace']}: written with an explicit agentId, never recalled by "
                f"main's sessions; read it with --namespace {row['namespace']}"
            )
    if any(str(row["agent"]).startswith("subagent-") for row in pairs):
        lines.append(
            "a subagent's auto-recall reads its user's main memories: "
            "--session-key agent:<id>:<rest>:subagent:<name> --view recall"
        )
    return lines


def agents_text(rows: AgentRows) -> str:
    """One line per agent (per user and agent pair in mem0), the configuration file
    they come from, and (mem0) how to read each view."""
    lines: list[str] = []
    if any("namespace" in row for row in rows):
        lines.append(f"{'user':<10} {'agent':<18} {'user_id':<32} view")
    lines += [_row_text(row) for row in rows]
    lines.append(f"configuration: {rows.config_file or 'none found (defaults)'}")
    return "\n".join(lines + _mem0_hints(rows))


COMMANDS: tuple[Command[Any], ...] = (
    Command(
        "agents",
        "list agents with their mode and collection (in mem0: user and agent pairs)",
        handler=list_agents,
        text=agents_text,
    ),
)
