"""Going from a row of another screen (an audit row, a compare row) to the note itself.

The screen that has the row closes with a ``JumpTarget``: the note and the agents
the row names. The main screen then asks, in a worker, which agent to show it as
(``where_to_show``): the agent it shows now if that agent's panes list the note,
else the first agent the row names whose panes do, else any agent that reads it by
id; and highlights it there, switching agent if need be.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from amem_tui.engine import AgentScope, MemoryEngine


@dataclass(frozen=True)
class JumpTarget:
    """A note to show, and the agents (by name) the row it came from names, best first."""

    note_id: str
    agents: tuple[str, ...] = ()
    #: The collection the row names, if it names one (a Mode B agent's, say).
    collection: str | None = None
    #: Exactly these agents first (a comparison's sides: a mem0 user and agent included).
    scopes: tuple[AgentScope, ...] = ()
    #: Show it as the agents the row names, before the current one (a leak is seen as
    #: the agent it reaches).
    as_named: bool = False


@dataclass(frozen=True)
class JumpPlace:
    """Where a note is shown: as ``scope``; ``listed`` when its panes list it (else the
    agent reads it only by id, and the detail view shows it)."""

    scope: AgentScope
    listed: bool


def candidates(
    target: JumpTarget, current: AgentScope | None, agents: Sequence[AgentScope]
) -> list[AgentScope]:
    """The agents to try, in order: the current one (after the named ones for a target
    ``as_named``), those the row names (in the row's collection first), then every
    other."""
    named = [s for name in target.agents for s in agents if s.agent == name]
    if target.collection is not None:
        named.sort(key=lambda s: s.collection != target.collection)
    first = [current] if current is not None and not target.as_named else []
    order = first + list(target.scopes) + named + list(agents)
    out: list[AgentScope] = []
    for scope in order:
        if scope not in out:
            out.append(scope)
    return out


def where_to_show(
    engine: MemoryEngine, scopes: Sequence[AgentScope], note_id: str
) -> JumpPlace | None:
    """The first of ``scopes`` whose panes list the note, else the first that reads it
    by id (None: none may read it). Reads each note by id; nothing else."""
    from amem_tui.engine import AmemError

    readers: list[AgentScope] = []
    for scope in scopes:
        view = engine.agent(scope)
        try:
            note = view.get(note_id)
        except AmemError:  # not there, or not this agent's to read
            continue
        if view.visible_because(note) is not None:
            return JumpPlace(scope, listed=True)
        readers.append(scope)
    return JumpPlace(readers[0], listed=False) if readers else None
