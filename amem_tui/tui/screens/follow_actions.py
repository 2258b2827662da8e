"""The main screen's follow-mode actions: turn following on and off, open the activity
log. The work itself is the follow bar's (:mod:`amem_tui.tui.widgets.follow_bar`)."""

from __future__ import annotations

from textual import getters
from textual.screen import Screen

from amem_tui.tui.widgets.follow_bar import FollowBar


class FollowActions(Screen[None]):
    """Mixed into the main screen, which composes a :class:`FollowBar`."""

    follow_bar = getters.query_one(FollowBar)

    @property
    def following(self) -> bool:
        """True while follow mode keeps the panes current."""
        return self.follow_bar.following

    def action_toggle_follow(self) -> None:
        """Follow the current agent live, or stop following."""
        on = self.follow_bar.toggle()
        self.app.notify(
            "Following: the panes keep up with changes made elsewhere."
            if on
            else "Stopped following.",
            markup=False,
            timeout=3,
        )

    def action_activity_log(self) -> None:
        """Show what follow mode has seen happen."""
        from amem_tui.tui.screens.activity import ActivityScreen

        bar = self.follow_bar
        self.app.push_screen(ActivityScreen(bar.activity, bar.following))
