"""The actions of the other screens, and the app's own (they work on every screen)."""

from __future__ import annotations

from amem_tui.tui.actions.action import Action

#: The memory graph's actions (Enter on a note makes it the centre).
GRAPH_ACTIONS: tuple[Action, ...] = (
    Action("graph.close", "escape,q", "close", "Back"),
    Action("graph.centre", "enter", "centre", "Centre here"),
    Action("graph.back", "backspace", "back", "Previous centre"),
)

#: The compare screen's actions.
COMPARE_ACTIONS: tuple[Action, ...] = (
    Action("compare.close", "escape", "close", "Back"),
    Action("compare.search", "slash", "focus_query", "Search as both", key_display="/"),
    Action("compare.swap", "w", "swap", "Swap A and B"),
    Action("compare.open", "enter", "open_note", "Go to note"),
)

#: The audit screen's actions.
AUDIT_ACTIONS: tuple[Action, ...] = (
    Action("audit.close", "escape,q", "close", "Close"),
    Action("audit.open", "enter", "open_note", "Go to note"),
    # The tab strip has no use for Down: it goes into the rows of the tab shown.
    Action("audit.rows", "down", "focus_rows", "Rows", show=False),
)

#: The Leaks screen's actions.
LEAKS_ACTIONS: tuple[Action, ...] = (
    Action("leaks.close", "escape,q", "close", "Close"),
    Action("leaks.open", "enter", "open_note", "Go to note"),
)

#: The Conflicts screen's actions.
CONFLICTS_ACTIONS: tuple[Action, ...] = (
    Action("conflicts.close", "escape,q", "close", "Close"),
    Action("conflicts.keep_a", "a", "keep_a", "Keep A", writes=True),
    Action("conflicts.keep_b", "b", "keep_b", "Keep B", writes=True),
    Action("conflicts.keep_both", "k", "keep_both", "Keep both", writes=True),
    Action("conflicts.clear", "x", "clear_flag", "Clear flag", writes=True),
    Action("conflicts.undo", "u", "undo", "Undo", writes=True),
    Action("conflicts.store_wide", "w", "store_wide", "All agents"),
    Action("conflicts.open", "enter", "open_note", "Go to note"),
)

#: The overview screen's actions.
OVERVIEW_ACTIONS: tuple[Action, ...] = (
    Action("overview.close", "escape,q", "close", "Back"),
    Action("overview.reload", "f5,ctrl+r", "reload", "Refresh", key_display="F5"),
)

#: The app's own actions (they work on every screen).
APP_ACTIONS: tuple[Action, ...] = (
    Action("help", "f1,question_mark", "help", "Help", footer_rank=0, key_display="f1"),
    Action("quit", "q", "quit", "Quit", footer_rank=3),
    # q is typed into the search box; Ctrl+Q quits from anywhere (Textual's own key).
    Action(
        "quit_anywhere",
        "ctrl+q",
        "quit",
        "Quit, even from the search box",
        show=False,
        priority=True,
    ),
)
