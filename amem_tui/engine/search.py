"""Search as an agent: what it finds, why it may see each hit, and what it cannot see.

The ranking has the shape of openclaw-amem's ``memory_search``, so the inspector
predicts what the agent itself recalls:

1. dense candidates: the ``n = min(max(4k, 20), total)`` nearest notes the agent
   may search (``total`` = how many it may search), cosine >= 0;
2. BM25 (k1 1.5, b 0.75) over content, keywords, tags and context of the notes
   the agent may search, keeping only notes that contain a query term;
3. reciprocal-rank fusion (k 60) of both rankings, times a small heat/recency
   boost (``retrieval_count``, ``last_accessed``), top k kept;
4. a 2-hop walk over ``links`` from those k notes, adding at most 8 notes, each
   with cosine >= 0.25 to the query. Every step applies the read rule: a note
   the agent may not read (or that is soft-deleted) is neither shown nor walked
   through.

Searching never writes: no ``retrieval_count`` or ``last_accessed`` bumps.

Hidden matches answer "why did it not recall that?": the best matches in the
agent's own collection that its scope leaves out, and in the other collections
this configuration knows (Mode B collections, or the shared collection for a
Mode B agent), each with the reason from :func:`scope.hidden_reason`.
"""

from __future__ import annotations

import copy
import math
import re
import threading
import weakref
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from amem_tui.engine import scope as rules
from amem_tui.engine.errors import InvalidInput, ModelUnavailable
from amem_tui.engine.models import (
    HiddenMatch,
    MemoryNote,
    SearchHit,
    SearchResult,
    parse_time,
)
from amem_tui.engine.scope import AgentScope, Filter
from amem_tui.engine.store.base import NoteStore, scan_points, store_order

if TYPE_CHECKING:
    from amem_tui.engine.engine import MemoryEngine

SearchMode = Literal["dense", "hybrid", "keyword"]
SEARCH_MODES: tuple[str, ...] = ("dense", "hybrid", "keyword")

BM25_K1 = 1.5
BM25_B = 0.75
RRF_K = 60
LINK_HOPS = 2
LINK_MAX_EXTRA = 8
LINK_MIN_SIMILARITY = 0.25
#: openclaw-amem asks Qdrant for dense candidates with ``score_threshold`` 0.
DENSE_MIN_SCORE = 0.0
HEAT_WEIGHT = 0.05

# openclaw-amem lowercases and takes ASCII word runs (a JavaScript ``\w``), so
# keyword matches here are the ones the agent's own BM25 finds.
_WORD = re.compile(r"\w+", re.ASCII)


# ---------------------------------------------------------------- BM25 parts
def tokenize(text: str) -> list[str]:
    """BM25 tokens: lowercased ASCII word runs."""
    return _WORD.findall(text.lower())


def searchable_text(note: MemoryNote) -> str:
    """The text BM25 indexes: content, keywords, tags and context."""
    return " ".join([note.content, *note.keywords, *note.tags, note.context])


@dataclass
class BM25Index:
    """Okapi BM25 over a fixed list of documents, with precomputed per-term gains.

    Each posting holds the gain one term adds to one document, so a query is a few
    array additions instead of a Python loop over every posting.
    """

    ids: list[str]
    #: term -> (document positions, the term's BM25 gain in each of those documents)
    postings: dict[str, tuple[np.ndarray, np.ndarray]]
    #: Each document's place in the store's id order, which breaks ties in scores.
    tie_order: np.ndarray

    @classmethod
    def build(cls, ids: Sequence[str], docs: Sequence[Sequence[str]]) -> BM25Index:
        """Index ``docs`` (token lists) under ``ids``."""
        per_term: dict[str, tuple[list[int], list[int]]] = {}
        for position, doc in enumerate(docs):
            for term, freq in Counter(doc).items():
                entry = per_term.get(term)
                if entry is None:
                    entry = per_term[term] = ([], [])
                entry[0].append(position)
                entry[1].append(freq)
        count = len(docs)
        lengths = np.array([len(doc) for doc in docs], dtype=np.float64)
        avgdl = (sum(len(doc) for doc in docs) / count if count else 0.0) or 1.0
        norm = BM25_K1 * (1 - BM25_B + BM25_B * lengths / avgdl)
        postings: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for term, (positions, freqs) in per_term.items():
            where = np.array(positions, dtype=np.int64)
            freq = np.array(freqs, dtype=np.float64)
            # The "+1" idf stays positive even for a term in every document.
            idf = math.log((count - len(positions) + 0.5) / (len(positions) + 0.5) + 1.0)
            postings[term] = (where, idf * freq * (BM25_K1 + 1) / (freq + norm[where]))
        ordered = sorted(range(count), key=lambda position: store_order(ids[position]))
        tie_order = np.empty(count, dtype=np.int64)
        tie_order[ordered] = np.arange(count)
        return cls(list(ids), postings, tie_order)

    def rank(
        self, query_tokens: Sequence[str], limit: int | None = None
    ) -> list[tuple[str, float]]:
        """Documents containing a query term, best first (ties in the store's id order).

        A query term given twice counts twice, as in openclaw-amem. ``limit`` keeps
        only the best ones (ties at the cut are broken the same way).
        """
        scores = np.zeros(len(self.ids), dtype=np.float64)
        for term in query_tokens:
            posting = self.postings.get(term)
            if posting is not None:
                scores[posting[0]] += posting[1]  # positions are unique within a term
        candidates = np.flatnonzero(scores > 0)
        if limit is not None and len(candidates) > limit:
            values = scores[candidates]
            cut = np.partition(values, len(values) - limit)[len(values) - limit]
            candidates = candidates[values >= cut]
        ties = self.tie_order[candidates]
        order = candidates[np.lexsort((ties, -scores[candidates]))][:limit]
        return [(self.ids[p], float(scores[p])) for p in order.tolist()]


def detached(note: MemoryNote) -> MemoryNote:
    """A copy of a cached note that a caller may change without touching the cache.

    Its lists and dicts are copied one level deep, which is all a caller edits, and
    far cheaper than a deep copy of every hit.
    """
    copied = note.model_copy()  # shallow; update= would mark every field as set
    for name, value in list(copied.__dict__.items()):
        if isinstance(value, list | dict):
            copied.__dict__[name] = copy.copy(value)
    return copied


def rrf_fuse(*rankings: Sequence[str], k: int = RRF_K) -> dict[str, float]:
    """Reciprocal-rank fusion: each list adds ``1 / (k + rank)`` (rank from 1)."""
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, doc_id in enumerate(ranking, start=1):
            fused[doc_id] = fused.get(doc_id, 0.0) + 1.0 / (k + rank)
    return fused


def heat_boost(note: MemoryNote, now: datetime) -> float:
    """openclaw-amem's small boost for notes retrieved often and lately (1.0 = none).

    ``1 + 0.05 * ln(1 + retrieval_count) / (age_days + 1)``, age from
    ``last_accessed`` (else ``timestamp``); knowledge notes are timeless.
    """
    if note.note_type == "knowledge" or note.retrieval_count <= 0:
        return 1.0
    seen = parse_time(note.last_accessed) or parse_time(note.timestamp)
    if seen is None:
        return 1.0
    if seen.tzinfo is None:
        seen = seen.replace(tzinfo=now.tzinfo)
    age_days = max((now - seen).total_seconds() / 86400.0, 0.0)
    return 1.0 + HEAT_WEIGHT * math.log1p(note.retrieval_count) / (age_days + 1.0)


def cosine(a: np.ndarray, b: Sequence[float] | np.ndarray | None) -> float | None:
    """Cosine similarity, or None when there is no usable vector."""
    if b is None:
        return None
    vec = np.asarray(b, dtype=np.float32)
    if vec.shape != a.shape:
        return None
    denom = float(np.linalg.norm(a) * np.linalg.norm(vec))
    return float(np.dot(a, vec) / denom) if denom else 0.0


# ------------------------------------------------------------- the note cache
@dataclass
class _Corpus:
    """Every note of one collection, parsed and tokenized once."""

    token: tuple[int, int]
    notes: list[MemoryNote]
    tokens: dict[str, list[str]]
    indexes: dict[tuple[str, ...], BM25Index] = field(default_factory=dict)
    #: The notes each selection key (scope and purpose) keeps, in store order.
    selections: dict[tuple[str, ...], list[MemoryNote]] = field(default_factory=dict)
    #: Each selection's notes by id.
    lookups: dict[tuple[str, ...], dict[str, MemoryNote]] = field(default_factory=dict)
    #: The rule each selection was made with, to patch it after a write.
    keepers: dict[tuple[str, ...], Callable[[MemoryNote], bool]] = field(default_factory=dict)

    def patched(self, token: tuple[int, int], fresh: dict[str, MemoryNote | None]) -> _Corpus:
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
        selections: dict[tuple[str, ...], list[MemoryNote]] = {}
        for key, selected in list(self.selections.items()):
            keep = self.keepers[key]
            patched = [n for n in selected if n.id not in fresh]
            patched.extend(n for n in fresh.values() if n is not None and keep(n))
            selections[key] = patched
        return _Corpus(token, kept, tokens, selections=selections, keepers=dict(self.keepers))


class NoteCache:
    """Notes per collection of one store, reused until the store is written.

    Only used for stores that only this process may write (embedded stores) and
    that count their writes (``write_generation``); anything else is re-read on
    every search, which is always correct.
    """

    #: Above this many changed points a full re-read is as cheap as patching.
    PATCH_LIMIT = 2048

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._corpora: dict[str, _Corpus] = {}
        #: One reader per collection at a time: a second search waits for the first
        #: one's read instead of reading the same collection again beside it.
        self._readers: dict[str, threading.Lock] = {}

    @staticmethod
    def usable(store: NoteStore) -> bool:
        """True when a cached copy of this store cannot go stale unseen."""
        return bool(getattr(store, "embedded", False)) and isinstance(
            getattr(store, "write_generation", None), int
        )

    def corpus(
        self,
        store: NoteStore,
        collection: str,
        points_count: int,
        read: Callable[[str, dict[str, Any]], MemoryNote] = MemoryNote.from_payload,
    ) -> _Corpus:
        """The whole collection, from the cache when nothing was written since.

        ``read`` turns a point into a note (a mem0 memory reads as a note view).
        """
        with self._lock:
            reader = self._readers.setdefault(collection, threading.Lock())
        with reader:
            token = (int(getattr(store, "write_generation", 0)), points_count)
            with self._lock:
                found = self._corpora.get(collection)
            if found is not None and found.token == token:
                return found
            corpus = self._catch_up(store, collection, found, token, read)
            if corpus is None:
                # Streamed page by page: the payloads never all sit in memory at once.
                notes = [read(p.id, p.payload) for p in scan_points(store, collection)]
                corpus = _Corpus(
                    token=token,
                    notes=notes,
                    tokens={n.id: tokenize(searchable_text(n)) for n in notes},
                )
            with self._lock:
                self._corpora[collection] = corpus
            return corpus

    def _catch_up(
        self,
        store: NoteStore,
        collection: str,
        found: _Corpus | None,
        token: tuple[int, int],
        read: Callable[[str, dict[str, Any]], MemoryNote],
    ) -> _Corpus | None:
        """``found`` patched with the points written since it was read, or None."""
        changes = getattr(store, "changes", None)
        if found is None or changes is None:
            return None
        changed = changes.since(collection, found.token[0])
        if changed is None or len(changed) > self.PATCH_LIMIT:
            return None
        fresh: dict[str, MemoryNote | None] = dict.fromkeys(changed)
        for point in store.retrieve(collection, sorted(changed)):
            fresh[point.id] = read(point.id, point.payload)
        return found.patched(token, fresh)


_CACHES: weakref.WeakKeyDictionary[object, NoteCache] = weakref.WeakKeyDictionary()
_CACHES_LOCK = threading.Lock()


def _cache_for(store: NoteStore) -> NoteCache | None:
    if not NoteCache.usable(store):
        return None
    with _CACHES_LOCK:
        cache = _CACHES.get(store)
        if cache is None:
            cache = NoteCache()
            _CACHES[store] = cache
        return cache


@dataclass
class _NoteSet:
    """Notes selected from one collection, with their BM25 index built on demand."""

    notes: list[MemoryNote]
    tokens: Callable[[MemoryNote], Sequence[str]]
    index_cache: dict[tuple[str, ...], BM25Index] | None
    key: tuple[str, ...]
    lookup_cache: dict[tuple[str, ...], dict[str, MemoryNote]] | None = None

    def by_id(self) -> dict[str, MemoryNote]:
        """The selected notes by id (built once per cached selection)."""
        if self.lookup_cache is not None and self.key in self.lookup_cache:
            return self.lookup_cache[self.key]
        lookup = {n.id: n for n in self.notes}
        if self.lookup_cache is not None:
            self.lookup_cache[self.key] = lookup
        return lookup

    def bm25(self) -> BM25Index:
        if self.index_cache is not None and self.key in self.index_cache:
            return self.index_cache[self.key]
        index = BM25Index.build([n.id for n in self.notes], [self.tokens(n) for n in self.notes])
        if self.index_cache is not None:
            self.index_cache[self.key] = index
        return index


def _select(
    engine: MemoryEngine,
    collection: str,
    points_count: int,
    flt: Filter | None,
    keep: Callable[[MemoryNote], bool],
    key: tuple[str, ...],
) -> _NoteSet:
    """The notes of ``collection`` that ``keep`` accepts, in the store's order.

    With a cache the selection is made in memory; without one the store filters
    with ``flt`` (the same rule, as a query) and ``keep`` checks again.
    """
    cache = _cache_for(engine.store)

    def read(point_id: str, payload: dict[str, Any]) -> MemoryNote:
        return engine.note_from_point(collection, point_id, payload)

    if cache is not None:
        corpus = cache.corpus(engine.store, collection, points_count, read)
        notes = corpus.selections.get(key)
        if notes is None:  # the key names the scope and purpose, so keep() is fixed by it
            notes = [n for n in corpus.notes if keep(n)]
            corpus.keepers[key] = keep
            corpus.selections[key] = notes
        return _NoteSet(notes, lambda n: corpus.tokens[n.id], corpus.indexes, key, corpus.lookups)
    notes = [
        note
        for note in (read(p.id, p.payload) for p in scan_points(engine.store, collection, flt))
        if keep(note)
    ]
    return _NoteSet(notes, lambda n: tokenize(searchable_text(n)), None, key)


# ------------------------------------------------------------------ searching
def resolve_search_scope(
    engine: MemoryEngine, agent: str | AgentScope | None, session_key: str | None
) -> tuple[AgentScope, str | None]:
    """The scope a search runs as, and the session key it came from (if any).

    An explicit agent wins; a session key ``agent:<id>:<rest>`` resolves to
    ``<id>`` as openclaw-amem resolves it. An agent given as a session key is
    read as one.
    """
    if isinstance(agent, AgentScope):
        return agent, None
    if isinstance(agent, str) and agent.startswith("agent:"):
        if rules.agent_from_session_key(agent) is None:
            raise InvalidInput(f"not a session key of the form agent:<id>:<rest>: {agent!r}")
        session_key, agent = agent, None
    if agent is None and session_key:
        name = rules.resolve_agent(None, session_key, engine.settings.default_agent)
        return engine.scope(name), session_key
    if agent is None and not engine.settings.agent and engine.settings.session_key:
        # No agent named anywhere: the configured session key decides, so say so.
        return engine.scope(None), engine.settings.session_key
    return engine.scope(agent), None


def search(
    engine: MemoryEngine,
    scope: AgentScope,
    query: str,
    *,
    limit: int = 10,
    mode: SearchMode = "hybrid",
    hidden: bool = False,
    exact: bool = True,
    links: bool = True,
    session_key: str | None = None,
) -> SearchResult:
    """What ``scope`` finds for ``query``, best first, explained; changes nothing."""
    _check_mode(mode)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InvalidInput("the search limit must be a positive integer")
    result = SearchResult(
        agent=scope.agent,
        mode=scope.mode,
        collection=scope.collection,
        query=query,
        hits=[],
        exact=exact,
        search_mode=mode,
        session_key=session_key,
    )
    if not query.strip():
        return result
    notices: list[str] = []
    vector = _query_vector(engine, scope.collection, query, mode, notices)
    if vector is None and mode != "keyword":
        result.search_mode = "keyword"
        result.exact = True  # BM25 scores every note the agent can search
    info = engine.store.collection_info(scope.collection)
    if info is not None:
        _rank(engine, scope, query, vector, result, limit, exact, info.points_count)
        if links and vector is not None and result.hits:
            _walk_links(engine, scope, vector, result)
    if hidden:
        result.hidden = _hidden(engine, scope, query, vector, limit, notices, mode, exact)
    result.notice = " ".join(notices) or None
    return result


def hidden_matches(
    engine: MemoryEngine,
    scope: AgentScope,
    query: str,
    *,
    limit: int = 10,
    mode: SearchMode = "hybrid",
    exact: bool = True,
) -> tuple[list[HiddenMatch], str | None]:
    """Only what ``search(..., hidden=True)`` adds: the hidden matches, and a notice.

    For an app that shows the hits first and the hidden matches a moment later.
    """
    _check_mode(mode)
    if not query.strip():
        return [], None
    notices: list[str] = []
    vector = _query_vector(engine, scope.collection, query, mode, notices)
    found = _hidden(engine, scope, query, vector, limit, notices, mode, exact)
    return found, " ".join(notices) or None


def _check_mode(mode: str) -> None:
    if mode not in SEARCH_MODES:
        raise InvalidInput(f"unknown search mode {mode!r}: use dense or hybrid")


def prepare(engine: MemoryEngine, scope: AgentScope) -> None:
    """Fill the caches a search of ``scope`` reads: the notes it may search, the ones
    hidden from it, and their keyword indexes (a keyword search builds them all)."""
    if _cache_for(engine.store) is None:
        return
    search(engine, scope, "warm", mode="keyword", hidden=True, links=False)


def _visible_notes(engine: MemoryEngine, scope: AgentScope, points_count: int) -> _NoteSet:
    """The notes ``scope`` may search (its read rule), cached where the store allows."""

    def visible(note: MemoryNote) -> bool:
        return rules.visible_because(scope, note) is not None

    read = engine.read_filter(scope)
    return _select(engine, scope.collection, points_count, read, visible, _key(scope, "visible"))


def _query_vector(
    engine: MemoryEngine, collection: str, query: str, mode: SearchMode, notices: list[str]
) -> np.ndarray | None:
    """The query's vector, or None (with a notice) when no usable model is at hand."""
    if mode == "keyword":
        return None
    try:
        embedder = engine.embedder_for(collection)
        if embedder is None:  # built by a model we cannot run here: say so
            notices.append(
                f"No usable embedding model ({engine.model_status(collection)[1]}): "
                "keyword-only (BM25) search."
            )
            return None
        return np.asarray(embedder.embed_query(query), dtype=np.float32)
    except ModelUnavailable as exc:  # ModelMismatch included
        notices.append(f"No usable embedding model ({exc}): keyword-only (BM25) search.")
        return None


def _rank(
    engine: MemoryEngine,
    scope: AgentScope,
    query: str,
    vector: np.ndarray | None,
    result: SearchResult,
    limit: int,
    exact: bool,
    points_count: int,
) -> None:
    """Fill ``result.hits`` with the top ``limit`` matches."""
    store = engine.store
    read = engine.read_filter(scope)
    if result.search_mode == "dense":
        assert vector is not None
        points = store.search(scope.collection, vector.tolist(), read, limit, exact=exact)
        rank = 0
        for point in points:
            if point.score < DENSE_MIN_SCORE:
                break
            note = engine.note_from_point(scope.collection, point.id, point.payload)
            because = rules.visible_because(scope, note)
            if because is None:  # the filter and the rule disagree: never show it
                continue
            rank += 1
            result.hits.append(
                SearchHit(
                    note=note,
                    score=point.score,
                    similarity=point.score,
                    dense_rank=rank,
                    because=because,
                )
            )
        result.candidates = len(points)
        return

    chosen = _visible_notes(engine, scope, points_count)
    notes = chosen.by_id()
    result.total = len(chosen.notes)
    tokens = tokenize(query)
    if result.search_mode == "keyword":
        ranked = chosen.bm25().rank(tokens, limit)
        result.candidates = len(ranked)
        for rank, (note_id, score) in enumerate(ranked, start=1):
            note = notes[note_id]
            because = rules.visible_because(scope, note)
            assert because is not None
            result.hits.append(
                SearchHit(
                    note=detached(note),
                    score=score,
                    bm25_rank=rank,
                    bm25_score=score,
                    because=because,
                )
            )
        return

    assert vector is not None
    n = min(max(4 * limit, 20), result.total)
    similarity: dict[str, float] = {}
    dense_ids: list[str] = []
    if n > 0:
        # The selection holds every note the agent may search, so the store need not
        # send payloads; a point it lacks was written after the selection was read.
        found = store.search(
            scope.collection, vector.tolist(), read, n, exact=exact, with_payload=False
        )
        for point in found:
            if point.score < DENSE_MIN_SCORE:
                break
            if point.id not in notes:
                continue
            dense_ids.append(point.id)
            similarity[point.id] = point.score
    bm25 = chosen.bm25().rank(tokens, n)
    bm25_ids = [note_id for note_id, _ in bm25]
    result.candidates = max(len(dense_ids), len(bm25_ids))
    fused = rrf_fuse(dense_ids, bm25_ids)
    now = engine.clock()
    boosts = {note_id: heat_boost(notes[note_id], now) for note_id in fused}
    order = sorted(fused, key=lambda note_id: -fused[note_id] * boosts[note_id])[:limit]
    # A match found by BM25 alone still has a cosine; measure it from its vector.
    missing = [note_id for note_id in order if note_id not in similarity]
    if missing:
        for note_id, vec in engine.vectors_of(scope.collection, missing).items():
            sim = cosine(vector, vec)
            if sim is not None:
                similarity[note_id] = sim
    dense_rank = {note_id: i for i, note_id in enumerate(dense_ids, start=1)}
    bm25_rank = {note_id: i for i, note_id in enumerate(bm25_ids, start=1)}
    bm25_score = dict(bm25)
    for note_id in order:
        note = notes[note_id]
        because = rules.visible_because(scope, note)
        assert because is not None
        result.hits.append(
            SearchHit(
                note=detached(note),
                score=fused[note_id] * boosts[note_id],
                similarity=similarity.get(note_id),
                bm25_rank=bm25_rank.get(note_id),
                bm25_score=bm25_score.get(note_id),
                dense_rank=dense_rank.get(note_id),
                rrf=fused[note_id],
                boost=boosts[note_id],
                because=because,
            )
        )


def _walk_links(
    engine: MemoryEngine, scope: AgentScope, vector: np.ndarray, result: SearchResult
) -> None:
    """Append up to 8 notes linked (within 2 hops) from the matches.

    Each step applies the read rule and the search rule: a note the agent may
    not read, or a soft-deleted one, is skipped and never walked through.
    """
    by_id = {hit.note.id: hit.note for hit in result.hits}
    visited = set(by_id)
    queue: deque[tuple[str, int]] = deque((hit.note.id, 0) for hit in result.hits)
    extra: list[SearchHit] = []
    while queue and len(extra) < LINK_MAX_EXTRA:
        source_id, hop = queue.popleft()
        if hop >= LINK_HOPS:
            continue
        source = by_id[source_id]
        wanted = [link for link in dict.fromkeys(source.links) if link not in visited]
        if not wanted:
            continue
        fetched = {
            p.id: p for p in engine.store.retrieve(scope.collection, wanted, with_vectors=True)
        }
        for link in wanted:
            visited.add(link)
            point = fetched.get(link)
            if point is None:
                continue
            target = engine.note_from_point(scope.collection, point.id, point.payload)
            if not rules.can_read(scope, target, scope.collection):
                continue
            because = rules.visible_because(scope, target)
            if because is None:
                continue
            sim = cosine(vector, point.vector)
            if sim is None or sim < LINK_MIN_SIMILARITY:
                continue
            by_id[target.id] = target
            extra.append(
                SearchHit(
                    note=target,
                    score=sim if result.search_mode == "dense" else 0.0,
                    similarity=sim,
                    via="link",
                    via_note=source_id,
                    hop=hop + 1,
                    because=because,
                )
            )
            queue.append((target.id, hop + 1))
            if len(extra) >= LINK_MAX_EXTRA:
                break
    result.hits.extend(extra)


# --------------------------------------------------------------------- hidden
def _hidden(
    engine: MemoryEngine,
    scope: AgentScope,
    query: str,
    vector: np.ndarray | None,
    limit: int,
    notices: list[str],
    mode: SearchMode,
    exact: bool = True,
) -> list[HiddenMatch]:
    """The best matches the agent cannot see, across the collections we know.

    Ranked the way hits are, among the notes hidden in each collection: fused
    dense + BM25 ranks (hybrid), cosine (dense) or BM25 (keyword, or without a
    query vector).
    """
    fused = mode == "hybrid" and vector is not None
    dedicated = engine.settings.dedicated_collections()
    collections = [scope.collection]
    for name in [engine.shared_collection, *sorted(set(dedicated.values()))]:
        if name not in collections:
            collections.append(name)
    found: list[HiddenMatch] = []
    vectors: dict[int, np.ndarray] = {}
    if vector is not None:  # the query is embedded once per model, the hits' one included
        own_model = engine.embedder_for(scope.collection)
        if own_model is not None:
            vectors[id(own_model)] = vector
    tokens = tokenize(query)
    for collection in collections:
        info = engine.store.collection_info(collection)
        if info is None or info.points_count == 0:
            continue
        own = collection == scope.collection
        # The hidden filter speaks openclaw-amem fields; a mem0 view is judged by keep().
        mem0 = engine.collection_format(collection) == "mem0"
        flt = rules.hidden_filter(scope) if own and not mem0 else None

        def keep(note: MemoryNote, own: bool = own) -> bool:
            return not own or rules.visible_because(scope, note) is None

        def hidden_notes(
            collection: str = collection,
            flt: Filter | None = flt,
            own: bool = own,
            count: int = info.points_count,
        ) -> _NoteSet:
            key = _key(scope, "hidden") if own else ("all",)
            return _select(engine, collection, count, flt, keep, key)

        scored: list[tuple[MemoryNote, float, float | None]] = []
        if vector is None:
            chosen = hidden_notes()
            by_id = chosen.by_id()
            ranked = chosen.bm25().rank(tokens, limit)
            scored = [(by_id[i], s, None) for i, s in ranked]
        else:
            try:
                # Each collection is searched with the model that built it.
                embedder = engine.embedder_for(collection)
                if embedder is None:
                    raise ModelUnavailable("it was built by another model")
                key = id(embedder)
                if key not in vectors:
                    vectors[key] = np.asarray(embedder.embed_query(query), dtype=np.float32)
            except ModelUnavailable as exc:
                notices.append(f"Hidden matches in '{collection}' not checked: {exc}.")
                continue
            query_vector = vectors[key]
            if fused:
                scored = _fused_hidden(
                    engine, collection, query_vector, tokens, hidden_notes(), flt, limit, exact
                )
            else:
                vec = query_vector.tolist()
                for point in engine.store.search(collection, vec, flt, limit, exact=exact):
                    note = engine.note_from_point(collection, point.id, point.payload)
                    # A cosine at or below zero is no match at all, hidden or not.
                    if point.score > 0 and keep(note):
                        scored.append((note, point.score, point.score))
        for note, score, similarity in scored:
            kind, reason = rules.hidden_reason(scope, note, collection, dedicated)
            found.append(
                HiddenMatch(
                    id=note.id,
                    reason=reason,
                    kind=kind,
                    owner=note.effective_owner,
                    agent_id=note.agent_id,
                    collection=collection,
                    score=score,
                    similarity=similarity,
                )
            )
    found.sort(key=lambda h: -h.score)
    return found[:limit]


def _fused_hidden(
    engine: MemoryEngine,
    collection: str,
    vector: np.ndarray,
    tokens: list[str],
    chosen: _NoteSet,
    flt: Filter | None,
    limit: int,
    exact: bool = True,
) -> list[tuple[MemoryNote, float, float | None]]:
    """Hidden notes of one collection ranked as hits are: dense + BM25, fused."""
    notes = chosen.by_id()
    n = min(max(4 * limit, 20), len(notes))
    if n == 0:
        return []
    similarity: dict[str, float] = {}
    dense: list[str] = []
    # Without a filter (another agent's collection, a mem0 view) the store may
    # also return notes that are not hidden: ask for enough to still fill n.
    wanted = n if flt is not None else min(n + len(notes), 4 * n)
    found = engine.store.search(
        collection, vector.tolist(), flt, wanted, exact=exact, with_payload=False
    )
    for point in found:
        if point.score < DENSE_MIN_SCORE or len(dense) >= n:
            break
        if point.id in notes:
            dense.append(point.id)
            similarity[point.id] = point.score
    bm25 = [note_id for note_id, _ in chosen.bm25().rank(tokens, n)]
    fused = rrf_fuse(dense, bm25)
    order = sorted(fused, key=lambda i: -fused[i])[:limit]
    missing = [i for i in order if i not in similarity]
    if missing:
        for note_id, vec in engine.vectors_of(collection, missing).items():
            sim = cosine(vector, vec)
            if sim is not None:
                similarity[note_id] = sim
    return [(notes[i], fused[i], similarity.get(i)) for i in order]


# ---------------------------------------------------------------- explaining
_BECAUSE = {
    "private": "its own private note",
    "shared": "a shared note",
    "reader": "it is named in the note's readers",
    "collection": "the note is in its Mode B collection",
}


def explain_hit(hit: SearchHit) -> str:
    """One line saying how a hit ranked and why the agent may see it."""
    parts: list[str] = []
    if hit.via == "link":
        parts.append(f"linked from {hit.via_note} ({hit.hop} hop{'s' if hit.hop != 1 else ''})")
    else:
        parts.append("match")
    if hit.similarity is not None:
        rank = f" (dense #{hit.dense_rank})" if hit.dense_rank else ""
        parts.append(f"cosine {hit.similarity:.3f}{rank}")
    if hit.bm25_rank is not None:
        parts.append(f"BM25 #{hit.bm25_rank} ({hit.bm25_score or 0:.2f})")
    elif hit.rrf is not None:
        parts.append("no keyword match")
    if hit.rrf is not None:
        heat = hit.boost or 1.0
        boost = f" x heat {heat:.3f}" if abs(heat - 1.0) >= 5e-4 else ""
        parts.append(f"fused {hit.rrf:.4f}{boost}")
    parts.append(f"visible: {_BECAUSE[hit.because]}")
    return "; ".join(parts)


def _key(scope: AgentScope, which: str) -> tuple[str, ...]:
    return (which, scope.agent, scope.mode, scope.collection)


def hit_ids(result: SearchResult) -> list[str]:
    """The ids of a result's hits, in order (a convenience for scripts and tests)."""
    return [hit.note.id for hit in result.hits]
