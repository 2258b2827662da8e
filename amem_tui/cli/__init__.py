"""``amem-tui``: the TUI by default, and headless subcommands on the same engine.

Exit codes: 0 done; 2 rejected input; 3 permission denied or read-only;
4 not found or not visible; 5 store or model unavailable.

Layout: :mod:`.parser` lists the subcommand modules (one per concept: agents, notes,
search, demo, consolidation, store, audit, transfer), each holding its arguments,
handlers and text renderers; :mod:`.output` prints; :mod:`.context` opens the engine;
:mod:`.entry` runs it all.
"""

from amem_tui.cli.entry import main

__all__ = ["main"]
