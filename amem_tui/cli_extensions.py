"""Imports the modules that register further ``amem-tui`` subcommands.

Each feature keeps its subcommands in its own module and appends to
:data:`amem_tui.cli.EXTENSIONS` and :data:`amem_tui.cli.COMMANDS` on import.
"""

import amem_tui.cli_consolidate  # (consolidate, history, undo)
import amem_tui.cli_realstores  # noqa: F401  (status, collections, audit, export, import)
