"""The note cache: every note of one collection, parsed and tokenized once.

Only for stores that only this process may write (embedded stores): each write
bumps the store's ``write_generation`` and logs the points it touched, so a cached
collection is patched with exactly those points instead of being re-read. Any
other store is read again for every search, which is always correct.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from amem_tui.engine.keywords import BM25Index, searchable_text, tokenize
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.base import NoteStore

#: Turns a stored point (id, payload) into the note it reads as.
PointReader = Callable[[str, dict[str, Any]], MemoryNote]
#: Names a selection of a corpus: its scope and purpose, which fix its rule.
SelectionKey = tuple[str, ...]


@dataclass
class Corpus:
    """Every note of one collection as read at ``token`` (write generation, point count)."""

    token: tuple[int, int]
    notes: list[MemoryNote]
    tokens: dict[str, list[str]]
    indexes: dict[SelectionKey, BM25Index] = field(default_factory=dict)
    #: The notes each selection keeps, in store order.
    selections: dict[SelectionKey, list[MemoryNote]] = field(default_factory=dict)
    #: Each selection's notes by id.
    lookups: dict[SelectionKey, dict[str, MemoryNote]] = field(default_factory=dict)
    #: The rule each selection was made with, to patch it after a write.
    keepers: dict[SelectionKey, Callable[[MemoryNote], bool]] = field(default_factory=dict)

    def patched(self, token: tuple[int, int], fresh: dict[str, MemoryNote | None]) -> Corpus:
        """A new corpus with ``fresh`` notes replaced, added or (None) removed.

        The old corpus is left as it was: a search running on it finishes unharmed.
        """
        notes = [fresh.get(n.id, n) for n in self.notes]
        seen = {n.id for n in self.notes}
        notes.extend(n for i, n in fresh.items() if i not in seen and n is not None)
        kept = [n for n in notes if n is not None]
        tokens = dict(self.tokens)
        for note_id, note in fresh.items():
            if note is None:
                tokens.pop(note_id, None)
            else:
                tokens[note_id] = tokenize(searchable_text(note))
        selections: dict[SelectionKey, list[MemoryNote]] = {}
        for key, selected in list(self.selections.items()):
            keep = self.keepers[key]
            patched = [n for n in selected if n.id not in fresh]
            patched.extend(n for n in fresh.values() if n is not None and keep(n))
            selections[key] = patched
        return Corpus(token, kept, tokens, selections=selections, keepers=dict(self.keepers))


@dataclass
class NoteSet:
    """Notes selected from one collection, with their BM25 index built on demand."""

    notes: list[MemoryNote]
    tokens: Callable[[MemoryNote], Sequence[str]]
    index_cache: dict[SelectionKey, BM25Index] | None
    key: SelectionKey
    lookup_cache: dict[SelectionKey, dict[str, MemoryNote]] | None = None

    def by_id(self) -> dict[str, MemoryNote]:
        """The selected notes by id (built once per cached selection)."""
        if self.lookup_cache is not None and self.key in self.lookup_cache:
            return self.lookup_cache[self.key]
        lookup = {n.id: n for n in self.notes}
        if self.lookup_cache is not None:
            self.lookup_cache[self.key] = lookup
        return lookup

    def bm25(self) -> BM25Index:
        """The keyword index of these notes (built once per cached selection)."""
        if self.index_cache is not None and self.key in self.index_cache:
            return self.index_cache[self.key]
        index = BM25Index.build([n.id for n in self.notes], [self.tokens(n) for n in self.notes])
        if self.index_cache is not None:
            self.index_cache[self.key] = index
        return index


def uncached_set(notes: list[MemoryNote], key: SelectionKey) -> NoteSet:
    """A selection read straight from the store, tokenized on demand and never kept."""
    return NoteSet(notes, lambda n: tokenize(searchable_text(n)), None, key)


class NoteCache:
    """The notes of one collection of an embedded store, reused until the store is written."""

    #: Above this many changed points a full re-read is as cheap as patching.
    PATCH_LIMIT = 2048

    def __init__(self, store: NoteStore, collection: str, read: PointReader) -> None:
        self.store = store
        self.collection = collection
        self.read = read
        self._corpus: Corpus | None = None
        self._lock = threading.Lock()
        #: One reader at a time: a second search waits for the first one's read
        #: instead of reading the same collection again beside it.
        self._reader = threading.Lock()

    def corpus(self, points_count: int) -> Corpus:
        """The whole collection, from the cache when nothing was written since."""
        with self._reader:
            token = (self.store.write_generation, points_count)
            with self._lock:
                found = self._corpus
            if found is not None and found.token == token:
                return found
            corpus = self._catch_up(found, token)
            if corpus is None:
                # Streamed page by page: the payloads never all sit in memory at once.
                notes = [self.read(p.id, p.payload) for p in self.store.scan(self.collection)]
                corpus = Corpus(
                    token=token,
                    notes=notes,
                    tokens={n.id: tokenize(searchable_text(n)) for n in notes},
                )
            with self._lock:
                self._corpus = corpus
            return corpus

    def select(
        self, points_count: int, keep: Callable[[MemoryNote], bool], key: SelectionKey
    ) -> NoteSet:
        """The cached notes ``keep`` accepts, in store order (``key`` names the rule)."""
        corpus = self.corpus(points_count)
        notes = corpus.selections.get(key)
        if notes is None:
            notes = [n for n in corpus.notes if keep(n)]
            corpus.keepers[key] = keep
            corpus.selections[key] = notes
        return NoteSet(notes, lambda n: corpus.tokens[n.id], corpus.indexes, key, corpus.lookups)

    def _catch_up(self, found: Corpus | None, token: tuple[int, int]) -> Corpus | None:
        """``found`` patched with the points written since it was read, or None."""
        if found is None:
            return None
        changed = self.store.changes.since(self.collection, found.token[0])
        if changed is None or len(changed) > self.PATCH_LIMIT:
            return None
        fresh: dict[str, MemoryNote | None] = dict.fromkeys(changed)
        for point in self.store.retrieve(self.collection, sorted(changed)):
            fresh[point.id] = self.read(point.id, point.payload)
        return found.patched(token, fresh)
