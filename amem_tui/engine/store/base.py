"""The store protocol every backend implements.

Backends speak in payload dicts and neutral filters (:mod:`amem_tui.engine.scope`);
they never decide who may see what.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from amem_tui.engine.scope import Filter

Vector = list[float]


@dataclass
class StoredPoint:
    """A point as stored: id, payload and (when asked for) its vector."""

    id: str
    payload: dict[str, Any]
    vector: Vector | None = None


@dataclass
class ScoredPoint:
    """A point returned by a vector search, with its cosine similarity."""

    id: str
    payload: dict[str, Any]
    score: float


@dataclass
class CollectionInfo:
    """What a collection is: its real name, vector size, model and size."""

    name: str
    vector_size: int | None
    embedding_model: str | None
    points_count: int
    aliases: list[str] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class NoteStore(Protocol):
    """A vector store of notes: collections of points with payloads."""

    #: Human-readable location, e.g. an embedded folder or a server URL.
    location: str
    #: True for a store that filters in-process and only one process may open.
    embedded: bool

    def list_collections(self) -> list[str]:
        """Names of all collections (aliases not included)."""
        ...

    def resolve_alias(self, name: str) -> str:
        """The collection an alias points to, or ``name`` itself."""
        ...

    def collection_info(self, name: str) -> CollectionInfo | None:
        """Facts about a collection (aliases resolved), or None if it does not exist."""
        ...

    def ensure_collection(
        self, name: str, vector_size: int, embedding_model: str, indexes: Sequence[str] = ()
    ) -> CollectionInfo:
        """Create the collection if missing (cosine distance, keyword indexes, metadata)."""
        ...

    def upsert(self, collection: str, points: Sequence[StoredPoint]) -> None:
        """Insert or replace points; each must carry its vector."""
        ...

    def set_payload(self, collection: str, point_id: str, payload: dict[str, Any]) -> None:
        """Replace a point's whole payload, keeping its vector."""
        ...

    def retrieve(
        self, collection: str, ids: Sequence[str], with_vectors: bool = False
    ) -> list[StoredPoint]:
        """Points by id; ids that do not exist are left out."""
        ...

    def scroll(
        self,
        collection: str,
        flt: Filter | None,
        limit: int,
        offset: int = 0,
        with_vectors: bool = False,
    ) -> list[StoredPoint]:
        """A page of the points the filter matches, in a stable order."""
        ...

    def count(self, collection: str, flt: Filter | None = None) -> int:
        """How many points the filter matches (exactly)."""
        ...

    def search(
        self,
        collection: str,
        vector: Vector,
        flt: Filter | None,
        limit: int,
        exact: bool = True,
    ) -> list[ScoredPoint]:
        """Nearest points by cosine similarity among those the filter matches."""
        ...

    def delete_points(self, collection: str, ids: Sequence[str]) -> None:
        """Remove points for good (only for the engine's own bookkeeping records)."""
        ...

    def close(self) -> None:
        """Release the store (and its lock, for an embedded store)."""
        ...
