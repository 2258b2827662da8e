"""The main screen's actions, in footer order: one table, whose rows name the widget
that runs each (the app, the screen, the note browser, a note pane or the search box).
"""

from __future__ import annotations

from amem_tui.tui.actions.action import Action, PaletteEntry
from amem_tui.tui.actions.notes import GET_ONLY, NOTE_ACTIONS, PANE_ACTIONS

#: The main screen's actions, in footer order.
MAIN_ACTIONS: tuple[Action, ...] = (
    Action(
        "search",
        "slash",
        "focus_search",
        "Search",
        key_display="/",
        footer_rank=1,
        palette=PaletteEntry(10, "Search as this agent", "live search in the search box"),
        # Priority: the focus moves before the next key of a burst is delivered, so a
        # query typed right after '/' lands in the box, not on the note list's keys.
        priority=True,
        target="browser",
    ),
    Action("switch_agent", "s", "switch_agent", "Agent", footer_rank=2),
    # Enter on a row opens it in the detail view, as a file manager's Enter does; Escape
    # comes back. The table's own key: it says the row was selected after the keys
    # typed before it have moved the cursor, and the browser opens what it says.
    Action(
        "open",
        "enter",
        "select_cursor",
        "Open",
        show=False,
        shown_in=("private", "shared", "history"),
        footer_rank=8,
        target="table",
    ),
    *NOTE_ACTIONS,
    *PANE_ACTIONS,
    # + changes the split, as lazygit's + changes its screen mode.
    Action(
        "layout",
        "plus",
        "cycle_layout",
        "Layout",
        key_display="+",
        show=False,
        palette=PaletteEntry(
            27, "Change the layout", "panes and detail even, panes taller, detail taller"
        ),
    ),
    Action(
        "consolidate",
        "c",
        "consolidate",
        "Consolidate",
        writes=True,
        footer_rank=4,
        palette=PaletteEntry(
            6,
            "Consolidate this agent",
            "preview merges, then apply",
            "merge duplicates dedupe compact nightly",
        ),
        target="browser",
    ),
    Action(
        "undo",
        "z",
        "undo",
        "Undo run",
        writes=True,
        show=False,
        shown_in=("history",),
        footer_rank=2,
        palette=PaletteEntry(7, "Undo the selected consolidation run", "from the history pane"),
        target="browser",
    ),
    Action(
        "undo_merge",
        "m",
        "undo_merge",
        "Undo merge",
        writes=True,
        show=False,
        shown_in=("history",),
        footer_rank=2,
        target="browser",
    ),
    Action(
        "toggle_deleted",
        "x",
        "toggle_deleted",
        "Deleted",
        footer_rank=10,
        palette=PaletteEntry(8, "Show or hide soft-deleted notes", "include is_active=false"),
    ),
    # h would be typed into the search box, so ctrl+t (a priority binding: it works
    # while the box has focus; Input does not use it) toggles from anywhere.
    Action(
        "toggle_hidden",
        "h",
        "toggle_hidden",
        "Hidden",
        show=False,
        palette=PaletteEntry(
            9,
            "Show or hide hidden matches",
            "close matches this agent cannot see",
            "invisible filtered excluded why not",
        ),
        target="browser",
    ),
    GET_ONLY,
    Action(
        "toggle_hidden_anywhere",
        "ctrl+t",
        "toggle_hidden",
        "Hidden, even from the search box",
        show=False,
        priority=True,
        target="browser",
    ),
    Action(
        "reload",
        "f5,ctrl+r",
        "reload",
        "Refresh",
        show=False,
        key_display="F5",
        palette=PaletteEntry(
            17, "Refresh from the store", "read every pane again (and look at once, if following)"
        ),
    ),
    Action(
        "follow",
        "f",
        "toggle_follow",
        "Follow",
        show=False,
        palette=PaletteEntry(
            12, "Follow this agent live", "keep the panes current while agents write"
        ),
    ),
    Action(
        "activity",
        "l",
        "activity_log",
        "Activity",
        show=False,
        palette=PaletteEntry(
            13, "Activity log", "what follow mode saw change", "changes events history feed"
        ),
        target="app",
    ),
    Action(
        "audit",
        "A",
        "audit",
        "Audit",
        key_display="A",
        show=False,
        palette=PaletteEntry(
            11,
            "Audit the store",
            "shared notes, readers, malformed points, links",
            "check report problems isolation permissions",
        ),
        target="app",
    ),
    Action(
        "leaks",
        "L",
        "leaks",
        "Leaks",
        key_display="L",
        show=False,
        palette=PaletteEntry(
            32, "Find leaks between agents", "what of one's private memory another reaches"
        ),
        target="app",
    ),
    Action(
        "conflicts",
        "C",
        "conflicts",
        "Conflicts",
        key_display="C",
        show=False,
        palette=PaletteEntry(
            33,
            "Settle contradicting notes",
            "the pairs amem flagged, side by side with a word diff; keep A, B or both",
            "conflicts contradictions flagged review resolve",
        ),
        target="app",
    ),
    Action(
        "clear_search",
        "escape",
        "clear_search",
        "Clear",
        show=False,
        target="browser",
        first=("pane",),
    ),
    # Up and Down walk the agent's query history, as a shell's and posting's do (a
    # priority: the input's own Up and Down would scroll it).
    Action(
        "search.previous",
        "up",
        "history_back",
        "Previous query",
        show=False,
        shown_in=("search",),
        priority=True,
        target="search",
    ),
    Action(
        "search.next",
        "down",
        "history_forward",
        "Next query",
        show=False,
        priority=True,
        target="search",
    ),
    # Ctrl keys: letters are typed into the box, and Input leaves these two free.
    Action(
        "search.history",
        "ctrl+o",
        "recent_queries",
        "Recent queries",
        key_display="^o",
        show=False,
        shown_in=("search",),
        palette=PaletteEntry(
            35,
            "Recent queries of this agent",
            "pick one to search again (Up in the empty box recalls them too)",
            "history previous past earlier recall",
        ),
        target="search",
    ),
    Action(
        "search.save_check",
        "ctrl+s",
        "save_check",
        "Save as check",
        key_display="^s",
        show=False,
        shown_in=("search",),
        palette=PaletteEntry(
            36,
            "Save the search as a memory check",
            "the query, agent and top hits as a [[check]] that amem-tui check runs in CI",
            "test ci regression assert expect toml",
        ),
        target="search",
    ),
    Action(
        "compare",
        "v",
        "compare",
        "Compare",
        show=False,
        palette=PaletteEntry(
            14,
            "Compare two agents' views",
            "what only one sees, what both see, and why",
            "diff difference versus",
        ),
        target="app",
    ),
    Action(
        "overview",
        "o",
        "overview",
        "Overview",
        show=False,
        palette=PaletteEntry(
            15,
            "Overview of the store",
            "notes over time, who shares what, consolidation savings",
            "dashboard statistics stats charts summary",
        ),
        target="app",
    ),
    Action(
        "graph",
        "n",
        "graph",
        "Links",
        show=False,
        palette=PaletteEntry(
            19,
            "Show the note's link graph",
            "two links out, both ways, as this agent sees them; unreadable notes counted",
            "graph links neighbours network related connections",
        ),
        target="app",
    ),
)
