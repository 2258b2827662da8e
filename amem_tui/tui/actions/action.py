"""What an action of the inspector is: its key, label, palette entry, whether it
writes, and the widget that holds it (its target).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from textual.binding import Binding, BindingType

#: Where the focus is on the main screen, as far as the footer cares.
FocusArea = Literal["search", "private", "shared", "history", "detail"]

#: What runs an action (its ``action_<name>`` method), and so holds its binding:
#: ``app``, the app, which owns the screens (the store-wide screens it opens over the
#: main screen; their keys are the main screen's, which names the app as the target);
#: ``screen``, the main screen (agents, the layout, reloads, follow mode);
#: ``browser``, the note browser (what acts on the subject, the note the detail shows,
#: and on what it shows of the search and the history, from anywhere in it);
#: ``pane``, a note pane (what acts on its own rows: marks, filter, sort);
#: ``search``, the search box (its query history: only while the focus is in it);
#: ``table``, a pane's table of notes or runs (what its own keys do to the row).
Target = Literal["app", "screen", "browser", "pane", "search", "table"]


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
    shown_in: tuple[FocusArea, ...] = ()
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

    @property
    def held_by(self) -> Target:
        """The widget whose ``BINDINGS`` hold the key: the target, but the main screen
        for the app's actions (their keys work there only)."""
        return "screen" if self.target == "app" else self.target

    def binding(self) -> Binding:
        """The Textual binding for this action (run on the app for the target ``app``)."""
        return Binding(
            self.key,
            f"app.{self.action}" if self.target == "app" else self.action,
            self.description,
            show=self.show,
            key_display=self.key_display,
            priority=self.priority,
            id=self.id,
        )


def bindings(actions: Iterable[Action]) -> list[BindingType]:
    """The Textual bindings of these actions, in order."""
    return [action.binding() for action in actions]
