"""The store protocol every backend implements.

Backends speak in payload dicts and the neutral filters of
:mod:`amem_tui.engine.store.filters`; they never decide who may see what. The
protocol declares every capability callers use, so nothing is probed for.
"""

from __future__ import annotations

import contextlib
import heapq
import os
import threading
import uuid
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Protocol, runtime_checkable

from amem_tui.engine.store.filters import Filter

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
#: Index kinds (as :meth:`NoteStore.indexed_fields` names them) that a store can
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
        read the point back (see :mod:`amem_tui.engine.consolidation.runlock`)."""
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

        Where ``key`` has a numeric index (:data:`ORDERED_INDEXES`) the store reads
        those points alone (Qdrant's ``order_by``); elsewhere it reads that one field
        of every match and keeps the best (:func:`ordered_by_reading`).
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


def ordered_by_reading(
    store: NoteStore,
    collection: str,
    flt: Filter | None,
    key: str,
    limit: int,
    fields: Sequence[str] | None = None,
    descending: bool = True,
) -> list[StoredPoint]:
    """:meth:`NoteStore.ordered` for a field without a numeric index: ``key`` alone is
    read of every match, the best ``limit`` kept, and only those points read whole
    (or their ``fields``)."""
    if limit <= 0:
        return []
    found: list[tuple[float, str]] = []
    for point in store.scan(collection, flt, fields=[key]):
        value = _number(point.payload.get(key), descending)
        if value is not None:
            found.append((value, point.id))
    pick = heapq.nlargest if descending else heapq.nsmallest
    best = pick(limit, found, key=lambda pair: pair[0])
    read = {p.id: p for p in store.retrieve(collection, [i for _, i in best])}
    out = [read[i] for _, i in best if i in read]  # one deleted in between is left out
    if fields is not None:
        for point in out:
            point.payload = {k: point.payload[k] for k in fields if k in point.payload}
    return out


def _number(value: object, greatest: bool) -> float | None:
    """The number a point is ordered by: a number, or the greatest (or least) of a list of
    them, as Qdrant orders a list field; None for anything else."""
    if isinstance(value, list):
        numbers = [n for n in (_number(v, greatest) for v in value) if n is not None]
        return (max if greatest else min)(numbers) if numbers else None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def qdrant_id(text: str) -> str | int:
    """An id as Qdrant takes it: an unsigned integer, or the UUID text as given."""
    if isinstance(text, str) and text.isdigit():
        return int(text)
    return text


def valid_id(text: str) -> bool:
    """True for an id Qdrant accepts: an unsigned integer or a UUID."""
    if text.isdigit():
        return True
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True


def canonical_id(raw: object) -> str:
    """A point id as stores return it: a decimal integer or a lowercase hyphenated UUID."""
    text = str(raw)
    if text.isdigit():
        return str(int(text))
    try:
        return str(uuid.UUID(text))
    except ValueError:
        return text


def store_order(text: str) -> tuple[int, int, str]:
    """Where Qdrant's scroll puts a point id: integers first (by value), then UUIDs."""
    if text.isdigit():
        return (0, int(text), "")
    return (1, 0, text)


def vector_of(raw: Any, sparse_type: type = SparseVector) -> Vector | None:
    """A point's dense vector as floats (the unnamed one, or the first dense one of named
    vectors); values of ``sparse_type`` (the backend's sparse vector class) are skipped."""
    if raw is None:
        return None
    if isinstance(raw, dict):
        dense = [v for k, v in raw.items() if not isinstance(v, sparse_type) and k == ""]
        dense += [v for v in raw.values() if not isinstance(v, sparse_type)]
        raw = dense[0] if dense else None
    return [float(x) for x in raw] if raw is not None else None


def sparse_of(raw: Any, sparse_type: type) -> dict[str, SparseVector]:
    """The named sparse vectors of a point (``sparse_type``: the backend's sparse class,
    whose objects carry ``indices`` and ``values``)."""
    if not isinstance(raw, dict):
        return {}
    found: dict[str, SparseVector] = {}
    for name, value in raw.items():
        if isinstance(value, sparse_type):
            carried: Any = value
            found[name] = SparseVector(
                tuple(int(i) for i in carried.indices), tuple(float(v) for v in carried.values)
            )
    return found


class ChangeLog:
    """Which points recent writes touched, so a cache can catch up instead of re-reading.

    Entries carry the store's ``write_generation`` as it was while the write ran
    (odd: stores bump it before and after every write). A reader that took
    generation ``t`` before it read may have missed every write logged at ``t`` or
    later; :meth:`since` returns exactly those points.
    """

    def __init__(self, keep: int = 4096) -> None:
        self._entries: deque[tuple[int, str, frozenset[str] | None]] = deque()
        self._keep = keep
        self._forgotten = -1  # the newest generation no longer in the log
        self._lock = threading.Lock()

    def record(self, generation: int, collection: str, ids: Iterable[object] | None) -> None:
        """Log a write; ``ids`` None means the whole collection changed."""
        with self._lock:
            known = None if ids is None else frozenset(canonical_id(i) for i in ids)
            self._entries.append((generation, collection, known))
            while len(self._entries) > self._keep:
                self._forgotten = max(self._forgotten, self._entries.popleft()[0])

    def since(self, collection: str, generation: int) -> set[str] | None:
        """Points of ``collection`` written at ``generation`` or later; None if unknown."""
        with self._lock:
            if generation <= self._forgotten:
                return None
            changed: set[str] = set()
            for written, name, ids in self._entries:
                if written >= generation and name == collection:
                    if ids is None:
                        return None
                    changed |= ids
            return changed


#: The folder beside a collection for data derived from it (:meth:`NoteStore.sidecar`),
#: and the one in it where its note index is saved.
SIDECAR_DIR = "derived"
SAVED_INDEX_DIR = "index"
#: The file of a collection's journal that counts its writes.
_REVISION_FILE = "revision"


def read_revision(journal: Path) -> int:
    """The write count a journal folder holds (0 when it has none): readable by any
    process, the store open or not."""
    try:
        return int((journal / _REVISION_FILE).read_text(encoding="ascii").strip() or 0)
    except (OSError, ValueError):
        return 0


class WriteJournal:
    """A collection's writes, counted and logged on disk, for caches in later processes.

    ``revision`` counts every write ever made through an amem-tui store to the
    collection; ``changes.log`` keeps the ids each recent write touched, one line per
    write (``<revision> <id>,<id>…``, or ``*`` for the whole collection). A cache saved
    at revision ``r`` catches up by re-reading the ids logged after ``r``, or rebuilds
    when the log no longer reaches back that far. Only one process writes an embedded
    store at a time (it holds the store's lock), so appends never interleave.
    """

    KEEP = 8192

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._revision: int | None = None
        # Kept open between writes: a consolidation run writes thousands of notes one by
        # one, and opening, renaming and closing two files for each write took a third
        # of a nightly pass at 100,000 notes.
        self._log: IO[str] | None = None
        self._revision_fd: int | None = None

    @property
    def revision(self) -> int:
        """How many writes the collection has had (0 for one never written)."""
        with self._lock:
            if self._revision is None:
                self._revision = read_revision(self.folder)
            return self._revision

    def record(self, ids: Iterable[object] | None) -> None:
        """Log one write (``ids`` None: the whole collection changed)."""
        with self._lock:
            counted = self._revision
            revision = (read_revision(self.folder) if counted is None else counted) + 1
            known = "*" if ids is None else ",".join(sorted({canonical_id(i) for i in ids}))
            log = self._open_log()
            log.write(f"{revision} {known}\n")
            log.flush()
            # In place: the count only grows, so its text never gets shorter than what it
            # overwrites, and a reader sees the old count or the new one.
            os.pwrite(self._open_revision(), str(revision).encode("ascii"), 0)
            self._revision = revision
            if revision % 1024 == 0:
                self._trim()

    def _open_log(self) -> IO[str]:
        log = self._log
        if log is None or os.fstat(log.fileno()).st_nlink == 0:  # the folder was removed
            self._close_files()
            self.folder.mkdir(parents=True, exist_ok=True)
            log = self._log = (self.folder / "changes.log").open("a", encoding="ascii")
        return log

    def _open_revision(self) -> int:
        fd = self._revision_fd
        if fd is None or os.fstat(fd).st_nlink == 0:
            path = self.folder / _REVISION_FILE
            fd = self._revision_fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        return fd

    def _trim(self) -> None:
        log = self.folder / "changes.log"
        lines = log.read_text(encoding="ascii").splitlines()
        if len(lines) > self.KEEP:
            kept = lines[-self.KEEP :]
            tmp = log.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text("\n".join(kept) + "\n", encoding="ascii")
            os.replace(tmp, log)
            if self._log is not None:  # appends go to the file that now has the name
                self._log.close()
                self._log = None

    def close(self) -> None:
        """Close the files kept open between writes (they reopen on the next write)."""
        with self._lock:
            self._close_files()

    def _close_files(self) -> None:
        if self._log is not None:
            with contextlib.suppress(OSError):
                self._log.close()
            self._log = None
        if self._revision_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._revision_fd)
            self._revision_fd = None

    def changed_since(self, revision: int) -> set[str] | None:
        """Ids written after ``revision``; None when the log does not reach back that far."""
        if revision == self.revision:
            return set()
        try:
            lines = (self.folder / "changes.log").read_text(encoding="ascii").splitlines()
        except OSError:
            return None
        changed: set[str] = set()
        oldest: int | None = None
        for line in lines:
            number, _, ids = line.partition(" ")
            try:
                written = int(number)
            except ValueError:
                return None
            oldest = written if oldest is None else min(oldest, written)
            if written <= revision:
                continue
            if ids == "*":
                return None
            changed.update(i for i in ids.split(",") if i)
        if oldest is None or oldest > revision + 1:
            return None  # writes between ``revision`` and the log's start are unknown
        return changed
