"""When an embedded (Qdrant Edge) store optimizes: after a bulk of writes, in the
background (a copy, in a child process), and once more when asked to settle.

``EdgeStore`` owns one ``ShardOptimizer`` and
hands it each shard it opened; the optimizer asks the store only what it is given
when made (how to report a failed call, whether the store closed, the store's lock).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from amem_tui.engine.store.edge_shard import OpenShard

#: A store call named ``what``: its failures become the store's own errors.
Calls = Callable[[str], AbstractContextManager[None]]


class ShardOptimizer:
    """Optimizes a store's open shards: a bulk load's, in the background by default."""

    def __init__(
        self,
        *,
        after: int,
        compact_from: int,
        background: bool,
        calls: Calls,
        closed: Callable[[], bool],
        store_lock: threading.RLock,
    ) -> None:
        #: Points written since the last optimize that make a bulk load worth optimizing.
        self.after = after
        #: Points from which a collection switches to compact vectors at its next optimize.
        self.compact_from = compact_from
        #: False optimizes in the calling thread (scripts and benchmarks).
        self.background = background
        self._calls = calls
        self._closed = closed
        self._store_lock = store_lock

    def note_writes(self, opened: OpenShard, n: int) -> None:
        """Count writes; after a bulk load, optimize (in the background by default)."""
        if int(opened.meta.get("vector_size") or 0) <= 1:
            # A log of records (a run log, the versions) has no graph to build:
            # optimizing it only copied it whole, again and again (a run log of 243 MB
            # at 8,825 merges, during a nightly pass at 100,000 notes).
            return
        with opened.lock.writing():
            opened.dirty += n
            if opened.dirty < self.after or self._closed():
                return
            if opened.optimizer is not None and opened.optimizer.is_alive():
                return  # the running one looks at ``dirty`` again when it ends
            if not self.background:
                self.optimize_here(opened)
                return
            opened.optimizer = threading.Thread(
                target=self._optimize_loop, args=(opened,), name="edge-optimize", daemon=True
            )
            opened.optimizer.start()

    def optimize_here(self, opened: OpenShard) -> None:
        """Optimize one shard in place, in the calling thread."""
        with self._calls("optimizing"):
            opened.optimize_in_place(opened.due_compact(self.compact_from))

    def _optimize_copy(self, opened: OpenShard) -> None:
        with opened.lock.writing():
            compact = opened.due_compact(self.compact_from)
        opened.optimize_copy(self._closed, self._store_lock, compact)

    def _optimize_loop(self, opened: OpenShard) -> None:
        """Optimize copies until no big batch of writes is left (in its own thread)."""
        while not self._closed():
            with opened.lock.writing():
                if opened.dirty < self.after:
                    return
            with contextlib.suppress(Exception):  # searching works without it, only slower
                self._optimize_copy(opened)

    def settle(self, opened: OpenShard) -> None:
        """Wait for a background optimize, then optimize what is still unmerged (a copy in
        a child process, as in the background: this thread keeps the GIL free)."""
        self.wait(opened)
        while not self._closed():
            with opened.lock.writing():
                points = opened.points()
                merged = int(opened.meta.get("optimized_points", 0))
                compact = opened.due_compact(self.compact_from)
            # Small collections are scanned whole anyway: nothing worth a child process.
            if points < self.after or (opened.dirty == 0 and merged == points and not compact):
                return
            with self._calls("optimizing"):
                self._optimize_copy(opened)
            if opened.dirty == 0:
                return

    @staticmethod
    def running(opened: OpenShard) -> bool:
        """True while a background optimize of the shard runs."""
        return opened.optimizer is not None and opened.optimizer.is_alive()

    @staticmethod
    def wait(opened: OpenShard, timeout: float | None = None) -> None:
        """Block until the shard's background optimize (if any) is done."""
        thread = opened.optimizer
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
