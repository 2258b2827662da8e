"""The main screen's loader: every pane of an agent read together in a worker
(``load_scope_data``), so that a switch changes them
all at once, and the agents there are to choose from. It draws nothing.

Loads are numbered. One overtaken by a newer load is dropped here, so the screen hears
once of the newest load only: ``ScopeLoaded`` goes on up to
it. A load that raised is reported like any worker's failure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.widget import Widget
from textual.worker import get_current_worker

from amem_tui.tui.messages import AgentsLoaded, ScopeLoaded
from amem_tui.tui.scope_loader import load_scope_data, resolve_scope
from amem_tui.tui.workers import ReportsWorkerFailures

if TYPE_CHECKING:
    from amem_tui.engine import AgentScope, MemoryEngine


class AgentLoader(ReportsWorkerFailures, Widget):
    """Reads an agent's panes, and the agents, in workers; says what it read."""

    DEFAULT_CSS = "AgentLoader { display: none; }"

    def __init__(self, engine: MemoryEngine, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.engine = engine
        #: Loads started: only the newest is said.
        self.generation = 0

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

    @work(thread=True, exit_on_error=False, group="agents")
    def load_agents(self) -> None:
        """The agents of the configuration and of the store (mem0: user and agent pairs)."""
        self.post_message(AgentsLoaded(self.engine.agents()))
