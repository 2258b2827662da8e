"""Every action of the inspector, once: key, label, palette entry, whether it writes,
and the widget that holds it.

The key bindings, the read-only check, the command palette and the help screen are
all derived from ``MAIN_ACTIONS`` and ``APP_ACTIONS``; adding an action is
adding a row here and an ``action_<name>`` method on its target, the widget whose
``BINDINGS`` take the target's rows (``bindings_of``). Textual looks a key up from
the focused widget up to the screen, so a target's keys work wherever the focus is
inside it; each target asks ``binding_state`` whether its action may run now.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

from rich.cells import cell_len
from textual.binding import Binding, BindingType

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.binding import ActiveBinding
    from textual.widget import Widget

    from amem_tui.engine import AgentScope


#: Where the focus is on the main screen, as far as the footer cares.
FocusArea = Literal["search", "private", "shared", "history", "detail"]

#: The widget that holds an action (its binding and its ``action_<name>`` method):
#: ``screen``, the main screen (agents, other screens, the layout, reloads);
#: ``browser``, the note browser (what acts on the subject, the note the detail shows,
#: and on what it shows of the search and the history, from anywhere in it);
#: ``pane``, a note pane (what acts on its own rows: marks, filter, sort).
Target = Literal["screen", "browser", "pane"]


@dataclass(frozen=True)
class PaletteEntry:
    """How an action is offered in the command palette (Ctrl+P).

    ``rank`` orders the palette's list before anything is typed, which need not be
    the footer's order.
    """

    rank: int
    title: str
    help: str
    #: Other words people use for it (the palette finds the entry by them too).
    words: str = ""


@dataclass(frozen=True)
class Action:
    """One key binding and what it means to the user."""

    #: The binding id: what keymap.toml rebinds and the help screen lists.
    id: str
    #: The key (Textual key name) it is bound to by default.
    key: str
    #: The method it runs: ``action_<action>`` on the node the binding belongs to.
    action: str
    #: The footer's and the help screen's label.
    description: str
    #: True when the action changes data, so a read-only store turns it off.
    writes: bool = False
    #: Shown in the footer.
    show: bool = True
    #: Where the focus must be for the footer to offer it although ``show`` is off
    #: (``history``: the consolidation history or the run it shows).
    shown_in: FocusArea | None = None
    #: When the footer is too narrow for every key, the highest ranks go first.
    footer_rank: int = 50
    key_display: str | None = None
    #: Runs even while a widget that would take the key (the search box) has focus.
    priority: bool = False
    palette: PaletteEntry | None = None
    #: The widget that holds the binding and runs ``action_<action>`` (see Target).
    target: Target = "screen"
    #: Widgets inside the target that hold the same key first, for their own part of the
    #: action (Escape clears a pane's filter before the query): each runs its own
    #: ``action_<action>``, or passes the key on with ``SkipAction``.
    first: tuple[Target, ...] = ()

    def binding(self) -> Binding:
        """The Textual binding for this action."""
        return Binding(
            self.key,
            self.action,
            self.description,
            show=self.show,
            key_display=self.key_display,
            priority=self.priority,
            id=self.id,
        )


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
    ),
    Action("switch_agent", "s", "switch_agent", "Agent", footer_rank=2),
    Action(
        "add",
        "a",
        "add",
        "Add",
        writes=True,
        footer_rank=5,
        palette=PaletteEntry(2, "Add a note", "write a private or shared note; choose its readers"),
    ),
    Action(
        "edit",
        "e",
        "edit",
        "Edit",
        writes=True,
        footer_rank=7,
        palette=PaletteEntry(
            3, "Edit the selected note", "change its content, tags or (owner) readers"
        ),
    ),
    Action(
        "publish",
        "p",
        "publish",
        "Publish",
        writes=True,
        footer_rank=8,
        palette=PaletteEntry(0, "Publish the selected note", "share it with every Mode A agent"),
    ),
    Action(
        "unpublish",
        "u",
        "unpublish",
        "Unpublish",
        writes=True,
        footer_rank=9,
        palette=PaletteEntry(1, "Unpublish the selected note", "make it private to its owner"),
    ),
    Action(
        "delete",
        "d",
        "delete",
        "Delete",
        writes=True,
        footer_rank=6,
        palette=PaletteEntry(
            4, "Soft-delete the selected note", "is_active=false; can be restored"
        ),
    ),
    Action(
        "restore",
        "r",
        "restore",
        "Restore",
        writes=True,
        footer_rank=9,
        palette=PaletteEntry(5, "Restore the selected note", "undo a soft delete"),
    ),
    Action(
        "edit_in_editor",
        "E",
        "edit_in_editor",
        "Edit in $EDITOR",
        writes=True,
        key_display="E",
        show=False,
        palette=PaletteEntry(
            23, "Edit the selected note in $EDITOR", "the app waits; saved back as an update"
        ),
    ),
    Action(
        "copy",
        "y",
        "copy",
        "Copy",
        show=False,
        palette=PaletteEntry(16, "Copy the selected note", "its content, to the clipboard"),
    ),
    Action(
        "copy_id",
        "Y",
        "copy_id",
        "Copy id",
        key_display="Y",
        show=False,
        palette=PaletteEntry(24, "Copy the selected note's id", "to the clipboard"),
    ),
    Action(
        "versions",
        "V",
        "toggle_versions",
        "Versions",
        key_display="V",
        show=False,
        shown_in="detail",
        footer_rank=4,
        palette=PaletteEntry(
            30,
            "Show the note's versions",
            "every change, who made it, a word-level diff",
            "history changes diff revisions",
        ),
    ),
    Action(
        "revert",
        "R",
        "revert",
        "Revert",
        key_display="R",
        writes=True,
        show=False,
        shown_in="detail",
        footer_rank=4,
        palette=PaletteEntry(
            31,
            "Revert the note to the chosen version",
            "in the Versions tab; kept as a new version",
        ),
    ),
    Action(
        "mark",
        "space",
        "toggle_mark",
        "Mark",
        key_display="space",
        show=False,
        palette=PaletteEntry(
            25, "Mark or unmark the selected note", "p, u, d and r then act on every marked note"
        ),
        target="pane",
    ),
    Action(
        "mark_shown",
        "asterisk",
        "mark_shown",
        "Mark all shown",
        key_display="*",
        show=False,
        palette=PaletteEntry(26, "Mark every row the pane shows", "or unmark them all"),
        target="pane",
    ),
    # Capitals beside the letter people know: / searches (f follows), so F filters the
    # pane's rows; S sorts and I inverts the order, as htop does.
    Action(
        "filter",
        "F",
        "filter",
        "Filter",
        key_display="F",
        show=False,
        palette=PaletteEntry(
            20, "Filter the pane's rows", "plain text in content, tags or owner; Esc clears it"
        ),
        target="pane",
    ),
    Action(
        "sort",
        "S",
        "sort",
        "Sort",
        key_display="S",
        show=False,
        palette=PaletteEntry(
            21, "Sort the pane by the next column", "created, updated, owner, recalls, recalled"
        ),
        target="pane",
    ),
    Action(
        "invert_sort",
        "I",
        "invert_sort",
        "Reverse order",
        key_display="I",
        show=False,
        palette=PaletteEntry(22, "Reverse the pane's sort order", "ascending or descending"),
        target="pane",
    ),
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
    ),
    Action(
        "undo",
        "z",
        "undo",
        "Undo run",
        writes=True,
        show=False,
        shown_in="history",
        footer_rank=2,
        palette=PaletteEntry(7, "Undo the selected consolidation run", "from the history pane"),
    ),
    Action(
        "undo_merge",
        "m",
        "undo_merge",
        "Undo merge",
        writes=True,
        show=False,
        shown_in="history",
        footer_rank=2,
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
    ),
    Action(
        "toggle_get_only",
        "g",
        "toggle_get_only",
        "Get only",
        show=False,
        shown_in="shared",
        palette=PaletteEntry(
            18,
            "List what this agent reads only by id",
            "the Shared pane lists its get-only notes (readers name it), never in its searches",
        ),
        target="pane",
    ),
    Action(
        "toggle_hidden_anywhere",
        "ctrl+t",
        "toggle_hidden",
        "Hidden, even from the search box",
        show=False,
        priority=True,
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
    ),
    Action("clear_search", "escape", "clear_search", "Clear", show=False, first=("pane",)),
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
    ),
)

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

#: Every action by binding id.
ACTIONS_BY_ID: dict[str, Action] = {a.id: a for a in (*MAIN_ACTIONS, *APP_ACTIONS)}
#: The actions (method names) that change data.
WRITE_ACTIONS: frozenset[str] = frozenset(a.action for a in MAIN_ACTIONS if a.writes)

READ_ONLY_REASON = "The store is opened read-only (--read-only): writes are off."


def bindings(actions: Iterable[Action]) -> list[BindingType]:
    """The Textual bindings of these actions, in order."""
    return [action.binding() for action in actions]


def bindings_of(target: Target) -> list[BindingType]:
    """The bindings ``target`` holds: of the main actions it runs, in table order."""
    return bindings(a for a in MAIN_ACTIONS if a.target == target or target in a.first)


def palette_actions() -> list[tuple[Action, PaletteEntry]]:
    """The actions the command palette offers, in the palette's order."""
    offered = [(a, a.palette) for a in MAIN_ACTIONS if a.palette is not None]
    return sorted(offered, key=lambda pair: pair[1].rank)


@dataclass(frozen=True)
class Situation:
    """What decides which of the main screen's actions may run now."""

    read_only: bool
    #: The agent the screen acts as (None until it is loaded).
    scope: AgentScope | None = None
    #: Why the agent's collection cannot be written (a mem0 collection), if it cannot.
    collection_refusal: str | None = None
    #: A text box has the focus: the keys it takes are typed, not bound.
    typing: bool = False


@dataclass(frozen=True)
class Verdict:
    """Whether an action may run now.

    It runs; or it is off for a ``reason`` (its key is dimmed in the footer, and the
    reason is said when it is tried, by key or from the palette); or its key is
    ``typed`` into the focused text box instead (``/`` in the search box).
    """

    reason: str | None = None
    typed: bool = False

    @property
    def runs(self) -> bool:
        """True when the action may run."""
        return self.reason is None and not self.typed

    @property
    def binding_state(self) -> bool | None:
        """Textual's ``check_action`` answer: True (runs), None (dimmed), False (unbound)."""
        if self.typed:
            return False
        return True if self.reason is None else None


RUNS = Verdict()


@runtime_checkable
class Judge(Protocol):
    """A screen that judges whether the actions of the table may run (the main screen)."""

    def verdict(self, action: str) -> Verdict:
        """May ``action`` run now, and if not, why."""
        ...


def binding_state(node: Widget, action: str) -> bool | None:
    """Textual's ``check_action`` answer for an action of the table that ``node`` holds:
    as the node's screen judges it (True on a screen that does not judge)."""
    screen = node.screen
    return screen.verdict(action).binding_state if isinstance(screen, Judge) else True


def verdict(action: str, now: Situation) -> Verdict:
    """May ``action`` (an ``action_<name>`` of the main screen) run now, and if not, why.

    The one answer for the bindings (``check_action``), keys of dimmed actions, the
    command palette and the footer.
    """
    if action == "focus_search" and now.typing:
        return Verdict(typed=True)
    if action not in WRITE_ACTIONS:
        return RUNS
    if now.read_only:
        return Verdict(READ_ONLY_REASON)
    if now.collection_refusal:
        return Verdict(now.collection_refusal)
    scope = now.scope
    if action == "publish" and scope is not None and not scope.has_shared_scope:
        return Verdict(
            f"{scope.agent} is a Mode B agent: it has no shared scope, so it cannot publish."
        )
    return RUNS


def key_for(
    active: Mapping[str, ActiveBinding], key_display: Callable[[Binding], str], *binding_ids: str
) -> str:
    """The key that runs the first of these bindings now (keymap.toml may rebind it)."""
    for binding_id in binding_ids:
        for binding in active.values():
            if binding.binding.id == binding_id:
                return key_display(binding.binding)
    return "?"


def help_rows(
    keymap: Mapping[str, str], key_display: Callable[[Binding], str]
) -> list[tuple[str, str, str]]:
    """(key, description, binding id) of every action in the table, with the keys
    ``keymap.toml`` gave them: all of them, wherever the focus is (in the search box the
    letter keys type, but they are still the keys)."""
    rows: list[tuple[str, str, str]] = []
    for action in (*MAIN_ACTIONS, *APP_ACTIONS):
        binding = action.binding()
        rebound = keymap.get(action.id)
        if rebound:
            binding = replace(binding, key=rebound)
        rows.append((key_display(binding), action.description, action.id))
    return rows


def footer_entries(
    active: Mapping[str, ActiveBinding],
    key_display: Callable[[Binding], str],
    area: FocusArea | None,
    width: int,
) -> list[tuple[Binding, bool, str]]:
    """The keys the footer offers with the focus in ``area``: (binding, enabled, tooltip).

    In table order; when they do not all fit in ``width`` cells, the ones with the
    highest ``footer_rank`` are left out (help, search and the agent switch stay).
    """
    by_id: dict[str, ActiveBinding] = {}
    for bound in active.values():
        if bound.binding.id:  # an action of several keys is offered by its first (F1)
            by_id.setdefault(bound.binding.id, bound)
    offered: list[tuple[Action, ActiveBinding]] = []
    for action in (*MAIN_ACTIONS, *APP_ACTIONS):
        if not action.show and (area is None or action.shown_in != area):
            continue
        found = by_id.get(action.id)
        if found is not None:
            offered.append((action, found))

    def cost(entry: tuple[Action, ActiveBinding]) -> int:
        binding = entry[1].binding
        # "key description" and the one-cell gap after it (the compact footer's style).
        return cell_len(key_display(binding)) + cell_len(binding.description) + 2

    while offered and sum(cost(entry) for entry in offered) > width:
        # The highest rank goes; among equal ranks, the one furthest right.
        drop = max(range(len(offered)), key=lambda i: (offered[i][0].footer_rank, i))
        del offered[drop]
    return [(b.binding, b.enabled, b.tooltip) for _, b in offered]
