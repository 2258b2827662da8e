"""How the main screen's work ended, said to the user: a refusal (a failed worker too)
is notified, a write done is notified and its agent read again, a bulk write says what
it did and what it left alone. A store that stops answering raises the store banner;
any answer from it lowers the banner again.

The widgets' outcome messages come up to the screen, which hands each one here. The
reporter reads two things of the screen, declared as ``OutcomeHost``, so it never
imports the screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from textual.worker import WorkerState

from amem_tui.tui.text import one_line
from amem_tui.tui.widgets.follow_bar import FollowBar
from amem_tui.tui.widgets.panes import Panes
from amem_tui.tui.widgets.store_banner import StoreBanner
from amem_tui.tui.workers import refusal

if TYPE_CHECKING:
    from textual.widget import Widget
    from textual.worker import Worker

    from amem_tui.engine import AgentScope
    from amem_tui.engine.for_apps import Activity
    from amem_tui.tui.messages import ActionDone, ActionRefused, BulkDone, FollowFailed


class OutcomeHost(Protocol):
    """What the reporter reads of the screen, and how it reads the agent again."""

    scope: AgentScope | None

    def reload_scope(self, select: str | None = None) -> None: ...


class Outcomes:
    """Reports the outcomes on the screen ``host`` (a widget that is an ``OutcomeHost``)."""

    def __init__(self, host: Widget, state: OutcomeHost) -> None:
        self.host, self.state = host, state

    @property
    def banner(self) -> StoreBanner:
        return self.host.query_one(StoreBanner)

    def store_answered(self) -> None:
        """The store answered: its banner goes."""
        self.banner.problem = None

    def worker_failed(self, event: Worker.StateChanged) -> None:
        """A worker of the screen that raised is reported, never swallowed."""
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            self.host.post_message(refusal(event.worker.error))

    def refused(self, message: ActionRefused) -> None:
        """A refusal is notified (markup off: messages may quote user text)."""
        if message.store_unavailable:
            self.banner.problem = message.message
        text = one_line(message.message, 400)
        self.host.app.notify(text, title=message.title, severity="error", timeout=8, markup=False)

    def follow_failed(self, message: FollowFailed) -> None:
        """A poll the store did not answer raises the banner (the bar says the rest)."""
        if message.store_unavailable:
            self.banner.problem = message.message

    def done(self, message: ActionDone) -> None:
        """Say what changed and read every pane of the current agent again."""
        self.store_answered()
        self.host.app.notify(one_line(message.message, 300), title="Done", markup=False)
        if message.activity is not None:
            self._record([message.activity])
        if message.run is not None:
            self.host.query_one(Panes).history.select_next = message.run
        self.state.reload_scope(select=message.select)

    def bulk_done(self, message: BulkDone) -> None:
        """Say what a bulk write did and left alone, unmark what it wrote, and reload."""
        self.store_answered()
        self.host.query_one(Panes).pane(message.pane).drop_marks(message.done)
        said = one_line(message.message, 600)
        if message.left:
            self.host.app.notify(
                said, title="Done, in part", severity="warning", timeout=12, markup=False
            )
        else:
            self.host.app.notify(said, title="Done", markup=False)
        self._record(message.activities)
        self.state.reload_scope()

    def _record(self, activities: list[Activity]) -> None:
        scope = self.state.scope
        if activities and scope is not None:
            self.host.query_one(FollowBar).record(scope.agent, activities)
