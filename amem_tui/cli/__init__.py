"""``amem-tui``: the TUI by default, and headless subcommands on the same engine.

The exit codes are listed once, in ``parser.EPILOG`` (``--help`` shows them).

Layout: ``parser`` lists the subcommand modules (one per concept), each holding its
typed options, handlers and text renderers; ``options`` makes the parser from the
options; ``output`` writes every result; ``context`` opens the engine; ``entry`` runs
it all.
"""

from amem_tui.cli.entry import main

__all__ = ["main"]
