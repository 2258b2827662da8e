"""Search ranking: a hand-built fused ranking, modes, exactness, the keyword fallback."""

from __future__ import annotations

import math
import uuid
from typing import Any

import numpy as np
import pytest
from qdrant_client import models as qm

from amem_tui.engine.embed import HashEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import InvalidInput, ModelUnavailable
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.search import ranking
from amem_tui.engine.store.base import StoredPoint
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine, stored_vectors
from tests.support.fixed_vectors import FixedEmbedder, at_cosine, put_word_ranked


class BrokenEmbedder(HashEmbedder):
    """A model that cannot load."""

    def embed_query(self, text: str) -> np.ndarray:
        raise ModelUnavailable("cannot load the embedding model: model.onnx is missing")


def nid(n: int) -> str:
    return str(uuid.UUID(int=n))


def private(agent: str, n: int, content: str, **extra: object) -> MemoryNote:
    return MemoryNote(
        id=nid(n),
        content=content,
        agent_id=agent,
        owner=agent,
        readers=[agent],
        writers=[agent],
        is_active=True,
        **extra,  # type: ignore[arg-type]
    )


@pytest.fixture
def fixed_engine(store: QdrantStore) -> MemoryEngine:
    return make_engine(store, embedder=FixedEmbedder())


# A: 0.9 no query term; B: 0.8 "alpha"; C: 0.5 "alpha beta"; D: 0.2 "beta beta"; E: 0.1 none.
HAND_BUILT = [
    (1, 0.9, "gamma delta epsilon"),
    (2, 0.8, "alpha gamma delta"),
    (3, 0.5, "alpha beta gamma"),
    (4, 0.2, "beta beta delta"),
    (5, 0.1, "zeta eta theta"),
]


@pytest.fixture
def hand_built(fixed_engine: MemoryEngine) -> MemoryEngine:
    notes = [private("main", n, text) for n, _, text in HAND_BUILT]
    vectors = [at_cosine(c) for _, c, _ in HAND_BUILT]
    # Another agent's note that would win both rankings must change nothing.
    notes.append(private("dev", 9, "alpha beta alpha beta"))
    vectors.append(at_cosine(0.99))
    fixed_engine.put_notes("amem_notes", notes, vectors)
    return fixed_engine


def test_hand_built_fused_ranking(hand_built: MemoryEngine) -> None:
    result = hand_built.agent("main").search("alpha beta", limit=3, links=False)
    # Dense ranks: A1 B2 C3 D4 E5 (n = min(max(4*3, 20), 5) = 5 candidates).
    # BM25: every document has 3 tokens, so length normalisation is 1 and
    # tf(f) = f * 2.5 / (f + 1.5); alpha and beta each occur in 2 of 5 notes.
    idf = math.log((5 - 2 + 0.5) / (2 + 0.5) + 1)
    bm25 = {"B": idf * 1.0, "C": 2 * idf * 1.0, "D": idf * 2 * 2.5 / (2 + 1.5)}
    # BM25 ranks: C1 (2.0 idf) D2 (1.43 idf) B3 (1.0 idf). RRF, k = 60:
    rrf = {
        "A": 1 / 61,
        "B": 1 / 62 + 1 / 63,
        "C": 1 / 63 + 1 / 61,
        "D": 1 / 64 + 1 / 62,
        "E": 1 / 65,
    }
    assert [h.note.id for h in result.hits] == [nid(3), nid(2), nid(4)]  # C, B, D
    c, b, d = result.hits
    # Every note is a dense candidate, boosted as after the search's own retrieval bump
    # (one retrieval, just now): the same factor for all, so the order is the fusion's.
    heat = 1 + 0.05 * math.log(2)
    assert c.fused == pytest.approx(rrf["C"]) and c.rrf == pytest.approx(rrf["C"] * heat)
    assert c.score == pytest.approx(c.rrf)
    assert b.fused == pytest.approx(rrf["B"])
    assert d.fused == pytest.approx(rrf["D"])
    assert (c.dense_rank, c.bm25_rank) == (3, 1)
    assert (b.dense_rank, b.bm25_rank) == (2, 3)
    assert (d.dense_rank, d.bm25_rank) == (4, 2)
    assert c.bm25_score == pytest.approx(bm25["C"])
    assert d.bm25_score == pytest.approx(bm25["D"])
    assert c.similarity == pytest.approx(0.5, abs=1e-5)
    assert all(h.via == "match" and h.because == "private" for h in result.hits)
    assert result.search_mode == "hybrid" and result.exact
    assert result.total == 5 and result.notice is None


def test_dense_mode_ranks_by_cosine(hand_built: MemoryEngine) -> None:
    result = hand_built.agent("main").search("alpha beta", limit=3, mode="dense")
    assert [h.note.id for h in result.hits] == [nid(1), nid(2), nid(3)]
    assert [round(h.similarity or 0, 4) for h in result.hits] == [0.9, 0.8, 0.5]
    assert all(h.rrf is None and h.bm25_rank is None for h in result.hits)
    assert result.search_mode == "dense"


def test_bm25_only_match_gets_its_cosine(fixed_engine: MemoryEngine) -> None:
    """With more notes than candidates, a keyword match outside the dense top n still ranks."""
    notes = [private("main", 100 + i, f"filler note number {i}") for i in range(25)]
    vectors = [at_cosine(0.9 - i * 0.01) for i in range(25)]
    notes.append(private("main", 7, "the rare keyword zanzibar"))
    vectors.append(at_cosine(0.05))
    fixed_engine.put_notes("amem_notes", notes, vectors)
    result = fixed_engine.agent("main").search("zanzibar", limit=5, links=False)
    hit = next(h for h in result.hits if h.note.id == nid(7))
    assert hit.dense_rank is None and hit.bm25_rank == 1
    assert hit.rrf == pytest.approx(1 / 61)
    assert hit.similarity == pytest.approx(0.05, abs=1e-4)
    assert result.candidates == 20  # n = min(max(4 * 5, 20), 26)


def test_the_default_limit_is_memory_searchs_and_ranks_for_it(fixed_engine: MemoryEngine) -> None:
    """openclaw-amem's memory_search returns 5 matches unless asked for more, and the
    limit is part of its ranking (it fuses 4 x limit dense candidates): its 5 are not
    the first 5 of a search for 40."""
    ids = put_word_ranked(fixed_engine, "main")
    view = fixed_engine.agent("main")
    default = view.search("zanzibar", links=False)
    assert default.limit == 5
    asked = view.search("zanzibar", limit=5, links=False)
    assert [h.note.id for h in default.hits] == [h.note.id for h in asked.hits]
    # 20 candidates by meaning hold none of the word's notes: the lists interleave, the
    # dense ones a little ahead (boosted as just retrieved, by about 3.5%).
    assert [h.dense_rank for h in default.hits] == [1, 2, 3, None, 4]
    wider = view.search("zanzibar", limit=40, links=False)
    assert wider.limit == 40
    # 60 candidates hold them all: in both lists, they come first.
    assert [h.note.id for h in wider.hits[:5]] == ids[30:35]


def test_dense_top_k_is_exact(engine: MemoryEngine) -> None:
    words = [
        "deploy",
        "freeze",
        "release",
        "billing",
        "vendor",
        "standup",
        "tests",
        "lint",
        "docker",
        "cache",
    ]
    rng = np.random.default_rng(7)
    for i in range(40):
        picked = " ".join(rng.choice(words, size=4))
        engine.agent("main" if i % 3 else "dev").add(f"note {i}: {picked} and more")
    query = "deploy freeze billing"
    result = engine.agent("main").search(query, limit=7, mode="dense")
    visible = engine.agent("main").list_notes("visible", limit=1000).notes
    vectors = stored_vectors(engine, "amem_notes")
    q = engine.embedder.embed_query(query)
    exact = sorted(visible, key=lambda n: -float(np.dot(q, vectors[n.id])))[:7]
    assert result.exact is True
    got = [round(h.similarity or 0, 5) for h in result.hits]
    want = [round(float(np.dot(q, vectors[n.id])), 5) for n in exact]
    assert got == want


def test_a_big_collection_is_searched_through_its_graph_unless_asked(
    engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Left to choose, a search scans up to EXACT_SCAN_POINTS notes, and beyond walks the
    graph; ``exact`` overrides it, and the result says which it was."""
    for i in range(12):
        engine.agent("main").add(f"deploy note {i}")
    engine.agent("dev").add("deploy note of dev")  # a hidden match
    asked: list[bool] = []
    store_search = engine.store.search

    def spy(*args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs["exact"])
        return store_search(*args, **kwargs)

    monkeypatch.setattr(engine.store, "search", spy)
    small = engine.agent("main").search("deploy", mode="dense")
    monkeypatch.setattr(ranking, "EXACT_SCAN_POINTS", 11)
    big = engine.agent("main").search("deploy", mode="dense")
    forced = engine.agent("main").search("deploy", mode="dense", exact=True)
    fused = engine.agent("main").search("deploy", hidden=True)
    assert (small.exact, big.exact, forced.exact, fused.exact) == (True, False, True, False)
    assert asked[:3] == [True, False, True]
    assert asked[3:] == [False, False]  # the hits' search and the hidden one
    assert [h.agent_id for h in fused.hidden] == ["dev"]
    assert [h.note.id for h in big.hits] == [h.note.id for h in small.hits]


def test_heat_boost_orders_and_rrf_includes_it(fixed_engine: MemoryEngine) -> None:
    """Two notes tied on fused rank: the one retrieved often and lately goes first. As in
    openclaw-amem's results, ``rrf`` is the boosted score; ``fused`` is the fusion alone."""
    cold = private("main", 1, "kiwi apple", retrieval_count=0)
    hot = private(
        "main",
        2,
        "apple kiwi",
        retrieval_count=20,
        last_accessed="2026-11-20T08:00:00.000Z",
        timestamp="2026-11-01T08:00:00.000Z",
    )
    # Dense: cold first; BM25 ties, so it keeps store order (cold first): cold leads on rrf.
    fixed_engine.put_notes("amem_notes", [cold, hot], [at_cosine(0.6), at_cosine(0.59)])
    result = fixed_engine.agent("main").search("kiwi", limit=2, links=False)
    first, second = result.hits
    assert first.note.id == nid(2), "the heat boost lifts the hot note"
    assert first.fused is not None and second.fused is not None
    assert first.fused < second.fused
    # Both are dense candidates: boosted as after the search's own retrieval bump.
    assert first.boost == pytest.approx(1 + 0.05 * math.log(22))
    assert second.boost == pytest.approx(1 + 0.05 * math.log(2))
    assert first.rrf == pytest.approx(first.fused * first.boost) == pytest.approx(first.score)


def test_bad_arguments_are_rejected(engine: MemoryEngine) -> None:
    with pytest.raises(InvalidInput):
        engine.agent("main").search("anything", mode="fuzzy")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        engine.agent("main").search("anything", limit=0)
    assert engine.agent("main").search("   ").hits == []


def test_empty_store_and_missing_collection(engine: MemoryEngine) -> None:
    result = engine.agent("sandbox").search("anything at all", hidden=True)
    assert result.hits == [] and result.hidden == []


# ------------------------------------------------------------- keyword fallback
def _foreign_store(store: QdrantStore, size: int, model: str) -> None:
    """A collection another system built: its own model, vectors we must not mix."""
    store.ensure_collection("amem_notes", size, model)
    rng = np.random.default_rng(1)
    points = [
        StoredPoint(n.id, n.to_payload(), rng.normal(size=size).tolist())
        for n in (
            private("main", 1, "Production deploy is frozen until Friday"),
            private("main", 2, "Lunch order for Friday is pizza"),
            private("dev", 3, "dev thinks the deploy freeze is too long"),
            private("main", 4, "Vendor account is under ACME"),
        )
    ]
    store.upsert("amem_notes", points)


@pytest.mark.qdrant_client_only
@pytest.mark.parametrize(
    "size, model",
    [(64, "Xenova/bge-m3"), (1024, "amem-test/hash-embedder"), (384, None)],
    ids=["other-model", "other-size", "no-metadata-other-size"],
)
@pytest.mark.parametrize("mode", ["hybrid", "dense"])
def test_keyword_fallback_when_model_is_not_ours(
    engine: MemoryEngine, store: QdrantStore, size: int, model: str | None, mode: str
) -> None:
    if model is None:
        store.client.create_collection(
            "amem_notes",
            vectors_config=qm.VectorParams(size=size, distance=qm.Distance.COSINE),
        )
        _foreign_store(store, size, "unused")
    else:
        _foreign_store(store, size, model)
    result = engine.agent("main").search("deploy freeze", mode=mode, hidden=True)  # type: ignore[arg-type]
    assert result.search_mode == "keyword"
    assert result.notice is not None and "keyword" in result.notice
    assert [h.note.id for h in result.hits] == [nid(1)]
    hit = result.hits[0]
    assert hit.bm25_rank == 1 and hit.similarity is None and hit.rrf is None
    assert [(h.id, h.kind) for h in result.hidden] == [(nid(3), "private")]


def test_keyword_fallback_when_model_cannot_load(store: QdrantStore) -> None:
    engine = make_engine(store, embedder=BrokenEmbedder())
    engine.put_notes(
        "amem_notes",
        [
            private("main", 1, "Production deploy is frozen until Friday"),
            private("main", 2, "Lunch order is pizza"),
        ],
        [[1.0] + [0.0] * 63, [0.0, 1.0] + [0.0] * 62],
    )
    result = engine.agent("main").search("deploy")
    assert result.search_mode == "keyword"
    assert result.notice is not None and "model.onnx is missing" in result.notice
    assert [h.note.id for h in result.hits] == [nid(1)]


def test_hidden_matches_rank_like_hits(fixed_engine: MemoryEngine) -> None:
    """A hidden note that matches by keyword only still shows in hybrid mode, as a hit would."""
    notes = [private("main", 100 + i, f"filler note number {i}") for i in range(25)]
    vectors = [at_cosine(0.9 - i * 0.01) for i in range(25)]
    notes.append(private("main", 7, "the rare keyword zanzibar"))
    vectors.append(at_cosine(0.05))
    notes.append(private("dev", 8, "dev has its own note"))
    vectors.append(at_cosine(0.5))
    fixed_engine.put_notes("amem_notes", notes, vectors)
    hybrid = fixed_engine.agent("dev").search("zanzibar", limit=5, hidden=True)
    assert [h.id for h in hybrid.hidden][:2] == [nid(100), nid(7)]
    rare = hybrid.hidden[1]
    assert rare.score == pytest.approx(1 / 61) and rare.kind == "private"
    assert rare.similarity == pytest.approx(0.05, abs=1e-4)
    # Both fuse to 1/61: what decided each is its rank in one list or the other.
    first = hybrid.hidden[0]
    assert (first.dense_rank, first.bm25_rank) == (1, None)
    assert (rare.dense_rank, rare.bm25_rank) == (None, 1)
    assert first.deciding() == "cosine 0.900, #1 by meaning"
    assert rare.deciding() == "cosine 0.050, #1 by words"
    dense = fixed_engine.agent("dev").search("zanzibar", limit=5, mode="dense", hidden=True)
    assert nid(7) not in {h.id for h in dense.hidden}
    assert [round(h.score, 4) for h in dense.hidden] == [0.9, 0.89, 0.88, 0.87, 0.86]
    assert [h.dense_rank for h in dense.hidden] == [1, 2, 3, 4, 5]


def test_negative_cosines_are_no_dense_candidates(fixed_engine: MemoryEngine) -> None:
    """openclaw-amem asks for dense candidates with score_threshold 0."""
    near = private("main", 1, "near note")
    away = private("main", 2, "opposite note")
    fixed_engine.put_notes("amem_notes", [near, away], [at_cosine(0.7), [-0.6, 0.8, 0.0, 0.0]])
    assert [h.note.id for h in fixed_engine.agent("main").search("q", mode="dense").hits] == [
        nid(1)
    ]
    hybrid = fixed_engine.agent("main").search("opposite", links=False)
    # Both fuse to 1/61; the tie keeps the dense list first, as openclaw-amem's merge does.
    assert [(h.note.id, h.dense_rank, h.bm25_rank) for h in hybrid.hits] == [
        (nid(1), 1, None),
        (nid(2), None, 1),
    ]


def test_equal_scores_rank_in_id_order_whatever_order_the_store_holds(
    fixed_engine: MemoryEngine,
) -> None:
    """Notes at one cosine are ranked in id order, on every backend and whatever order
    they were written in: a tie decides their dense ranks, so their fused scores too,
    and the answer must not depend on the store's layout. (openclaw-amem keeps
    Qdrant's order for them, which Qdrant leaves undefined.)"""
    written = [7, 3, 9, 1, 5, 8, 2]
    notes = [private("main", n, f"note {n}") for n in written]
    fixed_engine.put_notes("amem_notes", notes, [at_cosine(0.5)] * len(notes))
    for mode in ("hybrid", "dense"):
        result = fixed_engine.agent("main").search("zzz", limit=5, links=False, mode=mode)
        assert [h.note.id for h in result.hits] == [nid(n) for n in (1, 2, 3, 5, 7)], mode
        assert [h.dense_rank for h in result.hits] == [1, 2, 3, 4, 5], mode


def test_ties_at_the_cut_keep_the_lowest_ids(fixed_engine: MemoryEngine) -> None:
    """More notes tie than the store is asked for (5 hits, or 20 dense candidates of
    30): the ones kept are the first by id, not whichever the store met first."""
    written = list(range(30, 0, -1))
    notes = [private("main", n, f"note {n}") for n in written]
    fixed_engine.put_notes("amem_notes", notes, [at_cosine(0.5)] * len(notes))
    for mode in ("hybrid", "dense"):
        result = fixed_engine.agent("main").search("zzz", limit=5, links=False, mode=mode)
        assert [h.note.id for h in result.hits] == [nid(n) for n in range(1, 6)], mode
    hidden = fixed_engine.agent("dev").search("zzz", limit=3, hidden=True, mode="dense")
    assert [h.id for h in hidden.hidden] == [nid(n) for n in range(1, 4)]
