"""The process-wide tuning the TUI keeps, each kept because it measured worth it.

Two things a Textual app does not do by itself, both for a store of 100,000 notes
and more: the collector's full passes are kept off what is alive for the whole
session, and the pages of the store's mapped files that searches touched are handed
back to the system. Nothing else in the TUI touches ``gc`` or the store's pages.
docs/performance.md ("Tuning") has each figure, the command that measured it and
the tricks that were measured and removed.
"""

from __future__ import annotations

import contextlib
import gc
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from amem_tui.engine import MemoryEngine

# Without any hand-back, peak RSS after 50 typed queries at 100k notes was 53-85 MiB
# higher; with this timer alone (none after each search) 41-95 MiB higher, up to 465
# MiB, over the 0.45 GiB target (3 rounds each): docs/performance.md, "Tuning".
#: Seconds between two hand-backs of the store's mapped pages; a search hands back its
#: own once its hits are drawn (widgets/search_box.py), a warm-up once it ends.
HAND_BACK_EVERY = 2.0


def hand_back_pages(engine: MemoryEngine) -> None:
    """Give the pages of the store's mapped files back to the system: each search maps
    a few megabytes of them, which would add up to the whole store over a session
    (they stay in the page cache, so reading them again costs no disk read)."""
    with contextlib.suppress(Exception):  # only memory: never worth an error
        engine.release_memory()


def settle(engine: MemoryEngine) -> None:
    """Once the agent's index is warm or the model loaded: collect what is garbage, leave
    every live object out of later full collections, and hand back the pages read."""
    # What is alive now (the note index, the model) lives until the agent changes; a
    # full pass over it paused a frame for 0.1 s every few queries. Without the
    # freeze, typing p90 was 91-317 ms higher and the worst query 200-600 ms slower
    # on a loaded machine (3 rounds at 100k): docs/performance.md, "Tuning".
    gc.collect()
    gc.freeze()
    hand_back_pages(engine)
