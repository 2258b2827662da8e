"""Hidden matches: the best matches an agent cannot see, and why it cannot.

They answer "why did it not recall that?": the best matches in the agent's own
collection that its scope leaves out, and in the other collections this
configuration knows (Mode B collections, or the shared collection for a Mode B
agent), each with the reason from ``amem_tui.engine.scope.hidden_reason``.
They are ranked the way hits are, among the hidden notes of each collection:
fused dense + BM25 ranks (hybrid), cosine (dense) or BM25 (keyword, or without a
query vector).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from amem_tui.engine.collections import CollectionService
from amem_tui.engine.errors import ModelUnavailable
from amem_tui.engine.index import Selection
from amem_tui.engine.keywords import tokenize
from amem_tui.engine.models import MemoryNote, NoteAccess
from amem_tui.engine.search.ranking import (
    DENSE_MIN_SCORE,
    SearchMode,
    cosine,
    dense_candidates,
    rrf_fuse,
    scans_exactly,
)
from amem_tui.engine.search.space import SearchSpace, selection_key
from amem_tui.engine.search_results import HiddenMatch
from amem_tui.engine.store.filters import Filter


@dataclass(frozen=True)
class Scored:
    """One hidden match before it gets its reason: its note, its score, and what
    decided the score (its cosine, its rank by meaning and by words)."""

    note: MemoryNote
    score: float
    similarity: float | None = None
    dense_rank: int | None = None
    bm25_rank: int | None = None


def hidden_matches(
    space: SearchSpace,
    query: str,
    vector: np.ndarray | None,
    limit: int,
    notices: list[str],
    mode: SearchMode,
    exact: bool | None = None,
) -> list[HiddenMatch]:
    """The best matches the agent cannot see, across the collections of ``space``
    (``exact``: as ``search`` takes it)."""
    scope = space.scope
    fused = mode == "hybrid" and vector is not None
    found: list[HiddenMatch] = []
    vectors: dict[int, np.ndarray] = {}
    if vector is not None:  # the query is embedded once per model, the hits' one included
        own_model = space.own.model.embedder()
        if own_model is not None:
            vectors[id(own_model)] = vector
    tokens = tokenize(query)
    for service in space.collections:
        info = service.info()
        if info is None or info.points_count == 0:
            continue
        own = service is space.own
        # Without a filter (another collection, a mem0 view) keep() judges each note.
        flt = service.hidden_filter(scope) if own else None

        def keep(note: NoteAccess, own: bool = own, service: CollectionService = service) -> bool:
            return not own or service.visible_because(scope, note) is None

        key = selection_key(scope, "hidden") if own else ("all",)
        scored: list[Scored]
        if vector is None:
            chosen = service.index.select(flt, keep, key, info.points_count)
            ranked = chosen.rank(tokens, limit)
            notes = service.fetch(note_id for note_id, _ in ranked)
            scored = [
                Scored(notes[i], s, bm25_rank=rank)
                for rank, (i, s) in enumerate(ranked, start=1)
                if i in notes
            ]
        else:
            try:
                # Each collection is searched with the model that built it.
                embedder = service.model.embedder()
                if embedder is None:
                    raise ModelUnavailable("it was built by another model")
                model = id(embedder)
                if model not in vectors:
                    vectors[model] = np.asarray(embedder.embed_query(query), dtype=np.float32)
            except ModelUnavailable as exc:
                notices.append(f"Hidden matches in '{service.name}' not checked: {exc}.")
                continue
            scan = scans_exactly(exact, info.points_count)
            if fused:
                chosen = service.index.select(flt, keep, key, info.points_count)
                scored = _fused(service, vectors[model], tokens, chosen, flt, limit, scan)
            else:
                scored = _dense(service, vectors[model], flt, keep, limit, scan)
        # A note changed since the index read it is judged as it is now.
        for entry in scored:
            note = entry.note
            if not keep(note):
                continue
            kind, reason = service.hidden_reason(scope, note, space.dedicated)
            found.append(
                HiddenMatch(
                    id=note.id,
                    reason=reason,
                    kind=kind,
                    owner=note.effective_owner,
                    agent_id=note.agent_id,
                    collection=service.name,
                    score=entry.score,
                    similarity=entry.similarity,
                    dense_rank=entry.dense_rank,
                    bm25_rank=entry.bm25_rank,
                )
            )
    found.sort(key=lambda h: -h.score)
    return found[:limit]


def _dense(
    service: CollectionService,
    vector: np.ndarray,
    flt: Filter | None,
    keep: Callable[[MemoryNote], bool],
    limit: int,
    exact: bool,
) -> list[Scored]:
    scored: list[Scored] = []
    for point in service.store.search(service.name, vector.tolist(), flt, limit, exact=exact):
        note = service.note(point.id, point.payload)
        # A cosine at or below zero is no match at all, hidden or not.
        if point.score > 0 and keep(note):
            scored.append(Scored(note, point.score, point.score, dense_rank=len(scored) + 1))
    return scored


def _fused(
    service: CollectionService,
    vector: np.ndarray,
    tokens: list[str],
    chosen: Selection,
    flt: Filter | None,
    limit: int,
    exact: bool = True,
) -> list[Scored]:
    """Hidden notes of one collection ranked as hits are: dense + BM25, fused."""
    n = dense_candidates(limit, chosen.count)
    if n == 0:
        return []
    similarity: dict[str, float] = {}
    dense: list[str] = []
    # Without a filter (another agent's collection, a mem0 view) the store may
    # also return notes that are not hidden: ask for enough to still fill n.
    wanted = n if flt is not None else min(n + chosen.count, 4 * n)
    found = service.store.search(
        service.name, vector.tolist(), flt, wanted, exact=exact, with_payload=False
    )
    found = [p for p in found if p.score >= DENSE_MIN_SCORE]  # in score order
    for point, kept in zip(found, chosen.kept([p.id for p in found]), strict=True):
        if len(dense) >= n:
            break
        if kept:
            dense.append(point.id)
            similarity[point.id] = point.score
    bm25 = [note_id for note_id, _ in chosen.rank(tokens, n)]
    fused = rrf_fuse(dense, bm25)
    order = sorted(fused, key=lambda i: -fused[i])[:limit]
    missing = [i for i in order if i not in similarity]
    if missing:
        for note_id, vec in service.vectors_of(missing).items():
            sim = cosine(vector, vec)
            if sim is not None:
                similarity[note_id] = sim
    notes = service.fetch(order)
    dense_ranks = {note_id: rank for rank, note_id in enumerate(dense, start=1)}
    bm25_ranks = {note_id: rank for rank, note_id in enumerate(bm25, start=1)}
    return [
        Scored(notes[i], fused[i], similarity.get(i), dense_ranks.get(i), bm25_ranks.get(i))
        for i in order
        if i in notes
    ]
