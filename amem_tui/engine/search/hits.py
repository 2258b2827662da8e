"""The agent's own hits: dense candidates, BM25, fusion, and the walk over links.

1. dense candidates: the ``n = min(max(4k, 20), total)`` nearest notes the agent
   may search (``total`` = how many it may search), cosine >= 0;
2. BM25 over the notes the agent may search, keeping only notes with a query term;
3. reciprocal-rank fusion of both rankings, times a small heat/recency boost (the
   dense candidates' as openclaw-amem's own retrieval bump leaves them), top k kept;
4. a 2-hop walk over ``links`` from those k notes, adding at most 8 notes, each
   with cosine >= 0.25 to the query, through the notes the agent's search may
   return only (as openclaw-amem walks the listing its agent filter gives).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from datetime import datetime

import numpy as np

from amem_tui.engine.errors import SearchStopped
from amem_tui.engine.index import Selection
from amem_tui.engine.keywords import searchable_text, tokenize
from amem_tui.engine.models import NoteAccess
from amem_tui.engine.search.narrowing import about_subject, dense_filter, walks_to
from amem_tui.engine.search.ranking import (
    DENSE_MIN_SCORE,
    LINK_HOPS,
    LINK_MAX_EXTRA,
    LINK_MIN_SIMILARITY,
    cosine,
    dense_candidates,
    heat_boost,
    rrf_fuse,
)
from amem_tui.engine.search.space import SearchSpace, selection_key
from amem_tui.engine.search_results import SearchHit, SearchResult


def visible_selection(space: SearchSpace, points_count: int) -> Selection:
    """The notes the agent may search (its read rule), from the note index where kept."""
    scope, own = space.scope, space.own

    def visible(note: NoteAccess) -> bool:
        return own.visible_because(scope, note) is not None

    return own.index.select(
        own.read_filter(scope), visible, selection_key(scope, "visible"), points_count
    )


def stop_if_asked(stop: Callable[[], bool] | None) -> None:
    """Raise ``SearchStopped`` when the caller no longer wants the answer."""
    if stop is not None and stop():
        raise SearchStopped("the search was stopped: its answer is no longer wanted")


def rank(
    space: SearchSpace,
    query: str,
    vector: np.ndarray | None,
    result: SearchResult,
    limit: int,
    exact: bool,
    points_count: int,
    now: datetime,
    stop: Callable[[], bool] | None = None,
) -> None:
    """Fill ``result.hits`` with the top ``limit`` matches (``stop``: see ``search``)."""
    if result.search_mode == "dense":
        assert vector is not None
        _rank_dense(space, vector, result, limit, exact)
        return
    every = visible_selection(space, points_count)
    chosen = about_subject(space, every)
    result.total = chosen.count
    if result.search_mode == "keyword":
        _rank_keywords(space, chosen, query, result, limit)
        return
    assert vector is not None
    # openclaw-amem counts its dense candidates over every note the agent may search,
    # a subject or not.
    n = dense_candidates(limit, every.count)
    _rank_hybrid(space, chosen, n, query, vector, result, limit, exact, now, stop)


def _rank_dense(
    space: SearchSpace, vector: np.ndarray, result: SearchResult, limit: int, exact: bool
) -> None:
    scope, own = space.scope, space.own
    points = own.store.search(own.name, vector.tolist(), dense_filter(space), limit, exact=exact)
    position = 0
    for point in points:
        if point.score < DENSE_MIN_SCORE:
            break
        note = own.note(point.id, point.payload)
        because = own.visible_because(scope, note)
        if because is None:  # the filter and the rule disagree: never show it
            continue
        position += 1
        result.hits.append(
            SearchHit(
                note=note,
                score=point.score,
                similarity=point.score,
                dense_rank=position,
                because=because,
            )
        )
    result.candidates = len(points)


def _rank_keywords(
    space: SearchSpace, chosen: Selection, query: str, result: SearchResult, limit: int
) -> None:
    ranked = chosen.rank(tokenize(query), limit)
    result.candidates = len(ranked)
    notes = space.own.fetch(note_id for note_id, _ in ranked)
    position = 0
    for note_id, score in ranked:
        note = notes.get(note_id)
        because = space.own.visible_because(space.scope, note) if note is not None else None
        if note is None or because is None:  # changed since the index read it
            continue
        position += 1
        result.hits.append(
            SearchHit(
                note=note,
                score=score,
                bm25_rank=position,
                bm25_score=score,
                because=because,
            )
        )


def _rank_hybrid(
    space: SearchSpace,
    chosen: Selection,
    n: int,
    query: str,
    vector: np.ndarray,
    result: SearchResult,
    limit: int,
    exact: bool,
    now: datetime,
    stop: Callable[[], bool] | None,
) -> None:
    scope, own = space.scope, space.own
    similarity: dict[str, float] = {}
    dense_ids: list[str] = []
    if n > 0:
        # The selection knows every note the agent may search, so the store need not
        # send payloads; a point it lacks was written after the index was read.
        found = own.store.search(
            own.name, vector.tolist(), dense_filter(space), n, exact=exact, with_payload=False
        )
        found = [p for p in found if p.score >= DENSE_MIN_SCORE]  # in score order
        for point, kept in zip(found, chosen.kept([p.id for p in found]), strict=True):
            if kept:
                dense_ids.append(point.id)
                similarity[point.id] = point.score
    bm25 = chosen.rank(tokenize(query), n)
    bm25_ids = [note_id for note_id, _ in bm25]
    result.candidates = max(len(dense_ids), len(bm25_ids))
    fused = rrf_fuse(dense_ids, bm25_ids)
    index = chosen.index
    boosts: dict[str, float] = {}
    fused_ids = list(fused)
    for note_id, position in zip(fused_ids, index.positions_of(fused_ids).tolist(), strict=True):
        record = index.records.get(position) if position >= 0 else None
        # A dense candidate is boosted as openclaw-amem sees it after its own bump.
        retrieved = note_id in similarity
        boosts[note_id] = heat_boost(record, now, retrieved) if record is not None else 1.0
    order = sorted(fused, key=lambda note_id: -fused[note_id] * boosts[note_id])[:limit]
    stop_if_asked(stop)  # reading the notes is the dearest stage left
    notes = own.fetch(order)
    # A match found by BM25 alone still has a cosine, measured from its stored vector;
    # the dense matches have theirs, so only the others' vectors are read (in an app,
    # every float the store hands back is made while the interface thread waits).
    for note_id, vec in own.vectors_of(i for i in order if i not in similarity).items():
        sim = cosine(vector, vec)
        if sim is not None:
            similarity[note_id] = sim
    dense_rank = {note_id: i for i, note_id in enumerate(dense_ids, start=1)}
    bm25_rank = {note_id: i for i, note_id in enumerate(bm25_ids, start=1)}
    bm25_score = dict(bm25)
    for note_id in order:
        note = notes.get(note_id)
        because = own.visible_because(scope, note) if note is not None else None
        if note is None or because is None:  # changed since the index read it
            continue
        result.hits.append(
            SearchHit(
                note=note,
                score=fused[note_id] * boosts[note_id],
                similarity=similarity.get(note_id),
                bm25_rank=bm25_rank.get(note_id),
                bm25_score=bm25_score.get(note_id),
                dense_rank=dense_rank.get(note_id),
                rrf=fused[note_id] * boosts[note_id],
                fused=fused[note_id],
                boost=boosts[note_id],
                because=because,
            )
        )


def mark_matched_terms(result: SearchResult, query: str) -> None:
    """Note on each hit which of the query's words its searchable text holds."""
    wanted = list(dict.fromkeys(tokenize(query)))
    if not wanted:
        return
    for hit in result.hits:
        present = set(tokenize(searchable_text(hit.note)))
        hit.matched_terms = [term for term in wanted if term in present]


def walk_links(space: SearchSpace, vector: np.ndarray, result: SearchResult) -> None:
    """Append up to 8 notes linked (within 2 hops) from the matches.

    Each step applies the search rule, as openclaw-amem walks only the notes its
    agent filter lists: a note outside it (another agent's, one the agent reads only
    by id, a soft-deleted one) is skipped and never walked through.
    """
    scope, own = space.scope, space.own
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
        fetched = {p.id: p for p in own.store.retrieve(own.name, wanted, with_vectors=True)}
        for link in wanted:
            visited.add(link)
            point = fetched.get(link)
            if point is None:
                continue
            target = own.note(point.id, point.payload)
            # openclaw-amem walks the notes its agent filter lists (not its read-by-id
            # rule): a link to a note the agent only reads by id is not followed.
            because = own.visible_because(scope, target)
            if because is None or not walks_to(space, target):
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
