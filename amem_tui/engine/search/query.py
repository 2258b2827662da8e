"""A search as an agent, from the query to the explained result; it never writes.

Searching never bumps ``retrieval_count`` or ``last_accessed``: the inspector
predicts what the agent recalls without changing what it will recall.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime

import numpy as np

import amem_tui.engine.search.mem0_plugin as mem0_plugin
from amem_tui.engine.errors import InvalidInput
from amem_tui.engine.search.hidden import hidden_matches as find_hidden
from amem_tui.engine.search.hits import (
    mark_matched_terms,
    rank,
    stop_if_asked,
    walk_links,
)
from amem_tui.engine.search.narrowing import check_format, dense_filter, keep_topics
from amem_tui.engine.search.ranking import (
    MEMORY_SEARCH_LIMIT,
    SEARCH_MODES,
    SearchMode,
    scans_exactly,
)
from amem_tui.engine.search.space import SearchSpace, query_vector
from amem_tui.engine.search_results import HiddenMatch, SearchResult


def search(
    space: SearchSpace,
    query: str,
    *,
    now: datetime,
    limit: int | None = None,
    mode: SearchMode | None = None,
    hidden: bool = False,
    exact: bool | None = None,
    links: bool = True,
    session_key: str | None = None,
    first_turn: bool = False,
    stop: Callable[[], bool] | None = None,
    wait: bool = True,
) -> SearchResult:
    """What the agent of ``space`` finds for ``query``, best first, explained.

    ``wait`` False answers from what is loaded already rather than wait for the rest
    (an app's first queries, typed while the model loads and the keyword index is
    read): by words alone while the model loads, by meaning alone while the keyword
    index is read, and with no hits while both are; ``partial`` then says what was
    left out, and hidden matches are not looked for. Asked again once both are there,
    the same search gives the whole answer.

    ``mode`` None is the store's own ranking: openclaw-amem's (``hybrid``) for its
    notes, the OpenClaw mem0 plugin's (``plugin``) for a mem0 collection, where the
    scope's view says which: ``memory_search``, or ``recall`` (what auto-recall injects
    before a turn; ``first_turn`` for a session's first turn). ``limit`` None is the
    system's default (memory_search's 5 for openclaw-amem notes; the plugin's
    ``topK``); the result's ``limit`` says which was used.
    ``exact``: compare the query with every vector (True), walk the graph (False), or
    (None) scan while the collection is small enough (``scans_exactly``); the
    result's ``exact`` says which it was.
    ``stop`` is asked between the stages (after the query's embedding, before the
    hits are read from the store); when it says True, ``SearchStopped`` is raised.
    """
    mode = resolve_mode(space, mode)
    check_format(space)
    if limit is None:
        limit = default_limit(space, mode)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InvalidInput("the search limit must be a positive integer")
    scope = space.scope
    result = SearchResult(
        agent=scope.agent,
        mode=scope.mode,
        collection=scope.collection,
        query=query,
        hits=[],
        exact=True,  # BM25 alone scores every note the agent can search
        search_mode=mode,
        ranking=ranking_label(space, mode),
        session_key=session_key,
        limit=limit,
    )
    if not query.strip():
        return result
    result.embedding = space.own.model.query_embedding()
    notices: list[str] = []
    loading = [] if wait else still_loading(space, mode)
    vector = None if "model" in loading else query_vector(space.own, query, mode, notices, stop)
    stop_if_asked(stop)
    if vector is None and mode != "keyword":
        result.search_mode = "keyword"
        result.ranking = ranking_label(space, "keyword")
        if mode == "plugin":
            notices.append("The mem0 plugin ranks by cosine: these are keyword matches instead.")
    if "keyword index" in loading and result.search_mode == "hybrid":
        result.search_mode = "dense"  # by meaning alone until the index is read
        result.ranking = ranking_label(space, "dense")
    ranked = not ("keyword index" in loading and result.search_mode == "keyword")
    result.partial = _partial(loading, ranked)
    info = space.own.info()
    dropped: list[HiddenMatch] = []
    if info is not None and ranked:
        if result.search_mode != "keyword":
            result.exact = scans_exactly(exact, info.points_count)
        if result.search_mode == "plugin":
            assert vector is not None
            answer = _plugin_answer(
                space, query, vector, limit, result.exact, session_key, first_turn
            )
            mem0_plugin.fill(result, answer)
            notices += answer.notices
            dropped = mem0_plugin.dropped_matches(space, answer) if hidden else []
        else:
            rank(space, query, vector, result, limit, result.exact, info.points_count, now, stop)
            if links and vector is not None and result.hits:
                walk_links(space, vector, result)
            keep_topics(space, result)
        mark_matched_terms(result, query)
    if hidden and result.partial is None:
        # Outside the namespace the plugin's question is the cosine one: "dense" there.
        others = "dense" if result.search_mode == "plugin" else mode
        found = find_hidden(space, query, vector, limit, notices, others, exact)
        result.hidden = sorted(found + dropped, key=lambda h: -h.score)[:limit]
    result.notice = " ".join(notices) or None
    return result


def default_limit(space: SearchSpace, mode: SearchMode | None = None) -> int:
    """The matches a search of ``space`` in ``mode`` (None: the store's own ranking)
    returns when its caller names no limit: the mem0 plugin's ``topK`` in its ranking,
    else memory_search's default."""
    if resolve_mode(space, mode) == "plugin":
        return mem0_plugin.rules_of(space.mem0_plugin).top_k
    return MEMORY_SEARCH_LIMIT


def still_loading(space: SearchSpace, mode: SearchMode) -> list[str]:
    """What a search in ``mode`` would wait for now: ``model`` (its model is still
    loading), ``keyword index`` (every note is still being read into it)."""
    out = []
    if mode != "keyword":
        embedder = space.own.model.embedder()
        if embedder is not None and not embedder.loaded:
            out.append("model")
    # The plugin's ranking needs no keyword index, unless it falls back to words.
    words = mode != "dense" and (mode != "plugin" or "model" in out)
    if words and not space.own.index.ready():
        out.append("keyword index")
    return out


def _partial(loading: list[str], ranked: bool) -> str | None:
    """What a search that did not wait left out, in words (``ranked``: it found hits
    with what was there)."""
    if not loading:
        return None
    if not ranked:
        what = " and the ".join(loading)
        return f"no hits yet: the {what} {'are' if len(loading) == 2 else 'is'} still loading"
    if loading == ["model"]:
        return "the model is still loading: matched by words only"
    return "the keyword index is still loading: matched by meaning only"


def resolve_mode(space: SearchSpace, mode: SearchMode | None) -> SearchMode:
    """The ranking a search uses: as asked, else the one of the system that wrote the store."""
    mem0 = space.own.format == "mem0"
    if mode is None:
        return "plugin" if mem0 else "hybrid"
    check_mode(mode)
    if mode == "plugin" and not mem0:
        raise InvalidInput(
            "the plugin ranking is the OpenClaw mem0 plugin's, for mem0 collections; "
            "openclaw-amem notes are ranked as its memory_search ranks them (hybrid)"
        )
    return mode


def ranking_label(space: SearchSpace, mode: SearchMode) -> str:
    """Whose ranking a search shows, in words (the mem0 plugin's is set by its run)."""
    mem0 = space.own.format == "mem0"
    if mode == "plugin":
        return "as the mem0 plugin searches"
    ours = "amem-tui's own, not the mem0 plugin's" if mem0 else None
    if mode == "hybrid":
        return (
            f"hybrid: dense + BM25 fused ({ours})"
            if ours
            else ("hybrid: openclaw-amem's memory_search (rrf with its heat boost, then links)")
        )
    if mode == "dense":
        return f"dense: cosine only ({ours})" if ours else "dense: cosine only (amem-tui's own)"
    return "keyword: BM25 only" + (f" ({ours})" if ours else " (no usable embedding model)")


def _plugin_answer(
    space: SearchSpace,
    query: str,
    vector: np.ndarray,
    limit: int,
    exact: bool,
    session_key: str | None,
    first_turn: bool,
) -> mem0_plugin.PluginAnswer:
    """memory_search, or (the scope's recall view) what auto-recall injects."""
    config = mem0_plugin.rules_of(space.mem0_plugin)
    if space.scope.view != "recall":
        return mem0_plugin.memory_search(space, vector, limit, exact, config)
    embedder = space.own.model.embedder()

    def embed(text: str) -> np.ndarray:
        if text == query or embedder is None:
            return vector
        return np.asarray(embedder.embed_query(text), dtype=np.float32)

    return mem0_plugin.auto_recall(space, query, embed, exact, config, session_key, first_turn)


def hidden_matches(
    space: SearchSpace,
    query: str,
    *,
    limit: int | None = None,
    mode: SearchMode | None = None,
    exact: bool | None = None,
    session_key: str | None = None,
    first_turn: bool = False,
) -> tuple[list[HiddenMatch], str | None]:
    """Only what ``search(..., hidden=True)`` adds: the hidden matches, and a notice.

    For an app that shows the hits first and the hidden matches a moment later.
    """
    mode = resolve_mode(space, mode)
    if limit is None:
        limit = default_limit(space, mode)
    if not query.strip():
        return [], None
    notices: list[str] = []
    vector = query_vector(space.own, query, mode, notices)
    dropped: list[HiddenMatch] = []
    if mode == "plugin" and vector is not None and space.own.info() is not None:
        info = space.own.info()
        scan = scans_exactly(exact, info.points_count if info else 0)
        answer = _plugin_answer(space, query, vector, limit, scan, session_key, first_turn)
        dropped = mem0_plugin.dropped_matches(space, answer)
    others = "dense" if mode == "plugin" else mode
    found = find_hidden(space, query, vector, limit, notices, others, exact)
    return sorted(found + dropped, key=lambda h: -h.score)[:limit], " ".join(notices) or None


def warm_up(space: SearchSpace, now: datetime) -> None:
    """Fill the caches a search of ``space`` reads: the notes it may search, the ones
    hidden from it, and their keyword indexes (a keyword search builds them all); and
    walk the collection's graph once, as the agent's dense search will."""
    own = space.own
    if not own.store.embedded:
        return
    search(space, "warm", now=now, mode="keyword", hidden=True, links=False)
    info = own.info()
    if info is None or not info.vector_size or not info.points_count:
        return
    # The store opens what a graph search reads on its first walk, which made the
    # first query typed several times slower than the next; any direction will do.
    direction = [1.0 / math.sqrt(info.vector_size)] * info.vector_size
    own.store.search(own.name, direction, dense_filter(space), 1, exact=False, with_payload=False)


def check_mode(mode: str) -> None:
    """Refuse a search mode that does not exist."""
    if mode not in SEARCH_MODES:
        raise InvalidInput(f"unknown search mode {mode!r}: use plugin, hybrid or dense")
