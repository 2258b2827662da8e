"""What a change would do, under the question that asks for it: worked out in a worker
so the dialog opens at once, and shown once known."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from rich.text import Text
from textual import work
from textual.widgets import Static

from amem_tui.tui.what_if_text import COMPUTING


class WhatIfNote(Static):
    """The checks that would flip and the recent queries that would move, once known."""

    def __init__(self, work_out: Callable[[], Text], *, id: str | None = None) -> None:
        super().__init__(Text(COMPUTING, style="dim"), id=id)
        self.work_out = work_out

    def on_mount(self) -> None:
        """Start working it out as soon as the dialog is drawn."""
        self.compute()

    @work(thread=True, exit_on_error=False, group="preview")
    def compute(self) -> None:
        """Run ``work_out`` off the event loop; a failure is said, never raised."""
        try:
            said = self.work_out()
        except Exception as exc:  # the question stands; the note says why it is missing
            said = Text(f"What it would do could not be worked out: {exc}", style="dim")
        with contextlib.suppress(Exception):  # the dialog was answered meanwhile
            self.app.call_from_thread(self.update, said)
