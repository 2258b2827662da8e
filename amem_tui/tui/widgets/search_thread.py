"""One search of the search box, as its worker thread runs it: the hits, then the
hidden matches.

The hits go out first (``SearchDone``). The hidden matches (about as much work again)
follow in a ``HiddenFound`` once the query has stayed in the box for
``HIDDEN_AFTER``, so they never compete with the next query's search. A search whose
query is typed over stops at the engine's next stage (``SearchAbandoned``), so the
newer text waits less.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual.worker import get_current_worker

from amem_tui.engine.for_apps import SearchStopped
from amem_tui.tui import tuning
from amem_tui.tui.messages import HiddenFound, SearchAbandoned, SearchDone, SearchFailed
from amem_tui.tui.query_syntax import parse_query
from amem_tui.tui.sizes import HIDDEN_LIMIT

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.message import Message

    from amem_tui.engine import AgentScope, MemoryEngine

#: Seconds a search's thread waits at most for its hits to be drawn (they always are,
#: or dropped, unless the app is closing).
DRAWN_WAIT = 0.5
#: Seconds a query must stay in the box before its hidden matches are looked for.
HIDDEN_AFTER = 0.15
HIDDEN_POLL = 0.02


def search_in_thread(
    engine: MemoryEngine,
    scope: AgentScope,
    query: str,
    generation: int,
    current: Callable[[], bool],
    post: Callable[[Message], object],
) -> None:
    """Search ``query`` as ``scope`` while ``current()`` says the box still holds it;
    always posts SearchDone, SearchAbandoned or SearchFailed, then HiddenFound when
    the hidden matches were looked for. Raises what the search raised (after posting
    SearchFailed), for the worker-error handler."""
    view = engine.agent(scope)
    typed = parse_query(query)  # subject:NAME and topics:A,B are memory_search's filters
    try:
        # Approximate (HNSW) on big collections, as the agent's own Qdrant searches.
        result = view.search(
            typed.text,
            # None: as many as the agent's own search returns (memory_search's default
            # limit; on mem0 the plugin's topK); limit:N asks for N, as the agent can.
            limit=typed.limit,
            exact=False,
            stop=lambda: not current(),
            wait=False,
            subject=typed.subject,
            topics=typed.topics or None,
        )
    except SearchStopped:
        post(SearchAbandoned(generation, query))
        return
    except Exception as exc:
        post(SearchFailed(generation, query, str(exc)))
        raise
    done = SearchDone(generation, query, result)
    post(done)
    # The pages of the store's files this search touched go back once its hits are
    # drawn (or dropped), not while the frame is drawn (see tuning).
    done.drawn.wait(DRAWN_WAIT)
    tuning.hand_back_pages(engine)
    if result.partial is not None:
        return  # searched again once the rest is there
    if not _stood(current):
        return
    try:
        hidden, notice = view.hidden_matches(typed.text, limit=HIDDEN_LIMIT, exact=False)
    except Exception:  # the hits are shown; a failing store shows on the next load
        return
    finally:
        tuning.hand_back_pages(engine)  # the hidden-match search touched pages again
    post(HiddenFound(generation, query, hidden, notice))


def _stood(current: Callable[[], bool]) -> bool:
    """Wait ``HIDDEN_AFTER``; True when the query stayed in the box (and the worker
    was not cancelled) all along."""
    worker = get_current_worker()
    deadline = time.monotonic() + HIDDEN_AFTER
    while time.monotonic() < deadline:
        if not current() or worker.is_cancelled:
            return False
        time.sleep(HIDDEN_POLL)
    return current() and not worker.is_cancelled
