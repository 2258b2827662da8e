"""``amem-tui``: the TUI by default, and headless subcommands on the same engine.

The exit codes are listed once, in ``parser.EPILOG`` (``--help`` shows them).

Layout: ``parser`` reads the command line (the common options, and each subcommand's
from the modules ``COMMAND_MODULES`` names, one per concept, each holding its typed
options, handlers and text renderers), made by ``options`` from the options'
dataclasses; ``command`` holds what a subcommand is and runs with (its ``Context``
opens the engine); ``output`` writes every result; ``entry`` runs it all.
"""

from amem_tui.cli.entry import main

__all__ = ["main"]
