"""The main screen's ways out to the whole-store screens: compare two agents' views,
and the overview. The screens load their own data; this only opens them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.screen import Screen

if TYPE_CHECKING:
    from amem_tui.engine import AgentScope, MemoryEngine


class StoreViews(Screen[None]):
    """Mixed into the main screen: ``action_compare`` and ``action_overview``."""

    engine: MemoryEngine
    scope: AgentScope | None

    def action_compare(self) -> None:
        """Compare the current agent's view with another agent's."""
        from amem_tui.tui.screens.compare import CompareScreen  # only when asked for

        self.app.push_screen(CompareScreen(self.engine, self.scope))

    def action_overview(self) -> None:
        """Open the overview of the whole store (built in a worker, with progress)."""
        from amem_tui.tui.screens.overview import OverviewScreen  # only when asked for
        from amem_tui.tui.widgets.follow_bar import FollowBar

        bars = self.query(FollowBar)
        following = bool(bars) and bars.first().following
        self.app.push_screen(OverviewScreen(self.engine, following=following))
