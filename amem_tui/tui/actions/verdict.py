"""Whether an action of the main screen may run now, and if not, why: one answer for
the bindings, the keys of dimmed actions, the command palette and the footer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from amem_tui.tui.actions.table import WRITE_ACTIONS

if TYPE_CHECKING:
    from textual.widget import Widget

    from amem_tui.engine import AgentScope


READ_ONLY_REASON = "The store is opened read-only (--read-only): writes are off."


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


def said_off(node: Widget, action: str) -> bool:
    """True when ``action`` is off as ``node``'s screen judges it; the reason is then said,
    as a key of a dimmed action says it."""
    screen = node.screen
    reason = screen.verdict(action).reason if isinstance(screen, Judge) else None
    if reason:
        node.app.notify(reason, title="Not available", severity="warning", markup=False)
    return reason is not None


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
