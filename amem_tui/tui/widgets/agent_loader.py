"""The main screen's loader: every pane of an agent read together in a worker
(``load_scope_data``), so that a switch changes them
all at once, and the agents there are to choose from (kept: ``agents``). It draws
nothing.

It also finds, in a worker, which agent to show a note as that another screen chose
(an audit row, a compare row: a ``JumpTarget``): the agent shown now if its panes list
the note, else the first agent the row names whose panes do, else any agent that reads
it by id (``JumpFound``); the screen then loads that agent with the note selected.

Loads are numbered. One overtaken by a newer load is dropped here, so the screen hears
once of the newest load only: ``ScopeLoaded`` goes on up to
it. A load that raised is reported like any worker's failure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.widget import Widget
from textual.worker import get_current_worker

from amem_tui.tui.messages import AgentsLoaded, JumpFound, JumpPlace, ScopeLoaded
from amem_tui.tui.scope_loader import load_scope_data, resolve_scope
from amem_tui.tui.workers import ReportsWorkerFailures

if TYPE_CHECKING:
    from collections.abc import Sequence

    from amem_tui.engine import AgentScope, MemoryEngine
    from amem_tui.tui.messages import JumpTarget


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


class AgentLoader(ReportsWorkerFailures, Widget):
    """Reads an agent's panes, and the agents, in workers; says what it read."""

    DEFAULT_CSS = "AgentLoader { display: none; }"

    def __init__(self, engine: MemoryEngine, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.engine = engine
        #: Loads started: only the newest is said.
        self.generation = 0
        #: The agents to choose from, once read (and each agent loaded, if not among them).
        self.agents: list[AgentScope] = []
        #: The agent of the newest load said.
        self.shown: AgentScope | None = None

    def load(self, agent: AgentScope | str | None, select: str | None, deleted: bool) -> None:
        """Read every pane of ``agent`` (a name, or exactly this scope; None: the
        default agent), soft-deleted notes too if ``deleted``; ``select`` names the note
        to select once it is shown."""
        self.generation += 1
        self._load(agent, select, self.generation, deleted)

    @work(thread=True, exclusive=True, exit_on_error=False, group="scope")
    def _load(
        self, agent: AgentScope | str | None, select: str | None, load: int, deleted: bool
    ) -> None:
        scope, notice = resolve_scope(self.engine, agent)
        data = load_scope_data(self.engine, scope, deleted, notice)
        if not get_current_worker().is_cancelled:
            self.post_message(ScopeLoaded(load, data, select))

    def on_scope_loaded(self, message: ScopeLoaded) -> None:
        """Drop a load a newer one overtook; the newest goes on up to the screen."""
        if message.generation != self.generation:
            message.stop()
            return
        self.shown = message.data.scope
        if self.agents and self.shown not in self.agents:
            self.agents.append(self.shown)

    @work(thread=True, exit_on_error=False, group="agents")
    def load_agents(self) -> None:
        """The agents of the configuration and of the store (mem0: user and agent pairs)."""
        self.post_message(AgentsLoaded(self.engine.agents()))

    def on_agents_loaded(self, message: AgentsLoaded) -> None:
        """Keep the agents read (with the agent shown, if the store has it not yet)."""
        message.stop()
        self.agents = message.agents
        if self.shown is not None and self.shown not in self.agents:
            self.agents.append(self.shown)

    def find(self, target: JumpTarget, current: AgentScope | None) -> None:
        """Find which agent to show ``target``'s note as (the agent shown now is
        ``current``); says ``JumpFound``."""
        self._find(target.note_id, candidates(target, current, self.agents))

    @work(thread=True, exclusive=True, exit_on_error=False, group="jump")
    def _find(self, note_id: str, scopes: list[AgentScope]) -> None:
        self.post_message(JumpFound(note_id, where_to_show(self.engine, scopes, note_id)))
