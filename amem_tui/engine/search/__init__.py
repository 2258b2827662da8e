"""Search as an agent: what it finds, why it may see each hit, and what it cannot see.

The ranking has the shape of openclaw-amem's ``memory_search``, so the inspector
predicts what the agent itself recalls: dense candidates and BM25, fused by
reciprocal rank with a small heat boost, then a short walk over links
(``hits``); hidden matches say what the agent's scope leaves out and why
(``hidden``); ``explain`` puts a hit's ranking into words.
"""

from __future__ import annotations

from amem_tui.engine.search.explain import explain_hit, hit_ids
from amem_tui.engine.search.query import default_limit, hidden_matches, search, warm_up
from amem_tui.engine.search.ranking import SEARCH_MODES, SearchMode
from amem_tui.engine.search.space import SearchSpace

__all__ = [
    "SEARCH_MODES",
    "SearchMode",
    "SearchSpace",
    "default_limit",
    "explain_hit",
    "hidden_matches",
    "hit_ids",
    "search",
    "warm_up",
]
