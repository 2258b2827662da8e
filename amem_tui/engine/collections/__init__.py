"""One collection of one store, as every part of the engine reads and writes it.

A :class:`CollectionService` knows what the raw store does not: the payload format of
its points (openclaw-amem notes or mem0 memories), the read rules of an agent in that
format, and the cached notes search works on; its :class:`CollectionModel` knows the
model that built its vectors and whether we can embed like it. Search, consolidation,
audit and transfer take the service (never the engine facade), so none of them needs
to know how the engine is wired. :class:`Collections` keeps one service per collection
of a store.
"""

from amem_tui.engine.collections.model import CollectionModel
from amem_tui.engine.collections.service import Collections, CollectionService

__all__ = ["CollectionModel", "CollectionService", "Collections"]
