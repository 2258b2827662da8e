"""What was written to a store, for the caches that must catch up with it.

Two records, one per reach. ``ChangeLog`` keeps, in this process, which points
recent writes touched, so a reader that cached what it read re-reads only those.
``WriteJournal`` counts and logs on disk every write amem-tui makes to a
collection, so a cache saved by an earlier process (a note index, its counts) knows
whether it is current and what to read again.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from typing import IO

from amem_tui.engine.store.ids import canonical_id


class ChangeLog:
    """Which points recent writes touched, so a cache can catch up instead of re-reading.

    Entries carry the store's ``write_generation`` as it was while the write ran
    (odd: stores bump it before and after every write). A reader that took
    generation ``t`` before it read may have missed every write logged at ``t`` or
    later; ``since`` returns exactly those points.
    """

    def __init__(self, keep: int = 4096) -> None:
        self._entries: deque[tuple[int, str, frozenset[str] | None]] = deque()
        self._keep = keep
        self._forgotten = -1  # the newest generation no longer in the log
        self._lock = threading.Lock()

    def record(self, generation: int, collection: str, ids: Iterable[object] | None) -> None:
        """Log a write; ``ids`` None means the whole collection changed."""
        with self._lock:
            known = None if ids is None else frozenset(canonical_id(i) for i in ids)
            self._entries.append((generation, collection, known))
            while len(self._entries) > self._keep:
                self._forgotten = max(self._forgotten, self._entries.popleft()[0])

    def since(self, collection: str, generation: int) -> set[str] | None:
        """Points of ``collection`` written at ``generation`` or later; None if unknown."""
        with self._lock:
            if generation <= self._forgotten:
                return None
            changed: set[str] = set()
            for written, name, ids in self._entries:
                if written >= generation and name == collection:
                    if ids is None:
                        return None
                    changed |= ids
            return changed


#: The folder beside a collection for data derived from it (``NoteStore.sidecar``),
#: and the one in it where its note index is saved.
SIDECAR_DIR = "derived"
SAVED_INDEX_DIR = "index"
#: The file of a collection's journal that counts its writes.
_REVISION_FILE = "revision"


def read_revision(journal: Path) -> int:
    """The write count a journal folder holds (0 when it has none): readable by any
    process, the store open or not."""
    try:
        return int((journal / _REVISION_FILE).read_text(encoding="ascii").strip() or 0)
    except (OSError, ValueError):
        return 0


class WriteJournal:
    """A collection's writes, counted and logged on disk, for caches in later processes.

    ``revision`` counts every write ever made through an amem-tui store to the
    collection; ``changes.log`` keeps the ids each recent write touched, one line per
    write (``<revision> <id>,<id>…``, or ``*`` for the whole collection). A cache saved
    at revision ``r`` catches up by re-reading the ids logged after ``r``, or rebuilds
    when the log no longer reaches back that far. Only one process writes an embedded
    store at a time (it holds the store's lock), so appends never interleave.
    """

    KEEP = 8192

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._revision: int | None = None
        # Kept open between writes: a consolidation run writes thousands of notes one by
        # one, and opening, renaming and closing two files for each write took a third
        # of a nightly pass at 100,000 notes.
        self._log: IO[str] | None = None
        self._revision_fd: int | None = None

    @property
    def revision(self) -> int:
        """How many writes the collection has had (0 for one never written)."""
        with self._lock:
            if self._revision is None:
                self._revision = read_revision(self.folder)
            return self._revision

    def record(self, ids: Iterable[object] | None) -> None:
        """Log one write (``ids`` None: the whole collection changed)."""
        with self._lock:
            counted = self._revision
            revision = (read_revision(self.folder) if counted is None else counted) + 1
            known = "*" if ids is None else ",".join(sorted({canonical_id(i) for i in ids}))
            log = self._open_log()
            log.write(f"{revision} {known}\n")
            log.flush()
            # In place: the count only grows, so its text never gets shorter than what it
            # overwrites, and a reader sees the old count or the new one.
            os.pwrite(self._open_revision(), str(revision).encode("ascii"), 0)
            self._revision = revision
            if revision % 1024 == 0:
                self._trim()

    def _open_log(self) -> IO[str]:
        log = self._log
        if log is None or os.fstat(log.fileno()).st_nlink == 0:  # the folder was removed
            self._close_files()
            self.folder.mkdir(parents=True, exist_ok=True)
            log = self._log = (self.folder / "changes.log").open("a", encoding="ascii")
        return log

    def _open_revision(self) -> int:
        fd = self._revision_fd
        if fd is None or os.fstat(fd).st_nlink == 0:
            path = self.folder / _REVISION_FILE
            fd = self._revision_fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        return fd

    def _trim(self) -> None:
        log = self.folder / "changes.log"
        lines = log.read_text(encoding="ascii").splitlines()
        if len(lines) > self.KEEP:
            kept = lines[-self.KEEP :]
            tmp = log.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text("\n".join(kept) + "\n", encoding="ascii")
            os.replace(tmp, log)
            if self._log is not None:  # appends go to the file that now has the name
                self._log.close()
                self._log = None

    def close(self) -> None:
        """Close the files kept open between writes (they reopen on the next write)."""
        with self._lock:
            self._close_files()

    def _close_files(self) -> None:
        if self._log is not None:
            with contextlib.suppress(OSError):
                self._log.close()
            self._log = None
        if self._revision_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._revision_fd)
            self._revision_fd = None

    def changed_since(self, revision: int) -> set[str] | None:
        """Ids written after ``revision``; None when the log does not reach back that far."""
        if revision == self.revision:
            return set()
        try:
            lines = (self.folder / "changes.log").read_text(encoding="ascii").splitlines()
        except OSError:
            return None
        changed: set[str] = set()
        oldest: int | None = None
        for line in lines:
            number, _, ids = line.partition(" ")
            try:
                written = int(number)
            except ValueError:
                return None
            oldest = written if oldest is None else min(oldest, written)
            if written <= revision:
                continue
            if ids == "*":
                return None
            changed.update(i for i in ids.split(",") if i)
        if oldest is None or oldest > revision + 1:
            return None  # writes between ``revision`` and the log's start are unknown
        return changed
