"""The one table of actions, read every way it is used: the bindings a target holds,
the command palette, the help screen, the footer, and which actions write.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rich.cells import cell_len

from amem_tui.tui.actions.action import Action, FocusArea, PaletteEntry, Target, bindings
from amem_tui.tui.actions.main import MAIN_ACTIONS
from amem_tui.tui.actions.screens import APP_ACTIONS

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from textual.binding import ActiveBinding, Binding, BindingType

#: Every action by binding id.
ACTIONS_BY_ID: dict[str, Action] = {a.id: a for a in (*MAIN_ACTIONS, *APP_ACTIONS)}
#: The actions (method names) that change data.
WRITE_ACTIONS: frozenset[str] = frozenset(a.action for a in MAIN_ACTIONS if a.writes)


def bindings_of(target: Target) -> list[BindingType]:
    """The bindings ``target`` holds: of the main actions it runs (the screen: and the
    app's), in table order."""
    return bindings(a for a in MAIN_ACTIONS if a.held_by == target or target in a.first)


def palette_actions() -> list[tuple[Action, PaletteEntry]]:
    """The actions the command palette offers, in the palette's order."""
    offered = [(a, a.palette) for a in MAIN_ACTIONS if a.palette is not None]
    return sorted(offered, key=lambda pair: pair[1].rank)


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
        if not action.show and area not in action.shown_in:
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
