"""One collection of one store, as every part of the engine reads and writes it.

A ``CollectionService`` knows what the raw store does not: the payload format of
its points (openclaw-amem notes or mem0 memories) and the read rules of an agent in
that format. It is made of two more parts: its ``CollectionIndex``, the note
index search and the store-wide figures work on, and its ``CollectionModel``, the
model that built its vectors and whether we can embed like it. Search, consolidation,
audit and transfer take the service (never the engine facade), so none of them needs
to know how the engine is wired; the engine never hands it out. ``Collections``
keeps one service per collection of a store.
"""

from amem_tui.engine.collections.index import CollectionIndex
from amem_tui.engine.collections.model import CollectionModel
from amem_tui.engine.collections.service import Collections, CollectionService

__all__ = ["CollectionIndex", "CollectionModel", "CollectionService", "Collections"]
