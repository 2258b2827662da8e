"""``agents``: who shares the store, in which mode, reading which collection (in mem0:
user and agent pairs, one per ``user_id``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import model_serializer

from amem_tui.cli.command import Command, NoOptions
from amem_tui.cli.output import Mem0View, flattened, mem0_view

if TYPE_CHECKING:
    from amem_tui.cli.context import Context


@dataclass(frozen=True)
class AgentRow:
    """One agent: its mode and collection (and its mem0 view)."""

    agent: str
    mode: str
    collection: str
    mem0: Mem0View | None
    _json = flattened("mem0")


@dataclass(frozen=True)
class AgentList:
    """The agents (a plain list in JSON), their configuration file and default user."""

    rows: list[AgentRow]
    config_file: str | None
    user: str | None

    @model_serializer
    def _json(self) -> list[AgentRow]:
        return self.rows


def list_agents(ctx: Context, _: NoOptions) -> AgentList:
    """List agents with their mode and collection (in mem0: user and agent pairs)."""
    rows = [AgentRow(s.agent, s.mode, s.collection, mem0_view(s)) for s in ctx.engine.agents()]
    config = ctx.settings.config_file
    return AgentList(rows, str(config) if config else None, ctx.settings.user)


def _row_text(row: AgentRow) -> str:
    if row.mem0 is None:
        return f"{row.agent:<16} Mode {row.mode}  {row.collection}"
    view = row.mem0
    return f"{view.user or '-':<10} {row.agent:<18} {view.namespace or '-':<32} {view.view}"


def _mem0_hints(agents: AgentList) -> list[str]:
    """How to read each kind of mem0 view from the command line."""
    pairs = [(row, row.mem0) for row in agents.rows if row.mem0 is not None]
    if not pairs:
        return []
    lines = []
    if agents.user:
        lines.append(f"user read by default: {agents.user} (--user or AMEM_USER to change)")
    lines.append("read a pair with: --user USER --agent AGENT")
    for _, view in pairs:
        if view.view == "agentId":
            lines.append(
                f"{view.namespace}: written with an explicit agentId, never recalled by "
                f"main's sessions; read it with --namespace {view.namespace}"
            )
    if any(row.agent.startswith("subagent-") for row, _ in pairs):
        lines.append(
            "a subagent's auto-recall reads its user's main memories: "
            "--session-key agent:<id>:<rest>:subagent:<name> --view recall"
        )
    return lines


def agents_text(agents: AgentList) -> str:
    """One line per agent, the configuration file, and (mem0) how to read each view."""
    lines: list[str] = []
    if any(row.mem0 is not None for row in agents.rows):
        lines.append(f"{'user':<10} {'agent':<18} {'user_id':<32} view")
    lines += [_row_text(row) for row in agents.rows]
    lines.append(f"configuration: {agents.config_file or 'none found (defaults)'}")
    return "\n".join(lines + _mem0_hints(agents))


COMMANDS: tuple[Command[Any, Any], ...] = (Command("agents", list_agents, agents_text, reads=True),)
