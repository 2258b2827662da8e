"""``amem-tui``: the TUI by default, and headless subcommands on the same engine.

Exit codes: 0 done; 2 rejected input; 3 permission denied or read-only;
4 not found or not visible; 5 store or model unavailable; 75 (``EX_TEMPFAIL``) the
nightly pass runs elsewhere: another process holds its run lock.

Layout: ``parser`` lists the subcommand modules (one per concept), each holding its
typed options, handlers and text renderers; ``options`` makes the parser from the
options; ``output`` writes every result; ``context`` opens the engine; ``entry`` runs
it all.
"""

from amem_tui.cli.entry import main

__all__ = ["main"]
