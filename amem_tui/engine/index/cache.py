"""The note index of one collection, kept current and saved for the next process.

In this process the store's write generation and change log say what changed since
the index was read, and only those notes are read again. Across processes the store's
write journal does the same from the revision the saved index reflects; when neither
can tell (too much changed, or a journal that does not reach back), the whole
collection is read again. A stale index is never used.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import amem_tui.engine.index.files as files
from amem_tui.engine.index.records import AccessRecord
from amem_tui.engine.index.table import NoteIndex, Selection
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.base import NoteStore

#: Turns a stored point (id, payload) into the note it reads as.
PointReader = Callable[[str, dict[str, Any]], MemoryNote]
#: Names a selection: its scope and purpose, which fix its rule.
SelectionKey = tuple[str, ...]


class IndexCache:
    """The index of one collection of an embedded store, and the selections made of it."""

    #: Above this many changed notes a full read is as cheap as patching.
    PATCH_LIMIT = 4096

    def __init__(
        self, store: NoteStore, collection: str, read: PointReader, folder: Path | None
    ) -> None:
        self.store = store
        self.collection = collection
        self.read = read
        #: Where the index is saved (beside the store, or in the cache folder); None: never.
        self.folder = folder
        self._index: NoteIndex | None = None
        self._token: tuple[int, int] = (-1, -1)
        self._revision: int | None = None
        self._dirty = False
        self._selections: dict[SelectionKey, Selection] = {}
        self._lock = threading.Lock()
        #: One reader at a time: a second search waits for the first one's read
        #: instead of reading the same collection again beside it.
        self._reader = threading.Lock()

    # -------------------------------------------------------------- current
    def current(self, points_count: int) -> NoteIndex:
        """The index as the store is now, caught up or read as needed."""
        with self._reader:
            generation = self.store.write_generation
            token = (generation, points_count)
            index = self._index
            if index is not None and self._token == token:
                return index
            if index is not None:
                patched = index.copy()  # searches may still be reading the old one
                if self._catch_up_here(patched):
                    self._set(patched, token, dirty=True)
                    return patched
            index = self._from_disk(points_count) or self._read_all()
            self._set(index, token, dirty=False)
            return index

    def ready(self) -> bool:
        """True when ``current`` can answer without reading the collection: an index
        is in memory (caught up by reading only what changed) or saved, and no read of
        the collection is under way."""
        if self._reader.locked():
            return False
        if self._index is not None:
            return True
        return self.folder is not None and files.saved(self.folder)

    def _set(self, index: NoteIndex, token: tuple[int, int], dirty: bool) -> None:
        with self._lock:
            if index is not self._index:
                self._selections.clear()
            self._index = index
            self._token = token
            self._dirty = self._dirty or dirty

    def _catch_up_here(self, index: NoteIndex) -> bool:
        """Patch with what this process wrote since; False when the log cannot tell."""
        changed = self.store.changes.since(self.collection, self._token[0])
        if changed is None or len(changed) > self.PATCH_LIMIT:
            return False
        self._patch(index, changed)
        return True

    def _from_disk(self, points_count: int) -> NoteIndex | None:
        """The saved index, caught up with the journal; None when it cannot be used."""
        revision = self.store.revision(self.collection)
        if self.folder is None or revision is None:
            return None
        loaded = files.load(self.folder)
        if loaded is None:
            return None
        index, state = loaded
        saved = state.get("revision")
        if state.get("collection") != self.collection or not isinstance(saved, int):
            return None
        if saved != revision:
            changed = self.store.changed_since(self.collection, saved)
            if changed is None or len(changed) > self.PATCH_LIMIT:
                return None
            self._patch(index, changed)
        if len(index) != points_count:  # written by something that kept no journal
            return None
        if saved != revision:
            self._save(index, revision)
        self._revision = revision
        return index

    def _read_all(self) -> NoteIndex:
        """Read every note of the collection (page by page) and index it."""
        revision = self.store.revision(self.collection)
        index = NoteIndex.build(self._notes())
        if revision is not None and revision == self.store.revision(self.collection):
            self._save(index, revision)  # saved only when no write overlapped the read
        self._revision = revision
        return index

    def _notes(self) -> Iterator[MemoryNote]:
        for point in self.store.scan(self.collection):
            yield self.read(point.id, point.payload)

    def _patch(self, index: NoteIndex, changed: set[str]) -> None:
        present = {p.id: p for p in self.store.retrieve(self.collection, sorted(changed))}
        index.remove(i for i in changed if i not in present)
        index.append_notes(
            self.read(p.id, p.payload) for p in sorted(present.values(), key=lambda p: p.id)
        )
        if index.needs_compaction:
            index.compact()

    # --------------------------------------------------------------- saving
    def _save(self, index: NoteIndex, revision: int) -> None:
        if self.folder is None:
            return
        try:
            files.save(index, self.folder, {"collection": self.collection, "revision": revision})
        except OSError:  # a cache: a full disk or a read-only folder only costs speed
            return

    def save(self) -> None:
        """Save what this process patched in, so the next one starts from it."""
        with self._reader:
            index = self._index
            if index is None or not self._dirty:
                return
            revision = self.store.revision(self.collection)
            if revision is not None:
                self._save(index, revision)
            self._dirty = False

    # ----------------------------------------------------------- selections
    def consolidated_ids(self, points_count: int) -> list[str]:
        """Ids of notes whose evolution history records a consolidation (index, current)."""
        return self.current(points_count).consolidated_ids()

    def malformed_ids(self, points_count: int) -> list[str]:
        """Ids of notes that read as malformed (index, current)."""
        return self.current(points_count).malformed_ids()

    def select(
        self, points_count: int, keep: Callable[[AccessRecord], bool], key: SelectionKey
    ) -> Selection:
        """The notes ``keep`` accepts (``key`` names the rule), made once per index state."""
        index = self.current(points_count)
        with self._lock:
            found = self._selections.get(key)
        if found is not None and found.index is index and found.generation == index.generation:
            return found
        selection = index.select(keep)
        with self._lock:
            self._selections[key] = selection
        return selection
