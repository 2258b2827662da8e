"""Keeping the collector's passes off the keystroke path.

Python's full (oldest generation) collection walks every container alive; with a
store's note index and the model loaded it pauses the event loop for about 0.1 s,
every few queries, in the middle of whatever frame is being drawn. What is alive
once the agent's index is warm lives until the agent changes, so it is collected
once and then frozen: later full passes only walk what was made since.

What is made since still adds up: every search replaces the rows of two tables, and
Textual's row caches are linked in cycles, so a full pass of 20-80 ms came about every
half second of typing, in whichever thread was allocating (a search, the key reader,
the frame being drawn). So the collector also waits while a typed query's answer is
on its way (``collector_paused``), as Textual pauses it while a scroll animates,
and catches up once the frame is on screen.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_pauses = 0
_resume_enabled = False


def settle() -> None:
    """Collect what is garbage now, then leave every live object out of later passes."""
    gc.collect()
    gc.freeze()


@contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic collection inside (pauses nest; a collector that was off stays off)."""
    global _pauses, _resume_enabled
    with _lock:
        if _pauses == 0:
            _resume_enabled = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _lock:
            _pauses -= 1
            if _pauses == 0 and _resume_enabled:
                gc.enable()
