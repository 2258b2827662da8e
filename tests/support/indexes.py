"""Taking a payload index away from a collection, as in one made before amem-tui
created that index (or made by another tool), on the backends that keep indexes."""

from __future__ import annotations

import qdrant_edge as qe

from amem_tui.engine.store.base import NoteStore
from amem_tui.engine.store.edge import EdgeStore
from amem_tui.engine.store.qdrant import QdrantStore


def drop_index(store: NoteStore, collection: str, field: str) -> None:
    """Remove ``field``'s payload index (local mode keeps none: nothing to do there)."""
    if isinstance(store, EdgeStore):
        opened = store._open(collection)
        assert opened is not None
        opened.shard.update(qe.UpdateOperation.delete_field_index(field))
    elif isinstance(store, QdrantStore) and not store.embedded:
        store.client.delete_payload_index(collection, field)
    assert field not in store.indexed_fields(collection)
