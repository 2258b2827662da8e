"""Where a search made as one agent looks, and with what query vector."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from amem_tui.engine.collections import CollectionService
from amem_tui.engine.embedding.query_vectors import embed_query
from amem_tui.engine.errors import ModelUnavailable
from amem_tui.engine.scope import NO_FILTERS, AgentScope, SearchFilters
from amem_tui.engine.search.ranking import SearchMode
from amem_tui.engine.settings import Mem0PluginConfig


@dataclass(frozen=True)
class SearchSpace:
    """The agent's scope and collection, and every collection this configuration knows.

    ``collections`` starts with the agent's own; the others (the shared collection,
    Mode B collections) are where hidden matches may lie. ``dedicated`` maps Mode B
    agents to their collections, to name whose collection a hidden match is in.
    """

    scope: AgentScope
    collections: tuple[CollectionService, ...]
    dedicated: Mapping[str, str] = field(default_factory=dict)
    #: The OpenClaw mem0 plugin's entry (its topK, thresholds, recall settings), for a
    #: mem0 collection searched as the plugin searches it (None: the plugin's defaults).
    mem0_plugin: Mem0PluginConfig | None = None
    #: openclaw-amem's memory_search filters (``subject``, ``topicsFilter``).
    filters: SearchFilters = NO_FILTERS

    @property
    def own(self) -> CollectionService:
        """The agent's own collection (where its hits come from)."""
        return self.collections[0]


def query_vector(
    service: CollectionService,
    query: str,
    mode: SearchMode,
    notices: list[str],
    stop: Callable[[], bool] | None = None,
) -> np.ndarray | None:
    """The query's vector for a collection, or None (with a notice) without a usable model.

    ``stop`` is asked before the model runs: a query typed over gives up its turn
    (``SearchStopped``) instead of keeping a newer one waiting.
    """
    if mode == "keyword":
        return None
    try:
        embedder = service.model.embedder()
        if embedder is None:  # built by a model we cannot run here: say so
            notices.append(
                f"No usable embedding model ({service.model.status()[1]}): "
                "keyword-only (BM25) search."
            )
            return None
        return np.asarray(embed_query(embedder, query, stop), dtype=np.float32)
    except ModelUnavailable as exc:  # ModelMismatch included
        notices.append(f"No usable embedding model ({exc}): keyword-only (BM25) search.")
        return None


def selection_key(scope: AgentScope, which: str) -> tuple[str, ...]:
    """Names a cached selection of notes: what it is for, and whose scope."""
    return (which, scope.agent, scope.mode, scope.collection, scope.namespace or "")
