"""When an embedded (Qdrant Edge) store optimizes: after a bulk of writes, in the
background (a copy, in a child process), and once more when asked to settle. Mixed
into :class:`~amem_tui.engine.store.edge.EdgeStore`."""

from __future__ import annotations

import contextlib
import threading
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from amem_tui.engine.store.edge_shard import OpenShard


class ShardOptimizing:
    """Optimizing the open shards of a store; the store provides the attributes below."""

    optimize_after: int
    compact_vectors_from: int
    background: bool
    _closed: bool
    _lock: threading.RLock
    _collections: dict[str, OpenShard]

    # The store's own (these stand in for the type checker; the store overrides them).
    def _calls(self, what: str) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _open(self, collection: str) -> OpenShard | None:
        raise NotImplementedError

    def list_collections(self) -> list[str]:
        raise NotImplementedError

    # ------------------------------------------------------------ optimizing
    def _note_writes(self, opened: OpenShard, n: int) -> None:
        """Count writes; after a bulk load, optimize (in the background by default)."""
        if int(opened.meta.get("vector_size") or 0) <= 1:
            # A log of records (a run log, the versions) has no graph to build:
            # optimizing it only copied it whole, again and again (a run log of 243 MB
            # at 8,825 merges, during a nightly pass at 100,000 notes).
            return
        with opened.lock.writing():
            opened.dirty += n
            if opened.dirty < self.optimize_after or self._closed:
                return
            if opened.optimizer is not None and opened.optimizer.is_alive():
                return  # the running one looks at ``dirty`` again when it ends
            if not self.background:
                self._optimize_here(opened)
                return
            opened.optimizer = threading.Thread(
                target=self._optimize_loop, args=(opened,), name="edge-optimize", daemon=True
            )
            opened.optimizer.start()

    def _optimize_here(self, opened: OpenShard) -> None:
        with self._calls("optimizing"):
            opened.optimize_in_place(opened.due_compact(self.compact_vectors_from))

    def _optimize_copy(self, opened: OpenShard) -> None:
        with opened.lock.writing():
            compact = opened.due_compact(self.compact_vectors_from)
        opened.optimize_copy(lambda: self._closed, self._lock, compact)

    def _optimize_loop(self, opened: OpenShard) -> None:
        """Optimize copies until no big batch of writes is left (in its own thread)."""
        while not self._closed:
            with opened.lock.writing():
                if opened.dirty < self.optimize_after:
                    return
            with contextlib.suppress(Exception):  # searching works without it, only slower
                self._optimize_copy(opened)

    def optimize(self, collection: str | None = None) -> None:
        """Optimize one collection (or all) now, in the calling thread (for scripts)."""
        for name in [collection] if collection else self.list_collections():
            opened = self._open(name)
            if opened is not None:
                self._wait_optimizer(opened)
                self._optimize_here(opened)

    def settle(self, collection: str) -> None:
        """Wait for a background optimize, then optimize what is still unmerged (a copy in
        a child process, as in the background: this thread keeps the GIL free)."""
        opened = self._open(collection)
        if opened is None:
            return
        self._wait_optimizer(opened)
        while not self._closed:
            with opened.lock.writing():
                points = opened.points()
                merged = int(opened.meta.get("optimized_points", 0))
                compact = opened.due_compact(self.compact_vectors_from)
            # Small collections are scanned whole anyway: nothing worth a child process.
            if points < self.optimize_after or (
                opened.dirty == 0 and merged == points and not compact
            ):
                return
            with self._calls("optimizing"):
                self._optimize_copy(opened)
            if opened.dirty == 0:
                return

    def optimizing(self) -> bool:
        """True while a background optimize is running."""
        return any(
            c.optimizer is not None and c.optimizer.is_alive()
            for c in list(self._collections.values())
        )

    def wait_optimized(self, timeout: float | None = None) -> None:
        """Block until background optimizing is done (for scripts and tests)."""
        for opened in list(self._collections.values()):
            self._wait_optimizer(opened, timeout)

    @staticmethod
    def _wait_optimizer(opened: OpenShard, timeout: float | None = None) -> None:
        thread = opened.optimizer
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
