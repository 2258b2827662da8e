"""A search as an agent, from the query to the explained result; it never writes.

Searching never bumps ``retrieval_count`` or ``last_accessed``: the inspector
predicts what the agent recalls without changing what it will recall.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from amem_tui.engine.errors import InvalidInput
from amem_tui.engine.models import HiddenMatch, SearchResult
from amem_tui.engine.search.hidden import hidden_matches as find_hidden
from amem_tui.engine.search.hits import (
    mark_matched_terms,
    rank,
    stop_if_asked,
    visible_selection,
    walk_links,
)
from amem_tui.engine.search.ranking import SEARCH_MODES, SearchMode, scans_exactly
from amem_tui.engine.search.space import SearchSpace, query_vector


def search(
    space: SearchSpace,
    query: str,
    *,
    now: datetime,
    limit: int = 10,
    mode: SearchMode = "hybrid",
    hidden: bool = False,
    exact: bool | None = None,
    links: bool = True,
    session_key: str | None = None,
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

    ``exact``: compare the query with every vector (True), walk the graph (False), or
    (None) scan while the collection is small enough (:func:`scans_exactly`); the
    result's ``exact`` says which it was.
    ``stop`` is asked between the stages (after the query's embedding, before the
    hits are read from the store); when it says True, :class:`SearchStopped` is raised.
    """
    check_mode(mode)
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
        session_key=session_key,
    )
    if not query.strip():
        return result
    notices: list[str] = []
    loading = [] if wait else still_loading(space, mode)
    vector = None if "model" in loading else query_vector(space.own, query, mode, notices)
    stop_if_asked(stop)
    if vector is None and mode != "keyword":
        result.search_mode = "keyword"
    if "keyword index" in loading and result.search_mode == "hybrid":
        result.search_mode = "dense"  # by meaning alone until the index is read
    ranked = not ("keyword index" in loading and result.search_mode == "keyword")
    result.partial = _partial(loading, ranked)
    info = space.own.info()
    if info is not None and ranked:
        if result.search_mode != "keyword":
            result.exact = scans_exactly(exact, info.points_count)
        rank(space, query, vector, result, limit, result.exact, info.points_count, now, stop)
        if links and vector is not None and result.hits:
            walk_links(space, vector, result)
        mark_matched_terms(result, query)
    if hidden and result.partial is None:
        result.hidden = find_hidden(space, query, vector, limit, notices, mode, exact)
    result.notice = " ".join(notices) or None
    return result


def still_loading(space: SearchSpace, mode: SearchMode) -> list[str]:
    """What a search in ``mode`` would wait for now: ``model`` (its model is still
    loading), ``keyword index`` (every note is still being read into it)."""
    out = []
    if mode != "keyword":
        embedder = space.own.embedder()
        if embedder is not None and not embedder.loaded:
            out.append("model")
    if mode != "dense" and not space.own.index_ready():
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


def hidden_matches(
    space: SearchSpace,
    query: str,
    *,
    limit: int = 10,
    mode: SearchMode = "hybrid",
    exact: bool | None = None,
) -> tuple[list[HiddenMatch], str | None]:
    """Only what ``search(..., hidden=True)`` adds: the hidden matches, and a notice.

    For an app that shows the hits first and the hidden matches a moment later.
    """
    check_mode(mode)
    if not query.strip():
        return [], None
    notices: list[str] = []
    vector = query_vector(space.own, query, mode, notices)
    found = find_hidden(space, query, vector, limit, notices, mode, exact)
    return found, " ".join(notices) or None


def warm_up(space: SearchSpace, now: datetime) -> None:
    """Fill the caches a search of ``space`` reads: the notes it may search, the ones
    hidden from it, and their keyword indexes (a keyword search builds them all)."""
    if not space.own.store.embedded:
        return
    search(space, "warm", now=now, mode="keyword", hidden=True, links=False)
    info = space.own.info()
    if info is not None:  # each search of an app looks ids up by the hundred
        visible_selection(space, info.points_count).index.map_ids()


def check_mode(mode: str) -> None:
    """Refuse a search mode that does not exist."""
    if mode not in SEARCH_MODES:
        raise InvalidInput(f"unknown search mode {mode!r}: use dense or hybrid")
