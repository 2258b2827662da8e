"""The one place where a failed worker becomes a notification.

Workers call the engine and simply raise when it refuses; every widget or screen
that runs workers mixes in ``ReportsWorkerFailures``, which turns a worker that
ended in error into an ``ActionRefused``. That message
bubbles up to the main screen, which shows it (and the store banner when the store
did not answer).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message_pump import MessagePump
from textual.worker import Worker, WorkerState

from amem_tui.engine import (
    AmemError,
    InvalidInput,
    ModelUnavailable,
    NotFound,
    PermissionDenied,
    ReadOnlyStore,
    StoreUnavailable,
)
from amem_tui.engine.for_apps import redact_text

if TYPE_CHECKING:
    from amem_tui.tui.messages import ActionRefused


def refusal_title(exc: BaseException) -> str:
    """A short title naming the kind of refusal."""
    if isinstance(exc, PermissionDenied):
        return "Permission denied (write rule)"
    if isinstance(exc, ReadOnlyStore):
        return "Read-only store"
    if isinstance(exc, NotFound):
        return "Not found or not visible (read rule)"
    if isinstance(exc, InvalidInput):
        return "Rejected"
    if isinstance(exc, StoreUnavailable):
        return "Store unavailable"
    if isinstance(exc, ModelUnavailable):
        return "Embedding model unavailable"
    return "Error"


def refusal(exc: BaseException) -> ActionRefused:
    """The message that reports ``exc``: the engine's own words, or the exception's type."""
    # Imported here: the first frame's panes mix this module in, and the messages (40
    # dataclasses) are needed only once a worker fails.
    from amem_tui.tui.messages import ActionRefused

    message = str(exc) if isinstance(exc, AmemError) else f"{type(exc).__name__}: {exc}"
    message = redact_text(message)  # a client library's error may quote the server URL
    return ActionRefused(
        refusal_title(exc), message, store_unavailable=isinstance(exc, StoreUnavailable)
    )


class ReportsWorkerFailures(MessagePump):
    """Mixin for a widget or screen: its workers' errors are reported, never swallowed.

    Textual tells only the node that ran a worker about its state, so each node with
    workers mixes this in; the report then bubbles to the screen like any message.
    """

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Report a worker that raised."""
        error = event.worker.error
        if event.state == WorkerState.ERROR and error is not None:
            self.post_message(refusal(error))
