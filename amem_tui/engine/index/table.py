"""The note index of one collection: ids, access records and BM25 postings, column-wise.

Every note gets a position; its keyword postings live in compressed-sparse form (one
array of positions and one of term frequencies per term, back to back). A changed
note is appended at a new position and its old one is marked dead, so patching after
a write never rewrites the big arrays; once enough has changed, ``compact`` builds
them afresh. Compacted positions are in the store's id order, so an id's position is
found by one binary search over the order keys, never through a map of every id,
whose memory and building time grow with the collection (docs/performance.md).
Appended ids are in a map. BM25 is
scored per query over any ``Selection`` (the notes a scope may search), so one
index serves every agent: its idf and average length come from the selection, as
openclaw-amem computes them over what the agent can search.
"""

from __future__ import annotations

import math
import re
import uuid
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from amem_tui.engine.index.ids import IdColumn
from amem_tui.engine.index.records import AccessRecord, RecordTable
from amem_tui.engine.index.snippets import SnippetColumn
from amem_tui.engine.keywords import BM25_B, BM25_K1, searchable_text, tokenize
from amem_tui.engine.models import MemoryNote

#: Above this many appended notes (or a tenth of the index) the arrays are rebuilt.
COMPACT_AFTER = 4096

Keep = Callable[[AccessRecord], bool]


#: A UUID as a store spells it (lower case, with hyphens): the common case, parsed fast.
_CANONICAL_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def canonical(note_id: str) -> bool:
    """True when ``note_id`` is spelt as a store returns it (a lower-case UUID with its
    hyphens, or a number without leading zeros): no other spelling has its order key."""
    if _CANONICAL_UUID.fullmatch(note_id):
        return True
    return note_id.isdigit() and (note_id == "0" or note_id[0] != "0")


def order_key(note_id: str) -> tuple[int, int, int]:
    """Where the store's scroll puts an id, as three integers: integers first (by value),
    then UUIDs (whose text order is the order of their 128-bit value)."""
    if _CANONICAL_UUID.fullmatch(note_id):
        value = int(note_id.replace("-", ""), 16)
        return (1, value >> 64, value & (2**64 - 1))
    if note_id.isdigit():
        return (0, 0, int(note_id))
    try:
        value = uuid.UUID(note_id).int
    except ValueError:  # not a Qdrant id: last, in a stable order
        value = int.from_bytes(note_id.encode()[:16].ljust(16, b"\0"), "big")
        return (2, value >> 64, value & (2**64 - 1))
    return (1, value >> 64, value & (2**64 - 1))


@dataclass
class Selection:
    """The notes of an index one rule keeps, with their BM25 statistics."""

    index: NoteIndex
    #: Positions kept, in store order.
    positions: np.ndarray
    #: ``mask[p]`` is True when position ``p`` is kept.
    mask: np.ndarray
    #: The index generation it was made at (a patched index makes new selections).
    generation: int
    average_length: float

    @property
    def count(self) -> int:
        """How many notes are kept."""
        return len(self.positions)

    def contains(self, note_id: str) -> bool:
        """True when the note with this id is kept."""
        position = self.index.position_of(note_id)
        return position is not None and bool(self.mask[position])

    def kept(self, note_ids: Sequence[str]) -> list[bool]:
        """Whether each note is kept (``contains`` for many ids at once)."""
        positions = self.index.positions_of(note_ids)
        found = positions >= 0
        kept = np.zeros(len(positions), dtype=bool)
        kept[found] = self.mask[positions[found]]
        return kept.tolist()

    def ids(self) -> list[str]:
        """The kept ids, in store order."""
        return self.index.ids.many(self.positions.tolist())

    def rank(
        self, query_tokens: Sequence[str], limit: int | None = None
    ) -> list[tuple[str, float]]:
        """Kept notes containing a query term, best first by BM25 (k1 1.5, b 0.75).

        A term given twice counts twice, as in openclaw-amem; ties fall in the store's
        id order; ``limit`` keeps only the best (ties at the cut broken the same way).
        """
        index = self.index
        total = self.count
        if total == 0:
            return []
        scores = np.zeros(len(index.ids), dtype=np.float64)
        norm_base = BM25_K1 * (1 - BM25_B)
        norm_scale = BM25_K1 * BM25_B / (self.average_length or 1.0)
        for term in query_tokens:
            docs, freqs = index.postings(term)
            if len(docs) == 0:
                continue
            kept = self.mask[docs]
            docs, freqs = docs[kept], freqs[kept]
            frequency = len(docs)
            if frequency == 0:
                continue
            # The "+1" idf stays positive even for a term in every kept note.
            idf = math.log((total - frequency + 0.5) / (frequency + 0.5) + 1.0)
            norm = norm_base + norm_scale * index.lengths[docs]
            scores[docs] += idf * freqs * (BM25_K1 + 1) / (freqs + norm)
        candidates = np.flatnonzero(scores > 0)
        if limit is not None and len(candidates) > limit:
            values = scores[candidates]
            cut = np.partition(values, len(values) - limit)[len(values) - limit]
            candidates = candidates[values >= cut]
        keys = index.order[:, candidates]
        order = candidates[np.lexsort((keys[2], keys[1], keys[0], -scores[candidates]))]
        if limit is not None:
            order = order[:limit]
        return list(zip(index.ids.many(order.tolist()), scores[order].tolist(), strict=True))


class NoteIndex:
    """Ids, access records and keyword postings of one collection's notes."""

    def __init__(self) -> None:
        self.ids = IdColumn()
        #: The first words of each position's content (a saved index answers with them
        #: before the store is open).
        self.snippets = SnippetColumn()
        #: Positions from here on were appended since the last compaction (not in order).
        self.ordered = 0
        #: The live position of each id appended since then.
        self.appended: dict[str, int] = {}
        self.live = 0
        #: Where each kind of id starts and ends among the ordered positions (see
        #: ``position_of``), found on first use.
        self.kind_spans: tuple[int, int, int, int] | None = None
        self.records = RecordTable()
        self.lengths = np.zeros(0, dtype=np.float64)
        self.alive = np.zeros(0, dtype=bool)
        #: Each position's store-order key (kind, high, low): ties break by it.
        self.order = np.zeros((3, 0), dtype=np.uint64)
        self.terms: list[str] = []
        self.term_id: dict[str, int] = {}
        # The compacted postings: term t holds post_doc/post_tf[term_start[t]:term_start[t+1]].
        self.term_start = np.zeros(1, dtype=np.int64)
        self.post_doc = np.zeros(0, dtype=np.int32)
        self.post_tf = np.zeros(0, dtype=np.float32)
        # Each position's own terms (doc_start as above), to drop them when it changes.
        self.doc_start = np.zeros(1, dtype=np.int64)
        self.doc_term = np.zeros(0, dtype=np.int32)
        self.doc_tf = np.zeros(0, dtype=np.float32)
        #: Postings of notes appended since the last compaction: term id -> (docs, tfs).
        self.fresh: dict[int, tuple[list[int], list[float]]] = {}
        self.fresh_terms: dict[int, tuple[list[int], list[float]]] = {}
        #: Bumped by every change: selections made before it are stale.
        self.generation = 0
        #: Called before the arrays are read whole (a saved index's file is mapped for
        #: reads here and there: it turns the kernel's read-ahead back on).
        self.before_whole_read: Callable[[], None] | None = None

    # -------------------------------------------------------------- building
    @classmethod
    def build(cls, notes: Iterable[MemoryNote]) -> NoteIndex:
        """An index of ``notes``, built straight into its arrays (no per-term lists)."""
        index = cls()
        doc_terms = array("i")
        doc_tfs = array("f")
        counts: list[int] = []
        lengths: list[float] = []
        keys: list[tuple[int, int, int]] = []
        records: list[AccessRecord] = []
        term_id = index.term_id
        seen: set[str] = set()
        for note in notes:
            if note.id in seen:  # a store lists each id once
                continue
            seen.add(note.id)
            index.ids.append(note.id)
            index.snippets.append(note.content)
            records.append(AccessRecord.of(note))
            keys.append(order_key(note.id))
            tokens = tokenize(searchable_text(note))
            lengths.append(float(len(tokens)))
            found = Counter(tokens)
            counts.append(len(found))
            for term, freq in found.items():
                number = term_id.get(term)
                if number is None:
                    number = term_id[term] = len(index.terms)
                    index.terms.append(term)
                doc_terms.append(number)
                doc_tfs.append(freq)
        index.records.extend(records)
        index.lengths = np.asarray(lengths, dtype=np.float64)
        index.alive = np.ones(len(index.ids), dtype=bool)
        index.order = np.asarray(keys, dtype=np.uint64).T.reshape(3, len(keys))
        index.doc_start = np.concatenate([[0], np.cumsum(counts, dtype=np.int64)])
        index.doc_term = np.frombuffer(doc_terms, dtype=np.int32).copy()
        index.doc_tf = np.frombuffer(doc_tfs, dtype=np.float32).copy()
        index.compact()
        return index

    def append_notes(self, notes: Iterable[MemoryNote]) -> None:
        """Give each note a new position (an older position of the same id dies)."""
        lengths: list[float] = []
        keys: list[tuple[int, int, int]] = []
        records: list[AccessRecord] = []
        for note in notes:
            old = self.position_of(note.id)
            if old is not None:
                self._kill(old)
            position = len(self.ids)
            self.ids.append(note.id)
            self.snippets.append(note.content)
            self.appended[note.id] = position
            self.live += 1
            records.append(AccessRecord.of(note))
            keys.append(order_key(note.id))
            counts = Counter(tokenize(searchable_text(note)))
            lengths.append(float(sum(counts.values())))
            term_ids: list[int] = []
            freqs: list[float] = []
            for term, freq in counts.items():
                term_id = self.term_id.get(term)
                if term_id is None:
                    term_id = self.term_id[term] = len(self.terms)
                    self.terms.append(term)
                term_ids.append(term_id)
                freqs.append(float(freq))
                docs, tfs = self.fresh.setdefault(term_id, ([], []))
                docs.append(position)
                tfs.append(float(freq))
            self.fresh_terms[position] = (term_ids, freqs)
        self.records.extend(records)
        if lengths:
            self.lengths = np.concatenate([self.lengths, np.asarray(lengths)])
            self.alive = np.concatenate([self.alive, np.ones(len(lengths), dtype=bool)])
            added = np.asarray(keys, dtype=np.uint64).T.reshape(3, len(keys))
            self.order = np.concatenate([self.order, added], axis=1)
        self.generation += 1

    def remove(self, note_ids: Iterable[str]) -> None:
        """Forget notes (deleted points)."""
        for note_id in note_ids:
            position = self.position_of(note_id)
            if position is not None:
                self.appended.pop(note_id, None)
                self._kill(position)
        self.generation += 1

    def _kill(self, position: int) -> None:
        self.live -= 1
        self.alive[position] = False
        self.records.kill(position)
        self.lengths[position] = 0.0
        fresh = self.fresh_terms.pop(position, None)
        if fresh is not None:  # drop it from the uncompacted postings too
            for term_id in fresh[0]:
                docs, tfs = self.fresh[term_id]
                where = docs.index(position)
                del docs[where]
                del tfs[where]

    @property
    def needs_compaction(self) -> bool:
        """True when enough was appended (or died) that rebuilding pays off."""
        dead = len(self.ids) - self.live
        return len(self.fresh_terms) > max(COMPACT_AFTER, len(self.ids) // 10) or dead > max(
            COMPACT_AFTER, len(self.ids) // 4
        )

    def compact(self) -> None:
        """Rebuild the arrays: live notes only, positions renumbered in store order."""
        if self.before_whole_read is not None:
            self.before_whole_read()
            self.before_whole_read = None  # the arrays are this process's own after this
        live_positions = np.flatnonzero(self.alive)
        keys = self.order[:, live_positions]
        live = live_positions[np.lexsort((keys[2], keys[1], keys[0]))].tolist()
        doc_terms: list[np.ndarray] = []
        doc_tfs: list[np.ndarray] = []
        for old in live:
            terms, tfs = self._terms_of(old)
            doc_terms.append(terms)
            doc_tfs.append(tfs)
        counts = np.asarray([len(t) for t in doc_terms], dtype=np.int64)
        self.doc_start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        self.doc_term = (
            np.concatenate(doc_terms).astype(np.int32) if doc_terms else np.zeros(0, np.int32)
        )
        self.doc_tf = (
            np.concatenate(doc_tfs).astype(np.float32) if doc_tfs else np.zeros(0, np.float32)
        )
        self.set_ids(IdColumn(self.ids.many(live)))
        self.snippets = self.snippets.take(np.asarray(live, dtype=np.int64))
        self.records = self.records.take(live)
        self.lengths = np.asarray([self.lengths[p] for p in live], dtype=np.float64)
        self.alive = np.ones(len(live), dtype=bool)
        self.order = self.order[:, live] if live else np.zeros((3, 0), dtype=np.uint64)
        self._build_postings()
        self.fresh = {}
        self.fresh_terms = {}
        self.generation += 1

    def _terms_of(self, position: int) -> tuple[np.ndarray, np.ndarray]:
        fresh = self.fresh_terms.get(position)
        if fresh is not None:
            return np.asarray(fresh[0], dtype=np.int32), np.asarray(fresh[1], dtype=np.float32)
        start, end = self.doc_start[position], self.doc_start[position + 1]
        return self.doc_term[start:end], self.doc_tf[start:end]

    def _build_postings(self) -> None:
        counts = np.diff(self.doc_start)
        docs = np.repeat(np.arange(len(counts), dtype=np.int32), counts)
        order = np.argsort(self.doc_term, kind="stable")
        self.post_doc = docs[order]
        self.post_tf = self.doc_tf[order]
        per_term = np.bincount(self.doc_term, minlength=len(self.terms))
        self.term_start = np.concatenate([[0], np.cumsum(per_term)]).astype(np.int64)

    def copy(self) -> NoteIndex:
        """A copy to patch while searches go on reading this one (the big arrays are
        shared: patching only ever replaces them, never writes into them)."""
        twin = NoteIndex()
        twin.__dict__.update(self.__dict__)
        twin.ids = self.ids.copy()
        twin.snippets = self.snippets.copy()
        twin.appended = dict(self.appended)
        twin.records = self.records.copy()
        twin.lengths = self.lengths.copy()
        twin.alive = self.alive.copy()
        twin.terms = list(self.terms)
        twin.term_id = dict(self.term_id)
        twin.fresh = {t: (list(d), list(f)) for t, (d, f) in self.fresh.items()}
        twin.fresh_terms = {p: (list(t), list(f)) for p, (t, f) in self.fresh_terms.items()}
        return twin

    def set_ids(self, ids: IdColumn) -> None:
        """Take ``ids`` as the ids of every position, in store order, all live."""
        self.ids = ids
        self.ordered = self.live = len(ids)
        self.appended = {}
        self.kind_spans = None

    # -------------------------------------------------------------- reading
    def position_of(self, note_id: str) -> int | None:
        """The live position of the note with this id, or None."""
        position = self.appended.get(note_id)
        if position is not None:
            return position
        return self._ordered_position(note_id, *order_key(note_id))

    def _kind_spans(self) -> tuple[int, int, int, int]:
        spans = self.kind_spans
        if spans is None:
            kinds = self.order[0, : self.ordered]
            bounds = np.searchsorted(kinds, np.asarray([1, 2], dtype=np.uint64)).tolist()
            spans = self.kind_spans = (0, bounds[0], bounds[1], self.ordered)
        return spans

    def _ordered_position(self, note_id: str, kind: int, high: int, low: int) -> int | None:
        spans = self._kind_spans()
        lo, hi = spans[kind], spans[kind + 1]
        # Integer ids differ in their low part alone; other ids almost always in their
        # high part already. One search over one row, then the few equal keys.
        row, value = (self.order[2], low) if kind == 0 else (self.order[1], high)
        at = lo + int(row[lo:hi].searchsorted(np.uint64(value)))
        lows = self.order[2]
        while at < hi and int(row[at]) == value:
            # Ids that share an order key (say, a UUID spelt in capitals) are told apart here.
            if int(lows[at]) == low and self.alive[at] and self.ids[at] == note_id:
                return at
            at += 1
        return None

    def positions_of(self, note_ids: Sequence[str]) -> np.ndarray:
        """The live position of each id, -1 for none (``position_of`` for many ids:
        one binary search per kind of id for them all)."""
        out = np.full(len(note_ids), -1, dtype=np.int64)
        rest: list[int] = []
        for i, note_id in enumerate(note_ids):
            position = self.appended.get(note_id)
            if position is None:
                rest.append(i)
            else:
                out[i] = position
        if not rest or not self.ordered:
            return out
        keys = np.asarray([order_key(note_ids[i]) for i in rest], dtype=np.uint64).reshape(-1, 3)
        spans = self._kind_spans()
        lows = self.order[2]
        for kind in (0, 1, 2):
            lo, hi = spans[kind], spans[kind + 1]
            chosen = np.flatnonzero(keys[:, 0] == kind)
            if not len(chosen) or lo == hi:
                continue
            column = 2 if kind == 0 else 1
            row, values = self.order[column], keys[chosen, column]
            at = lo + np.searchsorted(row[lo:hi], values)
            at_in = np.minimum(at, hi - 1)
            same = (at < hi) & (row[at_in] == values)
            hit = same & (lows[at_in] == keys[chosen, 2])
            for k, position, close, matched in zip(
                chosen.tolist(), at_in.tolist(), same.tolist(), hit.tolist(), strict=True
            ):
                note_id = note_ids[rest[k]]
                # The stored ids are spelt as the store spells them: a lookup spelt so
                # with the same key is the same id (the others are compared in full).
                if (
                    matched
                    and self.alive[position]
                    and (canonical(note_id) or self.ids[position] == note_id)
                ):
                    out[rest[k]] = position
                elif close:  # a key shared with another id: looked at one by one
                    found = self._ordered_position(note_id, kind, *keys[k, 1:].tolist())
                    out[rest[k]] = -1 if found is None else found
        return out

    def postings(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        """The live positions holding ``term`` and its frequency in each."""
        term_id = self.term_id.get(term)
        if term_id is None:
            return np.zeros(0, np.int64), np.zeros(0, np.float64)
        docs = np.zeros(0, np.int64)
        tfs = np.zeros(0, np.float64)
        if term_id + 1 < len(self.term_start):
            start, end = self.term_start[term_id], self.term_start[term_id + 1]
            docs = self.post_doc[start:end].astype(np.int64)
            tfs = self.post_tf[start:end].astype(np.float64)
            live = self.alive[docs]
            docs, tfs = docs[live], tfs[live]
        fresh = self.fresh.get(term_id)
        if fresh is not None and fresh[0]:
            docs = np.concatenate([docs, np.asarray(fresh[0], dtype=np.int64)])
            tfs = np.concatenate([tfs, np.asarray(fresh[1], dtype=np.float64)])
        return docs, tfs

    def record(self, note_id: str) -> AccessRecord | None:
        """The record of a live note, or None."""
        position = self.position_of(note_id)
        return self.records.get(position) if position is not None else None

    def consolidated_ids(self) -> list[str]:
        """Ids of live notes whose evolution history records a consolidation."""
        live = self.records.consolidated & (self.records.access >= 0)
        return self.ids.many(np.flatnonzero(live).tolist())

    def malformed_ids(self) -> list[str]:
        """Ids of live notes that read as malformed (no content or agent id, wrong types)."""
        codes = [code for code, key in enumerate(self.records.keys) if key[3]]
        if not codes:
            return []
        bad = np.isin(self.records.access, np.asarray(codes, dtype=np.int32))
        return self.ids.many(np.flatnonzero(bad).tolist())

    def most_retrieved(self, selection: Selection, limit: int) -> tuple[int, list[str]]:
        """Of a selection's notes: how many were never retrieved (``retrieval_count``
        below 1), and the ids of the ``limit`` most retrieved, most first (ties in the
        store's id order)."""
        counts = self.records.retrievals[selection.positions]
        retrieved = selection.positions[counts >= 1]
        never = len(selection.positions) - len(retrieved)
        values = self.records.retrievals[retrieved]
        keys = self.order[:, retrieved]
        best = retrieved[np.lexsort((keys[2], keys[1], keys[0], -values))][:limit]
        return never, self.ids.many(best.tolist())

    def select(self, keep: Keep) -> Selection:
        """The live notes whose record ``keep`` accepts.

        ``keep`` is a read rule: it judges a record by its access fields alone (see
        ``AccessRecord.access_key``), so it is asked once per distinct combination of
        them, not once per note.
        """
        positions = np.flatnonzero(self.records.accepted(keep)).astype(np.int64)
        if len(positions) and positions[-1] >= self.ordered:
            # Some were appended since the last compaction: sort them into store order.
            # (Compacted positions are in it already, and their order keys, 24 MB at a
            # million notes, need not be read: a cold start's first search reads them.)
            keys = self.order[:, positions]
            positions = positions[np.lexsort((keys[2], keys[1], keys[0]))]
        mask = np.zeros(len(self.ids), dtype=bool)
        mask[positions] = True
        average = float(self.lengths[positions].mean()) if len(positions) else 0.0
        return Selection(self, positions, mask, self.generation, average)

    def __len__(self) -> int:
        return self.live
