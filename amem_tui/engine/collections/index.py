"""The note index of one collection: the notes search and the store-wide figures
work on, kept in memory and saved beside the collection.

On an embedded store amem-tui keeps every note's access fields and keyword statistics
in a note index (``amem_tui.engine.index``), read once, brought up to date from the
collection's write journal, and saved for the next process. A server filters for
itself, so there none is kept: a selection is then read through the store's filter.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

from amem_tui.engine.index import IndexCache, NoteIndex, Selection, SelectionKey
from amem_tui.engine.models import MemoryNote, NoteAccess
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.search_results import VisibleBecause
from amem_tui.engine.store.base import CollectionInfo, NoteStore
from amem_tui.engine.store.filters import Filter
from amem_tui.engine.store.journal import SAVED_INDEX_DIR


class IndexOwner(Protocol):
    """What the index needs of its collection: the store and the real name behind an
    alias, its facts, how a point reads as a note, and the read rule of its format."""

    @property
    def store(self) -> NoteStore: ...

    @property
    def real_name(self) -> str: ...

    def info(self) -> CollectionInfo | None: ...

    def note(self, point_id: str, payload: dict[str, Any] | None) -> MemoryNote: ...

    def notes(self, flt: Filter | None = None) -> Iterator[MemoryNote]: ...

    def visible_because(self, scope: AgentScope, note: NoteAccess) -> VisibleBecause | None: ...


class CollectionIndex:
    """The note index of one collection (none on a server), made on first use."""

    def __init__(self, owner: IndexOwner, cache_folder: Path | None = None) -> None:
        self._owner = owner
        #: Where note indexes of stores amem-tui does not write are saved.
        self.cache_folder = cache_folder
        self._lock = threading.Lock()
        self._cache: IndexCache | None = None

    def select(
        self,
        flt: Filter | None,
        keep: Callable[[NoteAccess], bool],
        key: SelectionKey,
        points_count: int,
    ) -> Selection:
        """The notes ``keep`` accepts, in store order, with their keyword statistics.

        On an embedded store they come from the note index (``key`` names the scope
        and purpose, which fix ``keep``); elsewhere the store filters with ``flt``
        (the same rule, as a query) and ``keep`` checks again.
        """
        cache = self._current()
        if cache is not None:
            return cache.select(points_count, keep, key)
        return NoteIndex.build(self._owner.notes(flt)).select(keep)

    def ready(self) -> bool:
        """True when ``select`` answers without reading every note first (no note
        index is kept for this store: the store filters, which never waits long)."""
        cache = self._current()
        return cache is None or cache.ready()

    def _current(self) -> IndexCache | None:
        owner = self._owner
        if not owner.store.embedded:
            return None
        with self._lock:
            if self._cache is None:
                self._cache = IndexCache(owner.store, owner.real_name, owner.note, self._folder())
            return self._cache

    def _folder(self) -> Path | None:
        """Where the note index is saved: beside the collection, else (a store opened
        read-only, or one amem-tui never writes) in the cache folder."""
        store, real = self._owner.store, self._owner.real_name
        beside = store.sidecar(real)
        if beside is not None:
            return beside / SAVED_INDEX_DIR
        if self.cache_folder is None or store.revision(real) is None:
            return None
        key = hashlib.sha1(f"{store.location}\0{real}".encode()).hexdigest()
        return self.cache_folder / key[:20]

    def _with_count(self) -> tuple[IndexCache, int] | None:
        cache = self._current()
        info = self._owner.info()
        if cache is None or info is None:
            return None
        return cache, info.points_count

    def consolidated_note_ids(self) -> list[str] | None:
        """Ids of notes whose evolution history records a consolidation, from the note
        index (None where there is none: the caller reads the notes instead)."""
        found = self._with_count()
        return None if found is None else found[0].consolidated_ids(found[1])

    def recall_figures(self, scope: AgentScope, limit: int) -> tuple[int, list[str]] | None:
        """Of the notes the agent's searches see: how many were never recalled, and the
        ids of the ``limit`` most recalled (ties in id order), from the note index (None
        where there is none)."""
        found = self._with_count()
        if found is None:
            return None
        cache, points = found

        def visible(note: NoteAccess) -> bool:
            return self._owner.visible_because(scope, note) is not None

        key = ("recalls", scope.agent, scope.mode, scope.collection, scope.namespace or "")
        selection = cache.select(points, visible, key)
        return selection.index.most_retrieved(selection, limit)

    def malformed_note_ids(self) -> list[str] | None:
        """Ids of the points that read as malformed, from the note index (None where there
        is none: only a read of every note finds them)."""
        found = self._with_count()
        return None if found is None else found[0].malformed_ids(found[1])

    def prepare(self) -> None:
        """Read the collection into its note index now, and save it (after a bulk load)."""
        found = self._with_count()
        if found is not None:
            found[0].current(found[1])
            found[0].save()

    def save(self) -> None:
        """Save what this process changed of the note index (for the next process)."""
        with self._lock:
            cache = self._cache
        if cache is not None:
            cache.save()
