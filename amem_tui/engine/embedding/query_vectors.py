"""Query vectors for a live search box: kept once made, and made one at a time.

A search box asks for the vector of each query the user pauses on, and again for the
same text after a backspace. A big model takes long enough per query that a user types
on while it runs: the caller's ``stop`` says when a query's answer is no longer wanted
(a newer query was typed), and such a query gives up its turn instead of running the
model. A run already under way finishes (onnxruntime cannot be interrupted) and its
vector is kept for when the text comes back.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol, runtime_checkable

import numpy as np

from amem_tui.engine.errors import SearchStopped

#: Query vectors kept per model.
RECENT_QUERIES = 256

Stop = Callable[[], bool]


class QueryEmbedder(Protocol):
    """Anything that embeds a query (every engine embedder)."""

    def embed_query(self, text: str) -> np.ndarray:
        """The query's vector."""
        ...


@runtime_checkable
class StoppableQueries(Protocol):
    """An embedder whose query vectors are cached and whose runs a caller can give up."""

    def embed_query(self, text: str, stop: Stop | None = None) -> np.ndarray:
        """The query's vector (from the cache when made before)."""
        ...

    def has_query(self, text: str) -> bool:
        """True when the query's vector is made already (asking costs nothing)."""
        ...


class QueryVectors:
    """The cache and the turn-taking of one model's query vectors."""

    def __init__(self, compute: Callable[[str], np.ndarray], size: int = RECENT_QUERIES) -> None:
        self._compute = compute
        self._size = size
        self._kept: OrderedDict[str, np.ndarray] = OrderedDict()
        self._kept_lock = threading.Lock()
        self._turn = threading.Lock()

    def has(self, text: str) -> bool:
        """True when ``text``'s vector is kept."""
        with self._kept_lock:
            return text in self._kept

    def get(self, text: str, stop: Stop | None = None) -> np.ndarray:
        """``text``'s vector: kept, else made when the model is free.

        ``SearchStopped`` is raised when ``stop`` says True before the model runs
        (also after waiting for another query's run).
        """
        found = self._kept_one(text)
        if found is not None:
            return found
        _stop_if_asked(stop)
        with self._turn:
            found = self._kept_one(text)  # made while this one waited
            if found is not None:
                return found
            _stop_if_asked(stop)
            vector = np.asarray(self._compute(text), dtype=np.float32)
        with self._kept_lock:
            self._kept[text] = vector.copy()
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)
        return vector

    def _kept_one(self, text: str) -> np.ndarray | None:
        with self._kept_lock:
            found = self._kept.get(text)
            if found is None:
                return None
            self._kept.move_to_end(text)
            return found.copy()


def embed_query(embedder: QueryEmbedder, text: str, stop: Stop | None = None) -> np.ndarray:
    """``text``'s vector from any embedder, giving up (``SearchStopped``) when
    ``stop`` says so before the model runs, where the embedder allows it."""
    if isinstance(embedder, StoppableQueries):
        return embedder.embed_query(text, stop)
    _stop_if_asked(stop)
    return embedder.embed_query(text)


def _stop_if_asked(stop: Stop | None) -> None:
    if stop is not None and stop():
        raise SearchStopped("the search was stopped: its answer is no longer wanted")
