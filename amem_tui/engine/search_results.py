"""What a search answers: its hits, the close matches it hid and why, and how it
searched (the query's embedding, the mode, a problem met on the way).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from amem_tui.engine.embedding.report import QueryEmbedding
from amem_tui.engine.models import MemoryNote

HitVia = Literal["match", "link"]
#: Why a note is in an agent's searches, listings and counts (see ``scope.visible_because``).
VisibleBecause = Literal["private", "shared", "collection"]
#: Why the read rule lets an agent read by id a note its searches never return
#: (see ``scope.get_only_because``).
GetOnlyBecause = Literal["reader", "everyone", "owner"]
#: Why a close match is hidden from an agent (see ``scope.hidden_reason``;
#: ``plugin``: the mem0 plugin's own threshold or recall rule leaves it out).
HiddenKind = Literal[
    "private", "get_only", "deleted", "mode_b", "outside", "malformed", "user", "plugin"
]


class SearchHit(BaseModel):
    """A note a search returned, its scores and why the agent may see it."""

    note: MemoryNote
    score: float
    similarity: float | None = None
    bm25_rank: int | None = None
    #: openclaw-amem's ``rrf``: the reciprocal-rank fusion of the dense and BM25 ranks
    #: times the heat boost, what its matches are sorted by (None outside hybrid mode;
    #: a link hit has none, openclaw-amem reports 0).
    rrf: float | None = None
    #: The fusion alone, before the heat boost (``rrf`` = ``fused`` x ``boost``).
    fused: float | None = None
    via: HitVia = "match"
    via_note: str | None = None
    because: VisibleBecause = "private"
    #: 1-based rank among the dense candidates (None: not a dense candidate).
    dense_rank: int | None = None
    #: The BM25 score behind ``bm25_rank``.
    bm25_score: float | None = None
    #: The recency/heat multiplier applied to ``fused`` to give ``rrf`` (and ``score``).
    boost: float | None = None
    #: Link hops from the match it came through (1 or 2; None for a match).
    hop: int | None = None
    #: The query's words (BM25 tokens) found in the note's searchable text.
    matched_terms: list[str] = Field(default_factory=list)
    #: How a ranking other than openclaw-amem's chose the hit, in its own terms (the
    #: mem0 plugin's threshold and recall rule); None: explained from the fields above.
    explanation: str | None = None

    @property
    def weak(self) -> bool:
        """True for a hit the agent recalls only because top-k is filled: no query word
        matched and its cosine is below ``WEAK_SIMILARITY`` (or unknown)."""
        if self.matched_terms:
            return False
        return self.similarity is None or self.similarity < WEAK_SIMILARITY


#: Below this cosine a hit with no keyword match is only filler: all-MiniLM-L6-v2
#: gives unrelated short notes 0.0-0.25 and paraphrases 0.5 and more.
WEAK_SIMILARITY = 0.3


class HiddenMatch(BaseModel):
    """A close match the agent cannot see, and the reason it cannot (the fields in the
    order a JSON answer dumps them: ``search --hidden``)."""

    id: str
    reason: str
    kind: HiddenKind = "private"
    owner: str | None
    agent_id: str | None
    collection: str
    score: float
    #: Cosine similarity to the query (``score`` is the fused score in hybrid mode).
    similarity: float | None = None
    #: Its rank among the hidden notes of its collection by meaning (dense) and by words
    #: (BM25), from 1; None: not in that list.
    dense_rank: int | None = None
    bm25_rank: int | None = None

    def deciding(self) -> str:
        """What decided its place, in words: its cosine and its rank in each list."""
        parts = [f"cosine {self.similarity:.3f}"] if self.similarity is not None else []
        ranks = [
            f"#{rank} by {what}"
            for rank, what in ((self.dense_rank, "meaning"), (self.bm25_rank, "words"))
            if rank is not None
        ]
        return ", ".join(parts + ranks)


class SearchResult(BaseModel):
    """Hits, hidden matches and how the search was made."""

    agent: str
    mode: Literal["A", "B"]
    collection: str
    query: str
    hits: list[SearchHit]
    hidden: list[HiddenMatch] = Field(default_factory=list)
    exact: bool = True
    search_mode: Literal["dense", "hybrid", "keyword", "plugin"] = "dense"
    #: The ranking in words: whose it is (openclaw-amem's, the mem0 plugin's memory_search
    #: or auto-recall, or amem-tui's own) and its parameters.
    ranking: str = ""
    notice: str | None = None
    #: The session key the agent was resolved from, if the search was made as one.
    session_key: str | None = None
    #: The matches asked for (the system's default when the caller named none); the
    #: notes reached through links come on top.
    limit: int | None = None
    #: How many notes the agent can search (its visible notes), when counted.
    total: int | None = None
    #: How many candidates each retriever contributed before fusion.
    candidates: int | None = None
    #: What a search that would not wait left out, in words (None: nothing): asked
    #: while the model or the keyword index was still loading, it answered from what
    #: was there (see ``search(wait=False)``).
    partial: str | None = None
    #: How the query was embedded for this collection, and how exactly that matches
    #: the agent's own embedding (None: not asked, e.g. an empty query).
    embedding: QueryEmbedding | None = None

    @property
    def ranking_name(self) -> str:
        """The ranking in a few words, for a status line: ``the mem0 plugin's
        memory_search``, ``hybrid search (amem-tui's own)``."""
        if self.search_mode == "plugin":
            return f"the mem0 plugin's {self.ranking.split(' as the ', 1)[0]}"
        own = " (amem-tui's own)" if "amem-tui's own" in self.ranking else ""
        return f"{self.search_mode} search{own}"
