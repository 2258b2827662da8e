"""``agents``: who shares the store, in which mode, reading which collection (in mem0:
user and agent pairs, one per ``user_id``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import model_serializer

from amem_tui.cli.command import Command, NoOptions
from amem_tui.cli.output import mem0_fields

if TYPE_CHECKING:
    from amem_tui.cli.context import Context
    from amem_tui.engine import AgentScope
else:
    AgentScope = Any  # dumped by the answer's own serializer


@dataclass(frozen=True)
class AgentList:
    """The agents (a plain list in JSON), their configuration file and default user."""

    scopes: list[AgentScope]
    config_file: str | None
    user: str | None

    @model_serializer
    def _json(self) -> list[dict[str, Any]]:
        return [
            {"agent": s.agent, "mode": s.mode, "collection": s.collection} | mem0_fields(s)
            for s in self.scopes
        ]


def list_agents(ctx: Context, _: NoOptions) -> AgentList:
    """List agents with their mode and collection (in mem0: user and agent pairs)."""
    config = ctx.settings.config_file
    return AgentList(ctx.engine.agents(), str(config) if config else None, ctx.settings.user)


def _row_text(scope: AgentScope) -> str:
    if not scope.is_mem0_view:
        return f"{scope.agent:<16} Mode {scope.mode}  {scope.collection}"
    return f"{scope.user or '-':<10} {scope.agent:<18} {scope.namespace or '-':<32} {scope.view}"


def _mem0_hints(agents: AgentList) -> list[str]:
    """How to read each kind of mem0 view from the command line."""
    views = [scope for scope in agents.scopes if scope.is_mem0_view]
    if not views:
        return []
    lines = []
    if agents.user:
        lines.append(f"user read by default: {agents.user} (--user or AMEM_USER to change)")
    lines.append("read a pair with: --user USER --agent AGENT")
    for view in views:
        if view.view == "agentId":
            lines.append(
                f"{view.namespace}: written with an explicit agentId, never recalled by "
                f"main's sessions; read it with --namespace {view.namespace}"
            )
    if any(s.agent.startswith("subagent-") and s.is_mem0_view for s in agents.scopes):
        lines.append(
            "a subagent's auto-recall reads its user's main memories: "
            "--session-key agent:<id>:<rest>:subagent:<name> --view recall"
        )
    return lines


def agents_text(agents: AgentList) -> str:
    """One line per agent, the configuration file, and (mem0) how to read each view."""
    lines: list[str] = []
    if any(scope.is_mem0_view for scope in agents.scopes):
        lines.append(f"{'user':<10} {'agent':<18} {'user_id':<32} view")
    lines += [_row_text(scope) for scope in agents.scopes]
    lines.append(f"configuration: {agents.config_file or 'none found (defaults)'}")
    return "\n".join(lines + _mem0_hints(agents))


COMMANDS: tuple[Command[Any, Any], ...] = (Command("agents", list_agents, agents_text, reads=True),)
