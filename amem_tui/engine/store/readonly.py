"""A store wrapper that refuses every write: what ``--read-only`` opens."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from amem_tui.engine.errors import ReadOnlyStore
from amem_tui.engine.store.base import (
    SCAN_PAGE,
    CollectionInfo,
    NoteStore,
    PointPage,
    ScoredPoint,
    StoredPoint,
    Vector,
)
from amem_tui.engine.store.filters import Filter
from amem_tui.engine.store.journal import ChangeLog

_MESSAGE = "the store is opened read-only (--read-only): writes are off"


class ReadOnlyGuard:
    """Passes reads to the wrapped store and raises ``ReadOnlyStore`` on writes."""

    def __init__(self, inner: NoteStore) -> None:
        self.inner = inner

    @property
    def location(self) -> str:
        """The wrapped store's location."""
        return self.inner.location

    @property
    def embedded(self) -> bool:
        """Whether the wrapped store is embedded."""
        return self.inner.embedded

    @property
    def write_generation(self) -> int:
        """The wrapped store's write generation (nothing is written through the guard)."""
        return self.inner.write_generation

    @property
    def changes(self) -> ChangeLog:
        """The wrapped store's change log."""
        return self.inner.changes

    # ---------------------------------------------------------------- reads
    def list_collections(self) -> list[str]:
        """Names of all collections."""
        return self.inner.list_collections()

    def resolve_alias(self, name: str) -> str:
        """The collection an alias points to."""
        return self.inner.resolve_alias(name)

    def list_aliases(self) -> dict[str, str] | None:
        """Every alias and its collection (None: the store has no aliases)."""
        return self.inner.list_aliases()

    def collection_info(self, name: str) -> CollectionInfo | None:
        """Facts about a collection."""
        return self.inner.collection_info(name)

    def retrieve(
        self, collection: str, ids: Sequence[str], with_vectors: bool = False
    ) -> list[StoredPoint]:
        """Points by id."""
        return self.inner.retrieve(collection, ids, with_vectors)

    def scroll(
        self,
        collection: str,
        flt: Filter | None,
        limit: int,
        offset: int = 0,
        with_vectors: bool = False,
    ) -> list[StoredPoint]:
        """A page of matching points."""
        return self.inner.scroll(collection, flt, limit, offset, with_vectors)

    def scan(
        self,
        collection: str,
        flt: Filter | None = None,
        with_vectors: bool = False,
        page: int = SCAN_PAGE,
        fields: Sequence[str] | None = None,
    ) -> Iterator[StoredPoint]:
        """Every matching point, a page at a time."""
        return self.inner.scan(collection, flt, with_vectors, page, fields)

    def scan_pages(
        self,
        collection: str,
        flt: Filter | None = None,
        with_vectors: bool = False,
        page: int = SCAN_PAGE,
        fields: Sequence[str] | None = None,
    ) -> Iterator[PointPage]:
        """Every matching point, a page at a time, the vectors as a matrix."""
        return self.inner.scan_pages(collection, flt, with_vectors, page, fields)

    def count(self, collection: str, flt: Filter | None = None) -> int:
        """How many points match."""
        return self.inner.count(collection, flt)

    def ordered(
        self,
        collection: str,
        flt: Filter | None,
        key: str,
        limit: int,
        fields: Sequence[str] | None = None,
        descending: bool = True,
    ) -> list[StoredPoint]:
        """The first matching points by a number."""
        return self.inner.ordered(collection, flt, key, limit, fields, descending)

    def indexed_fields(self, collection: str) -> dict[str, str]:
        """The wrapped store's payload indexes."""
        return self.inner.indexed_fields(collection)

    def facet(self, collection: str, key: str, flt: Filter | None = None) -> dict[str, int]:
        """Matching points per value of an indexed field."""
        return self.inner.facet(collection, key, flt)

    def time_bounds(self, collection: str, key: str) -> tuple[str, str] | None:
        """The earliest and latest value of an indexed time field."""
        return self.inner.time_bounds(collection, key)

    def search(
        self,
        collection: str,
        vector: Vector,
        flt: Filter | None,
        limit: int,
        exact: bool = True,
        with_payload: bool = True,
    ) -> list[ScoredPoint]:
        """Nearest points by cosine similarity."""
        return self.inner.search(collection, vector, flt, limit, exact, with_payload)

    # --------------------------------------------------------------- writes
    def ensure_collection(
        self,
        name: str,
        vector_size: int,
        embedding_model: str,
        indexes: Sequence[str] = (),
        sparse: Sequence[str] = (),
        *,
        notes: bool = True,
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

    def put_if(self, collection: str, point: StoredPoint, expect: Filter) -> None:
        """Refused."""
        raise ReadOnlyStore(_MESSAGE)

    def delete_points(self, collection: str, ids: Sequence[str]) -> None:
        """Refused."""
        raise ReadOnlyStore(_MESSAGE)

    def settle(self, collection: str) -> None:
        """Nothing to settle: nothing is written through the guard."""

    def revision(self, collection: str) -> int | None:
        """The wrapped store's revision of the collection."""
        return self.inner.revision(collection)

    def changed_since(self, collection: str, revision: int) -> set[str] | None:
        """What the wrapped store says changed."""
        return self.inner.changed_since(collection, revision)

    def sidecar(self, collection: str) -> Path | None:
        """None: nothing is written into a store opened read-only."""
        return None

    def release_pages(self) -> int:
        """Release the wrapped store's mapped pages (reading only)."""
        return self.inner.release_pages()

    def close(self) -> None:
        """Close the wrapped store."""
        self.inner.close()
