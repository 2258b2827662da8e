"""Every action of the inspector, once: key, label, palette entry, whether it writes,
and the widget that holds it.

The key bindings, the read-only check, the command palette and the help screen are
all derived from one table, ``MAIN_ACTIONS`` (``main``) and ``APP_ACTIONS``
(``screens``); adding an action is adding a row there and an ``action_<name>`` method
on its target, the widget whose ``BINDINGS`` take the target's rows (``bindings_of``).
Textual looks a key up from the focused widget up to the screen, so a target's keys
work wherever the focus is inside it; each target asks ``binding_state`` whether its
action may run now (``verdict``).
"""

from amem_tui.tui.actions.action import Action, FocusArea, PaletteEntry, Target, bindings
from amem_tui.tui.actions.main import MAIN_ACTIONS
from amem_tui.tui.actions.screens import (
    APP_ACTIONS,
    AUDIT_ACTIONS,
    COMPARE_ACTIONS,
    CONFLICTS_ACTIONS,
    GRAPH_ACTIONS,
    LEAKS_ACTIONS,
    OVERVIEW_ACTIONS,
)
from amem_tui.tui.actions.table import (
    ACTIONS_BY_ID,
    WRITE_ACTIONS,
    bindings_of,
    footer_entries,
    help_rows,
    key_for,
    palette_actions,
)
from amem_tui.tui.actions.verdict import (
    READ_ONLY_REASON,
    RUNS,
    Judge,
    Situation,
    Verdict,
    binding_state,
    said_off,
    verdict,
)

__all__ = [
    "ACTIONS_BY_ID",
    "APP_ACTIONS",
    "AUDIT_ACTIONS",
    "COMPARE_ACTIONS",
    "CONFLICTS_ACTIONS",
    "GRAPH_ACTIONS",
    "LEAKS_ACTIONS",
    "MAIN_ACTIONS",
    "OVERVIEW_ACTIONS",
    "READ_ONLY_REASON",
    "RUNS",
    "WRITE_ACTIONS",
    "Action",
    "FocusArea",
    "Judge",
    "PaletteEntry",
    "Situation",
    "Target",
    "Verdict",
    "binding_state",
    "bindings",
    "bindings_of",
    "footer_entries",
    "help_rows",
    "key_for",
    "palette_actions",
    "said_off",
    "verdict",
]
