"""The main screen's way to a note another screen chose (an audit row, a compare row):
where to show it is asked in a worker (``where_to_show``), then
the listings come back if a query hid them, and the agent that lists the note is
loaded with it selected.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from amem_tui.tui.messages import JumpFound
from amem_tui.tui.widgets.browser import NoteBrowser
from amem_tui.tui.widgets.search_box import SearchBox

if TYPE_CHECKING:
    from textual.widget import Widget

    from amem_tui.engine import AgentScope, MemoryEngine
    from amem_tui.tui.jump import JumpTarget


class JumpHost(Protocol):
    """What a jump reads of the screen, and how it loads an agent."""

    scope: AgentScope | None
    agents: list[AgentScope]

    def load_scope(self, agent: AgentScope | str | None, select: str | None = None) -> None: ...


class Jumps:
    """Jumps to notes on the screen ``host`` (a widget that is a ``JumpHost``)."""

    def __init__(self, host: Widget, state: JumpHost, engine: MemoryEngine) -> None:
        self.host, self.state, self.engine = host, state, engine
        #: The note a jump goes to, until its agent's panes show.
        self.wanted: str | None = None
        #: Where to go once the query typed is cleared (the listings back first).
        self._after_clear: JumpFound | None = None

    def to(self, target: JumpTarget | None) -> None:
        """Show a note another screen chose: highlighted in the pane that lists it, as
        the current agent if its panes list it, else as an agent whose panes do (the
        agent switches), else in the detail view."""
        if target is None:
            return
        from amem_tui.tui.jump import candidates, where_to_show

        scopes = candidates(target, self.state.scope, self.state.agents)
        note_id = target.note_id
        self.host.app.notify(f"Looking for note {note_id}…", markup=False, timeout=2)

        def find() -> None:
            self.host.post_message(JumpFound(note_id, where_to_show(self.engine, scopes, note_id)))

        self.host.run_worker(find, thread=True, exclusive=True, exit_on_error=False, group="jump")

    def found(self, message: JumpFound) -> None:
        """Go where the worker found the note: the listings first (a query cleared),
        then its agent loaded with it selected."""
        place, note_id = message.place, message.note_id
        if place is None:
            self.host.app.notify(
                f"No agent here may read note {note_id}: nothing to show.",
                severity="warning",
                markup=False,
            )
            return
        search_box = self.host.query_one(SearchBox)
        if search_box.query_text:  # the listings first: go on once they are back
            self._after_clear = message
            search_box.clear_query()
            return
        self.wanted = note_id
        if place.scope != self.state.scope:
            self.host.query_one(NoteBrowser).forget()
            self.host.app.clear_notifications()  # what was said was about the other agent
        if not place.listed:
            self.host.app.notify(
                f"{place.scope.agent} reads note {note_id} only by id: no pane lists it, "
                "the detail shows it.",
                markup=False,
            )
        self.state.load_scope(place.scope, select=note_id)

    def listings_back(self) -> None:
        """The query is cleared: a jump waiting for the listings goes on."""
        waiting, self._after_clear = self._after_clear, None
        if waiting is not None:
            self.found(waiting)

    def arrived(self, selected: str | None) -> None:
        """An agent's panes show with ``selected``: the jump to it ends there."""
        if self.wanted is not None and self.wanted == selected:
            self.wanted = None
            self.host.query_one(NoteBrowser).go_to(selected)
