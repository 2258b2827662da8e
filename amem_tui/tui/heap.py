"""Keeping the collector's full passes off the keystroke path.

Python's full (oldest generation) collection walks every container alive; with a
store's note index and the model loaded it pauses the event loop for about 0.1 s,
every few queries, in the middle of whatever frame is being drawn. What is alive
once the agent's index is warm lives until the agent changes, so it is collected
once and then frozen: later full passes only walk what was made since.
"""

from __future__ import annotations

import gc


def settle() -> None:
    """Collect what is garbage now, then leave every live object out of later passes."""
    gc.collect()
    gc.freeze()
