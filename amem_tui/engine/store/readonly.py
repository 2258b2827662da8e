"""A store wrapper that refuses every write: what ``--read-only`` opens."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from amem_tui.engine.errors import ReadOnlyStore
from amem_tui.engine.store.base import CollectionInfo, NoteStore, StoredPoint

_MESSAGE = "the store is opened read-only (--read-only): writes are off"


class ReadOnlyGuard:
    """Passes reads to the wrapped store and raises :class:`ReadOnlyStore` on writes."""

    def __init__(self, inner: NoteStore) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        # Reads (and attributes such as ``location``) go straight through.
        return getattr(self.inner, name)

    def ensure_collection(
        self, name: str, vector_size: int, embedding_model: str, indexes: Sequence[str] = ()
    ) -> CollectionInfo:
        """Refused unless the collection already exists (then nothing is written)."""
        info = self.inner.collection_info(name)
        if info is None:
            raise ReadOnlyStore(_MESSAGE)
        return info

    def upsert(self, collection: str, points: Sequence[StoredPoint]) -> None:
        """Refused."""
        raise ReadOnlyStore(_MESSAGE)

    def set_payload(self, collection: str, point_id: str, payload: dict[str, Any]) -> None:
        """Refused."""
        raise ReadOnlyStore(_MESSAGE)

    def delete_points(self, collection: str, ids: Sequence[str]) -> None:
        """Refused."""
        raise ReadOnlyStore(_MESSAGE)

    def close(self) -> None:
        """Close the wrapped store."""
        self.inner.close()
