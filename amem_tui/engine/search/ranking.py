"""The parts of openclaw-amem's ranking: fusion, the heat boost, cosine, and its constants.

Keyword scoring (BM25) lives in ``amem_tui.engine.keywords``, since the note
cache keeps its index too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime
from typing import Literal

import numpy as np

from amem_tui.engine.models import HeatFields, parse_time

#: ``plugin``: as the OpenClaw mem0 plugin searches a mem0 collection (the default
#: there); ``hybrid``: dense + BM25 fused, openclaw-amem's ranking (the default for
#: its notes, and amem-tui's own ranking when asked for on a mem0 collection).
SearchMode = Literal["dense", "hybrid", "keyword", "plugin"]
SEARCH_MODES: tuple[str, ...] = ("dense", "hybrid", "keyword", "plugin")

#: The matches openclaw-amem's ``memory_search`` returns when its caller names no
#: ``limit`` (its tool's default; its turn hook reads the same 5 notes). The limit is
#: part of the ranking (see ``dense_candidates``): the top 5 of a search for 40 are
#: not always the 5 the agent gets.
MEMORY_SEARCH_LIMIT = 5
RRF_K = 60
LINK_HOPS = 2
LINK_MAX_EXTRA = 8
LINK_MIN_SIMILARITY = 0.25
#: openclaw-amem asks Qdrant for dense candidates with ``score_threshold`` 0.
DENSE_MIN_SCORE = 0.0
HEAT_WEIGHT = 0.05


#: Up to this many points in a collection, a search left to choose compares the query
#: with every vector (exact). Beyond, it walks the HNSW graph, rescoring the best with
#: the full vectors: on the 1M-note bench store a scan took 2.2 s (the full vectors
#: are on disk there) and the graph 6-14 ms, finding 998 of the exact top-10 hits in
#: 1,000. At 100k notes a scan takes a few milliseconds.
EXACT_SCAN_POINTS = 250_000


def scans_exactly(exact: bool | None, points_count: int) -> bool:
    """Whether a search compares every vector: as asked, or (None) while a collection
    holds at most ``EXACT_SCAN_POINTS`` points."""
    return exact if exact is not None else points_count <= EXACT_SCAN_POINTS


def dense_candidates(limit: int, total: int) -> int:
    """How many dense candidates openclaw-amem asks for: ``min(max(4k, 20), total)``."""
    return min(max(4 * limit, 20), total)


def rrf_fuse(*rankings: Sequence[str], k: int = RRF_K) -> dict[str, float]:
    """Reciprocal-rank fusion: each list adds ``1 / (k + rank)`` (rank from 1)."""
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, doc_id in enumerate(ranking, start=1):
            fused[doc_id] = fused.get(doc_id, 0.0) + 1.0 / (k + rank)
    return fused


def heat_boost(note: HeatFields, now: datetime, retrieved: bool = False) -> float:
    """openclaw-amem's small boost for notes retrieved often and lately (1.0 = none).

    ``1 + 0.05 * ln(1 + retrieval_count) / (age_days + 1)``, age from
    ``last_accessed`` (else ``timestamp``); knowledge notes are timeless.

    ``retrieved``: the note is one of the search's dense candidates. openclaw-amem
    bumps their ``retrieval_count`` and ``last_accessed`` before it reads the notes it
    boosts (its patches are sent, not awaited, so they land first as a rule), so it
    boosts them as retrieved once more, just now: ``1 + 0.05 * ln(2 + count)``.
    Nothing is written here.
    """
    if note.note_type == "knowledge":
        return 1.0
    if retrieved:
        return 1.0 + HEAT_WEIGHT * math.log1p(note.retrieval_count + 1)
    if note.retrieval_count <= 0:
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
