"""A lock that many readers hold at once and a writer holds alone.

A shard's reads (searches, counts, facets, pages of a listing) never change it, and
Qdrant Edge lets the interpreter go inside them, so on a machine with two cores two
reads can run side by side: the overview's counts and facets, or a search typed while
they run. A write, a swap after an optimize, closing and handing pages back exclude
everything else (they may unmap what a read is walking).

Both sides are reentrant for the thread holding them, and a thread holding the lock
for writing may also read. A thread that reads and then asks to write would wait for
itself forever: that raises ``RuntimeError`` instead. A waiting writer holds new
readers back, so a stream of searches cannot starve a write.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class SharedLock:
    """Shared for reading (``reading``), exclusive for writing (``writing``)."""

    def __init__(self) -> None:
        self._state = threading.Condition(threading.Lock())
        #: Read holds by thread id (a thread may read again while it reads).
        self._readers: dict[int, int] = {}
        self._writer: int | None = None
        self._writes = 0  # the writer's reentrant depth
        self._writers_waiting = 0

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Hold the lock shared (other readers may hold it too)."""
        me = threading.get_ident()
        with self._state:
            if self._writer != me and me not in self._readers:
                while self._writer is not None or self._writers_waiting:
                    self._state.wait()
            self._readers[me] = self._readers.get(me, 0) + 1
        try:
            yield
        finally:
            with self._state:
                left = self._readers[me] - 1
                if left:
                    self._readers[me] = left
                else:
                    del self._readers[me]
                    if not self._readers:
                        self._state.notify_all()

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Hold the lock alone (no reader, no other writer)."""
        me = threading.get_ident()
        with self._state:
            if self._writer != me:
                if me in self._readers:
                    raise RuntimeError("a thread reading a shard cannot start writing it")
                self._writers_waiting += 1
                try:
                    while self._writer is not None or self._readers:
                        self._state.wait()
                finally:
                    self._writers_waiting -= 1
                self._writer = me
            self._writes += 1
        try:
            yield
        finally:
            with self._state:
                self._writes -= 1
                if not self._writes:
                    self._writer = None
                    self._state.notify_all()
