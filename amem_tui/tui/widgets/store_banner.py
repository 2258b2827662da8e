"""The store banner: a red line (wrapped, up to three) while the store does not answer."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from amem_tui.tui.text import one_line


class StoreBanner(Static):
    """Says the store is unavailable; hidden (taking no row) while it answers."""

    #: Why the store did not answer (None: it answers, and the banner is hidden).
    problem: reactive[str | None] = reactive(None, init=False)

    def watch_problem(self, problem: str | None) -> None:
        """Show the banner for ``problem``, or hide it (the store answered again)."""
        if problem is None:
            self.display = False
            return
        # Wrapped, not cut: what to do comes last, and must be read.
        self.update(
            Text(
                f"Store unavailable: {one_line(problem, 200)}. Nothing was half-written; "
                "refresh (F5) once it is back."
            )
        )
        self.display = True
