"""The screens the main screen opens over itself: the overview, the memory graph, the
audit report, the comparison, the activity log and the agent picker.

Each is imported where it opens: the first frame needs none of them, and some pull in
numpy and the engine's models. A row chosen in the audit or the comparison comes back
to ``OtherScreens.jump`` (the main screen's way to a note).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from amem_tui.tui.widgets.agent_loader import AgentLoader
from amem_tui.tui.widgets.follow_bar import FollowBar

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.widget import Widget

    from amem_tui.engine import AgentScope, MemoryEngine, MemoryNote
    from amem_tui.tui.jump import JumpTarget


class ScreenState(Protocol):
    """What the screens opened read of the main screen."""

    scope: AgentScope | None
    agents: list[AgentScope]
    mem0: bool

    def subject(self) -> MemoryNote | None: ...

    def switch_agent(self, agent: AgentScope | str) -> None: ...

    def jump_to(self, target: JumpTarget | None) -> None: ...

    def reload_scope(self, select: str | None = None) -> None: ...


class OtherScreens:
    """Opens the other screens over ``host``, as ``state`` (the main screen) stands."""

    def __init__(self, host: Widget, state: ScreenState, engine: MemoryEngine) -> None:
        self.host, self.state, self.engine = host, state, engine

    def _say(self, text: str, timeout: float | None = None) -> None:
        self.host.app.notify(text, markup=False, timeout=timeout)  # None: the app's default

    def switch_agent(self) -> None:
        """Choose another agent (mem0: another user and agent) from a list."""
        state = self.state
        if not state.agents:
            self.host.query_one(AgentLoader).load_agents()
            self._say("Agents are still loading; try again.")
            return
        from amem_tui.tui.dialogs.agent_picker import AgentPicker

        def chosen(scope: AgentScope | None) -> None:
            if scope is not None:
                state.switch_agent(scope)

        self.host.app.push_screen(AgentPicker(state.agents, state.scope, mem0=state.mem0), chosen)

    def overview(self) -> None:
        """The overview of the whole store (built in a worker, with progress)."""
        from amem_tui.tui.screens.overview import OverviewScreen

        following = self.host.query_one(FollowBar).following
        self.host.app.push_screen(OverviewScreen(self.engine, following=following), self._jump)

    def graph(self) -> None:
        """The subject's links, two out both ways, as the agent sees them."""
        from amem_tui.tui.screens.graph import GraphScreen

        note = self.state.subject()
        if self.state.scope is None or note is None:
            self._say("Highlight a note first: its links are shown.")
            return
        self.host.app.push_screen(GraphScreen(self.engine, self.state.scope, note.id))

    def audit(self) -> None:
        """The audit report of the whole store (the screen builds it in a worker; Enter
        on a row goes to its note)."""
        from amem_tui.tui.screens.audit import AuditScreen

        self.host.app.push_screen(AuditScreen(self.engine.audit), self._jump)

    def leaks(self) -> None:
        """The leak audit of the whole store (the screen builds it in a worker; Enter on a
        finding goes to its note as the agent the leak reaches)."""
        from amem_tui.tui.screens.leaks import LeaksScreen

        self.host.app.push_screen(LeaksScreen(self.engine.leaks), self._jump)

    def conflicts(self) -> None:
        """The flagged pairs the agent can read, to settle (Enter goes to note A)."""
        from amem_tui.tui.screens.conflicts import ConflictsScreen

        screen = ConflictsScreen(self.engine, self.state.scope)

        def closed(target: JumpTarget | None) -> None:
            if target is None and screen.changed:
                self.state.reload_scope()  # a decision retired or changed notes listed here
            self._jump(target)

        self.host.app.push_screen(screen, closed)

    def compare(self) -> None:
        """Compare the agent's view with another agent's (Enter on a row goes to it)."""
        from amem_tui.tui.screens.compare import CompareScreen

        self.host.app.push_screen(CompareScreen(self.engine, self.state.scope), self._jump)

    def activity_log(self) -> None:
        """Show what follow mode has seen happen."""
        from amem_tui.tui.screens.activity import ActivityScreen

        bar = self.host.query_one(FollowBar)
        self.host.app.push_screen(ActivityScreen(bar.activity, bar.following))

    @property
    def _jump(self) -> Callable[[JumpTarget | None], None]:
        return self.state.jump_to
