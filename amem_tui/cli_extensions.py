"""Imports the modules that register further ``amem-tui`` subcommands.

Each feature keeps its subcommands in its own module and appends to
:data:`amem_tui.cli.EXTENSIONS` and :data:`amem_tui.cli.COMMANDS` on import.
"""
