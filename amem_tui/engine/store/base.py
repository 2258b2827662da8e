"""The store protocol every backend implements, and the points it speaks in.

Backends speak in payload dicts and the neutral filters of
``amem_tui.engine.store.filters``; they never decide who may see what. The
protocol declares every capability callers use, so nothing is probed for. What was
written, for caches to catch up, is ``journal``; ids are ``ids``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from amem_tui.engine.store.filters import Filter
from amem_tui.engine.store.journal import ChangeLog

if TYPE_CHECKING:
    import numpy as np

Vector = list[float]


@dataclass(frozen=True)
class SparseVector:
    """A sparse vector (for instance a BM25 one): the non-zero dimensions and their values."""

    indices: tuple[int, ...]
    values: tuple[float, ...]


@dataclass
class StoredPoint:
    """A point as stored: id, payload and (when asked for) its vectors.

    ``vector`` is the dense one (unnamed, or the first named); ``sparse`` holds the
    named sparse vectors some stores keep beside it (mem0's ``bm25``).
    """

    id: str
    payload: dict[str, Any]
    vector: Vector | None = None
    sparse: dict[str, SparseVector] = field(default_factory=dict)


@dataclass
class PointPage:
    """A page of a scan: ids and payloads by position, and (when asked for) the dense
    vectors as the rows of one float32 array, so a caller that wants a matrix gets one
    without a list per point.

    ``has_vector`` says which points have a dense vector; a point without one has a row
    of zeros. A page with no dense vector at all has a matrix of no columns.
    """

    ids: list[str]
    payloads: list[dict[str, Any]]
    vectors: np.ndarray | None = None
    has_vector: np.ndarray | None = None


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
    #: Names of the sparse vector slots beside the dense vector.
    sparse_vectors: list[str] = field(default_factory=list)


#: Points per page when a whole collection (or filter) is read.
SCAN_PAGE = 4096
#: Written by every backend into the metadata of each collection amem-tui creates.
CREATED_BY = "amem-tui"
#: Index kinds (as ``NoteStore.indexed_fields`` names them) that a store can
#: order points by.
ORDERED_INDEXES = ("integer", "float")
#: The payload indexes every backend creates with a new collection. Keyword: the scope
#: fields plus openclaw-amem's own.
KEYWORD_INDEXES = ("agent_id", "owner", "readers", "writers", "hash", "topics", "subjects")
BOOL_INDEXES = ("is_active",)
#: Time indexes: ``stats`` counts the notes of each week with them.
DATETIME_INDEXES = ("timestamp",)
#: Integer indexes: ``stats`` counts the notes never recalled and reads the most
#: recalled ones in order with them (ranges and order only, kept on disk).
INTEGER_INDEXES = ("retrieval_count",)


@runtime_checkable
class NoteStore(Protocol):
    """A vector store of notes: collections of points with payloads."""

    @property
    def location(self) -> str:
        """Human-readable location, e.g. an embedded folder or a server URL."""
        ...

    @property
    def embedded(self) -> bool:
        """True for a store only this process may open and write (an embedded folder or
        ``:memory:``): what it read stays true until it writes itself."""
        ...

    @property
    def write_generation(self) -> int:
        """Bumped before and after every write made through this object (odd while one
        runs), so a reader can tell whether anything was written since it read."""
        ...

    @property
    def changes(self) -> ChangeLog:
        """Which points each write touched (logged by embedded stores), so a cache can
        catch up instead of re-reading a whole collection."""
        ...

    def list_collections(self) -> list[str]:
        """Names of all collections (aliases not included)."""
        ...

    def resolve_alias(self, name: str) -> str:
        """The collection an alias points to, or ``name`` itself."""
        ...

    def list_aliases(self) -> dict[str, str] | None:
        """Every alias and the collection it points to; None where the store has no
        aliases at all (Qdrant Edge), which is not the same as having none."""
        ...

    def collection_info(self, name: str) -> CollectionInfo | None:
        """Facts about a collection (aliases resolved), or None if it does not exist."""
        ...

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
        """Create the collection if missing (cosine distance, keyword indexes, metadata,
        and the named ``sparse`` vector slots with IDF weighting, as mem0 makes them).
        ``notes``: it holds notes, so it also gets the indexes of the note fields; a
        bookkeeping collection gets only its ``indexes``."""
        ...

    def upsert(self, collection: str, points: Sequence[StoredPoint]) -> None:
        """Insert or replace points; each must carry its vector."""
        ...

    def set_payload(self, collection: str, point_id: str, payload: dict[str, Any]) -> None:
        """Replace a point's whole payload, keeping its vector."""
        ...

    def put_if(self, collection: str, point: StoredPoint, expect: Filter) -> None:
        """Write ``point`` (with its vector) as one conditional write that the store
        applies atomically: inserted when no point has its id, replaced only when the
        stored one matches ``expect``, else left as it is. Nothing says which happened:
        read the point back (see ``amem_tui.engine.consolidation.runlock``)."""
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

    def scan(
        self,
        collection: str,
        flt: Filter | None = None,
        with_vectors: bool = False,
        page: int = SCAN_PAGE,
        fields: Sequence[str] | None = None,
    ) -> Iterator[StoredPoint]:
        """Every point the filter matches, in scroll order, read a page at a time.

        Pages go by point id, so each page costs the same however far the scan is.
        ``fields`` reads only those payload keys (None: the whole payload).
        """
        ...

    def scan_pages(
        self,
        collection: str,
        flt: Filter | None = None,
        with_vectors: bool = False,
        page: int = SCAN_PAGE,
        fields: Sequence[str] | None = None,
    ) -> Iterator[PointPage]:
        """What ``scan`` reads, a page at a time (no page empty), the dense vectors of a
        page in one float32 array: for callers that compute on every vector of a
        collection (the leak audit's cosine)."""
        ...

    def count(self, collection: str, flt: Filter | None = None) -> int:
        """How many points the filter matches (exactly)."""
        ...

    def ordered(
        self,
        collection: str,
        flt: Filter | None,
        key: str,
        limit: int,
        fields: Sequence[str] | None = None,
        descending: bool = True,
    ) -> list[StoredPoint]:
        """The first ``limit`` points the filter matches, by the number in ``key``
        (greatest first when ``descending``); points whose ``key`` holds no number are
        left out, and ties come in the store's own order. ``fields`` reads only those
        payload keys (None: the whole payload).

        Where ``key`` has a numeric index (``ORDERED_INDEXES``) the store reads
        those points alone (Qdrant's ``order_by``); elsewhere it reads that one field
        of every match and keeps the best (``ordered_by_reading``).
        """
        ...

    def indexed_fields(self, collection: str) -> dict[str, str]:
        """The payload indexes a count or facet can use, by field: ``keyword``, ``bool``,
        ``datetime``, ... Empty where the store filters in Python (qdrant-client's local
        mode): there a count reads every point, and one scan is cheaper than many counts."""
        ...

    def facet(self, collection: str, key: str, flt: Filter | None = None) -> dict[str, int]:
        """How many matching points hold each value of an indexed keyword field (exactly;
        a list counts once for each value it holds)."""
        ...

    def time_bounds(self, collection: str, key: str) -> tuple[str, str] | None:
        """The earliest and latest value of a field with a ``datetime`` index (None when
        no point has one)."""
        ...

    def search(
        self,
        collection: str,
        vector: Vector,
        flt: Filter | None,
        limit: int,
        exact: bool = True,
        with_payload: bool = True,
    ) -> list[ScoredPoint]:
        """Nearest points by cosine similarity among those the filter matches.

        ``with_payload`` False leaves payloads empty (for callers that hold the notes).
        """
        ...

    def delete_points(self, collection: str, ids: Sequence[str]) -> None:
        """Remove points for good (only for the engine's own bookkeeping records)."""
        ...

    def settle(self, collection: str) -> None:
        """Finish what the store does in the background after a bulk write (Edge merges
        segments and builds the HNSW graph), so later readers do not compete with it."""
        ...

    def revision(self, collection: str) -> int | None:
        """How many writes the collection has had through amem-tui stores, across processes
        (None when the store cannot tell, as a server written by others cannot)."""
        ...

    def changed_since(self, collection: str, revision: int) -> set[str] | None:
        """Ids written after ``revision`` (None when unknown: re-read everything)."""
        ...

    def sidecar(self, collection: str) -> Path | None:
        """A folder beside the collection for data derived from it (None: none here)."""
        ...

    def release_pages(self) -> int:
        """Hand back the pages of the store's files that this process mapped to read
        them and no longer needs (they stay in the page cache); returns the bytes of
        mappings released (0: nothing to release, or a store that maps nothing)."""
        ...

    def close(self) -> None:
        """Release the store (and its lock, for an embedded store)."""
        ...
