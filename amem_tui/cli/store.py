"""The store as a whole: ``agents`` (who shares it, in which mode, reading which
collection; in mem0: user and agent pairs, one per ``user_id``), ``status`` (which
configuration, store, agent, collection and model are in use) and ``collections``
(every collection: aliases, format, model)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import model_serializer

from amem_tui.cli.command import Command, Context, NoOptions
from amem_tui.cli.output import mem0_fields
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine import AgentScope, CollectionView, StoreStatus
else:
    AgentScope = Any  # dumped by the answer's own serializer


# -------------------------------------------------------------------- agents
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


def _row_text(scope: AgentScope) -> str:
    if not scope.is_mem0_view:
        return f"{scope.agent:<16} Mode {scope.mode}  {scope.collection}"
    return f"{scope.user or '-':<10} {scope.agent:<18} {scope.namespace or '-':<32} {scope.view}"


def _mem0_hints(agents: AgentList) -> Iterator[str]:
    """How to read each kind of mem0 view from the command line."""
    views = [scope for scope in agents.scopes if scope.is_mem0_view]
    if not views:
        return
    if agents.user:
        yield f"user read by default: {agents.user} (--user or AMEM_USER to change)"
    yield "read a pair with: --user USER --agent AGENT"
    for view in views:
        if view.view == "agentId":
            yield (
                f"{view.namespace}: written with an explicit agentId, never recalled by "
                f"main's sessions; read it with --namespace {view.namespace}"
            )
    if any(s.agent.startswith("subagent-") and s.is_mem0_view for s in agents.scopes):
        yield (
            "a subagent's auto-recall reads its user's main memories: "
            "--session-key agent:<id>:<rest>:subagent:<name> --view recall"
        )


def agents_text(agents: AgentList) -> Iterator[str]:
    """One line per agent, the configuration file, and (mem0) how to read each view."""
    if any(scope.is_mem0_view for scope in agents.scopes):
        yield f"{'user':<10} {'agent':<18} {'user_id':<32} view"
    yield from (_row_text(scope) for scope in agents.scopes)
    yield f"configuration: {agents.config_file or 'none found (defaults)'}"
    yield from _mem0_hints(agents)


@Command("agents", agents_text, reads=True)
def list_agents(ctx: Context, _: NoOptions) -> AgentList:
    """List agents with their mode and collection (in mem0: user and agent pairs)."""
    config = ctx.settings.config_file
    return AgentList(ctx.engine.agents(), str(config) if config else None, ctx.settings.user)


# -------------------------------------------------------------------- status


def status_text(status: StoreStatus) -> Iterator[str]:
    """One labelled line per fact, and a hint when the collection does not exist."""
    yield f"configuration: {status.config_file or 'none found (defaults)'}"
    yield f"store:         {status.store}{' (read-only)' if status.read_only else ''}"
    yield f"agent:         {status.agent} (Mode {status.mode}, collection {status.collection})"
    if status.user is not None or status.namespace is not None:
        yield f"user:          {status.user} (reads user_id {status.namespace}, {status.view} view)"
    elif len(status.users) > 1:
        yield "user:          none chosen: searches and listings need --user (AMEM_USER)"
    if status.users:
        yield f"users:         {', '.join(status.users)}"
    if status.collection != status.resolved_collection:
        yield f"alias:         {status.collection} -> {status.resolved_collection}"
    yield f"format:        {status.format}"
    yield f"embeddings:    {status.model}"
    if status.exists:
        built_by = status.collection_model
        named = f"{built_by} (from {status.model_source})" if built_by else "not named by anything"
        yield f"built with:    {named}"
    yield f"search:        {'vector' if status.searchable else 'keyword only'}"
    yield f"               {status.model_reason}"
    if not status.exists and status.collections:
        names = ", ".join(status.collections)
        yield f"hint:          the store holds {names}; choose one with --collection"


@Command("status", status_text, reads=True)
def status(ctx: Context, _: NoOptions) -> StoreStatus:
    """Which configuration, store, collection and model are in use."""
    from amem_tui.engine.for_apps import UserNotChosen

    with contextlib.suppress(UserNotChosen):  # status names the users instead
        ctx.reading_scope()  # a mistyped --agent (or mem0 user) is named on stderr
    return ctx.engine.status()


# --------------------------------------------------------------- collections


def collections_text(views: list[CollectionView]) -> Iterator[str]:
    """One line per collection (and why it cannot be searched by vector, if so)."""
    if not views:
        yield "no collections"
    for view in views:
        if not view.exists:
            yield f"{view.name}  (configured, does not exist yet)"
            continue
        if view.bookkeeping:
            yield (
                f"{view.name}: {plural(view.points, 'point')}, {view.bookkeeping}; "
                "holds no memories, never searched or written"
            )
            continue
        aliases = f" alias {', '.join(view.aliases)}" if view.aliases else ""
        used = f" used by {', '.join(view.used_by)}" if view.used_by else ""
        model = view.model or "unknown model"
        ro = f"; read-only: {view.read_only_reason}" if view.read_only else ""
        yield (
            f"{view.name}{aliases}: {plural(view.points, 'point')}, {view.format}, "
            f"{model} ({view.vector_size} dims, from {view.model_source}){used}{ro}"
        )
        if not view.searchable:
            yield f"  {view.model_reason}"


@Command("collections", collections_text, reads=True)
def collections(ctx: Context, _: NoOptions) -> list[CollectionView]:
    """List collections with aliases, format and embedding model."""
    return ctx.engine.collections()
