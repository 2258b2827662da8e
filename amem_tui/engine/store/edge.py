"""The Qdrant Edge backend: the real Qdrant engine in-process, one shard per collection.

Layout of an Edge store folder::

    <folder>/edge.lock                    held (flock) while a process has the store open
    <folder>/edge/<collection>/shard/     the EdgeShard (segments, WAL, its config)
    <folder>/edge/<collection>/collection.json   name, vector size, metadata (embedding model)

Edge has no collections, aliases or metadata of its own, so those live in the JSON
file beside each shard; aliases are not supported (``EdgeStore.resolve_alias``
returns the name it is given). Big writes are followed by an ``optimize()`` in a
background thread (it builds the HNSW index and merges segments), so bulk loads
become fast to search without ever making a caller wait.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import qdrant_edge as qe

import amem_tui.engine.store.edge_counting as counting
import amem_tui.engine.store.edge_order as order
from amem_tui.engine.errors import StoreLocked, StoreUnavailable
from amem_tui.engine.store.base import (
    CREATED_BY,
    KEYWORD_INDEXES,
    ORDERED_INDEXES,
    CollectionInfo,
    PointPage,
    ScoredPoint,
    StoredPoint,
    Vector,
)
from amem_tui.engine.store.edge_layout import (
    JOURNAL_DIR,
    LOCK_FILE,
    META_FILE,
    SHARDS_DIR,
    collection_folder,
)
from amem_tui.engine.store.edge_optimize import ShardOptimizer
from amem_tui.engine.store.edge_pages import hand_back
from amem_tui.engine.store.edge_shard import (
    COMPACT_VECTORS_FROM,
    OpenShard,
    create_shard,
    load_shard,
)
from amem_tui.engine.store.edge_translate import (
    EdgeId,
    edge_vectors,
    point_page,
    schema_type,
    stored_point,
    to_edge_filter,
)
from amem_tui.engine.store.filters import (
    Filter,
)
from amem_tui.engine.store.ids import qdrant_id, valid_id
from amem_tui.engine.store.journal import SIDECAR_DIR, ChangeLog, WriteJournal
from amem_tui.engine.store.points import nearest_first, ordered_by_reading
from amem_tui.engine.store.shard_files import is_compact, read_for_scan

#: Points written since the last optimize that make a bulk load worth optimizing.
OPTIMIZE_AFTER = 1000


class EdgeStore:
    """A ``NoteStore`` on Qdrant Edge, in a folder that one process may open.

    ``background`` False optimizes in the calling thread (scripts and benchmarks);
    the default optimizes a copy in a child process and swaps it in, so no caller
    ever waits for it.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        optimize_after: int = OPTIMIZE_AFTER,
        compact_vectors_from: int = COMPACT_VECTORS_FROM,
        background: bool = True,
    ) -> None:
        self.root = Path(path)
        self.location = str(self.root)
        self.embedded = True
        #: Changes on every write made through this object, so readers may cache safely.
        self.write_generation = 0
        #: The points each write touched, for caches that follow write_generation.
        self.changes = ChangeLog()
        self._collections: dict[str, OpenShard] = {}
        self._journals: dict[str, WriteJournal] = {}
        self._lock = threading.RLock()
        self._closed = False
        self._optimizer = ShardOptimizer(
            after=optimize_after,
            compact_from=compact_vectors_from,
            background=background,
            calls=self._calls,
            closed=lambda: self._closed,
            store_lock=self._lock,
        )
        self._lock_file: IO[str] | None = None
        try:
            (self.root / SHARDS_DIR).mkdir(parents=True, exist_ok=True)
            lock_file = open(self.root / LOCK_FILE, "a+")  # noqa: SIM115 - held until close()
        except OSError as exc:
            raise StoreUnavailable(f"cannot open the store at {self.root}: {exc}") from exc
        try:
            fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            lock_file.close()
            raise StoreLocked(
                f"the embedded store {self.root} is in use by another process; "
                "stop that process, or point both at a Qdrant server with --url"
            ) from exc
        self._lock_file = lock_file
        # Who holds the lock, for a person looking at the folder (flock is the real lock).
        lock_file.seek(0)
        lock_file.truncate()
        lock_file.write(f"{os.getpid()}\n")
        lock_file.flush()

    # -------------------------------------------------------------- helpers
    @contextmanager
    def _calls(self, what: str) -> Iterator[None]:
        if self._closed:
            raise StoreUnavailable(f"{what} failed: the store {self.root} is closed")
        try:
            yield
        except StoreUnavailable:
            raise
        except Exception as exc:  # Edge raises plain Exceptions for engine errors
            text = str(exc).strip().splitlines()
            reason = text[0] if text else type(exc).__name__
            raise StoreUnavailable(f"{what} failed: {reason} ({self.root})") from exc

    def _folder(self, collection: str) -> Path:
        return collection_folder(self.root, collection)

    def _open(self, collection: str) -> OpenShard | None:
        """The open collection, loading its shard on first use; None if it does not exist."""
        with self._lock:
            if collection in self._collections:
                return self._collections[collection]
            folder = self._folder(collection)
            meta_path = folder / META_FILE
            if not meta_path.is_file():
                return None
            with self._calls(f"opening collection {collection}"):
                meta = json.loads(meta_path.read_text(encoding="utf-8"))
                # A copy left by an optimize that was interrupted is only a copy.
                shutil.rmtree(folder / "shard.optimizing", ignore_errors=True)
                shard = load_shard(str(folder / "shard"), compact=is_compact(meta))
            opened = OpenShard(folder, shard, meta)
            opened.read_graph_ahead()
            # What the load touched and searches do not need (the log it replayed, the
            # payloads, the keyword indexes' maps) goes back at once: an app loads its
            # model next, and the two would otherwise add up to its peak.
            with opened.lock.writing():
                hand_back(opened)
            self._collections[collection] = opened
        # Writes since the last optimize (maybe by a process that quit before it ran).
        optimized = int(meta.get("optimized_points", 0))
        self._optimizer.note_writes(opened, abs(self.count(collection) - optimized))
        return opened

    def _require(self, collection: str) -> OpenShard:
        opened = self._open(collection)
        if opened is None:
            raise StoreUnavailable(f"collection {collection!r} does not exist in {self.root}")
        return opened

    def _update(
        self,
        opened: OpenShard,
        operation: qe.UpdateOperation,
        what: str,
        ids: Sequence[EdgeId] | None,
    ) -> None:
        # Bumped before and after: a reader that overlaps a write never keeps what it
        # read under the generation that follows the write.
        self.write_generation += 1
        self.changes.record(self.write_generation, opened.meta["name"], ids)
        try:
            with opened.lock.writing(), self._calls(what):
                opened.shard.update(operation)
                if opened.journal is not None:
                    opened.journal.append(operation)
                self._journal(opened.meta["name"]).record(ids)
        finally:
            self.write_generation += 1

    def _journal(self, collection: str) -> WriteJournal:
        with self._lock:
            journal = self._journals.get(collection)
            if journal is None:
                journal = self._journals[collection] = WriteJournal(
                    self._folder(collection) / JOURNAL_DIR
                )
            return journal

    # -------------------------------------------------------------- revisions
    def revision(self, collection: str) -> int | None:
        """How many writes the collection has had (kept in its folder, across processes)."""
        if self._open(collection) is None:
            return None
        return self._journal(collection).revision

    def changed_since(self, collection: str, revision: int) -> set[str] | None:
        """Ids written after ``revision`` (None: the journal does not reach back that far)."""
        if self._open(collection) is None:
            return None
        return self._journal(collection).changed_since(revision)

    def sidecar(self, collection: str) -> Path | None:
        """The collection's folder for derived data (its note index)."""
        if self._open(collection) is None:
            return None
        return self._folder(collection) / SIDECAR_DIR

    # ---------------------------------------------------------- collections
    def list_collections(self) -> list[str]:
        """Names of all collections."""
        names = []
        for meta_path in (self.root / SHARDS_DIR).glob(f"*/{META_FILE}"):
            with contextlib.suppress(OSError, ValueError, KeyError):
                names.append(str(json.loads(meta_path.read_text(encoding="utf-8"))["name"]))
        return sorted(names)

    def resolve_alias(self, name: str) -> str:
        """Edge has no aliases: a name is always a collection name."""
        return name

    def list_aliases(self) -> dict[str, str] | None:
        """None: Edge has no aliases."""
        return None

    def collection_info(self, name: str) -> CollectionInfo | None:
        """Facts about a collection, or None when it does not exist."""
        opened = self._open(name)
        if opened is None:
            return None
        metadata = dict(opened.meta.get("metadata", {}))
        return CollectionInfo(
            name=name,
            vector_size=opened.meta.get("vector_size"),
            embedding_model=metadata.get("embedding_model"),
            points_count=self.count(name),
            aliases=[],
            metadata=metadata,
            sparse_vectors=list(opened.meta.get("sparse_vectors", [])),
        )

    def ensure_collection(
        self,
        name: str,
        vector_size: int,
        embedding_model: str,
        indexes: Sequence[str] = KEYWORD_INDEXES,
        sparse: Sequence[str] = (),
        *,
        notes: bool = True,
    ) -> CollectionInfo:
        """Create the collection (cosine, payload indexes, sparse slots with IDF
        weighting, metadata file) if missing."""
        with self._lock:
            if self._open(name) is None:
                self.write_generation += 1
                self.changes.record(self.write_generation, name, None)
                self._create(name, vector_size, embedding_model, indexes, sparse, notes)
                self._journal(name).record(None)
                self.write_generation += 1
        info = self.collection_info(name)
        assert info is not None
        return info

    def _create(
        self,
        name: str,
        vector_size: int,
        embedding_model: str,
        indexes: Sequence[str],
        sparse: Sequence[str],
        notes: bool,
    ) -> None:
        folder = self._folder(name)
        with self._calls(f"creating collection {name}"):
            # A folder without metadata is a creation that failed half-way.
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            shard = create_shard(str(folder / "shard"), vector_size, indexes, sparse, notes)
            opened = OpenShard(
                folder,
                shard,
                {
                    "name": name,
                    "vector_size": vector_size,
                    "distance": "Cosine",
                    "metadata": {"embedding_model": embedding_model, "created_by": CREATED_BY},
                    "optimized_points": 0,
                    "sparse_vectors": list(sparse),
                },
            )
            # Written last and atomically: a collection exists once its metadata does.
            opened.write_meta()
        self._collections[name] = opened

    # --------------------------------------------------------------- points
    def upsert(self, collection: str, points: Sequence[StoredPoint]) -> None:
        """Insert or replace points (vectors required); big loads get optimized later."""
        if not points:
            return
        opened = self._require(collection)
        ids = [qdrant_id(p.id) for p in points]
        structs = [
            qe.Point(i, edge_vectors(p), p.payload) for i, p in zip(ids, points, strict=True)
        ]
        self._update(opened, qe.UpdateOperation.upsert_points(structs), "writing", ids)
        self._optimizer.note_writes(opened, len(points))

    def put_if(self, collection: str, point: StoredPoint, expect: Filter) -> None:
        """Insert ``point``, or replace the stored one only if it matches ``expect`` (a
        conditional upsert: the shard checks the condition as it applies the write)."""
        opened = self._require(collection)
        target = qdrant_id(point.id)
        struct = qe.Point(target, edge_vectors(point), point.payload)
        operation = qe.UpdateOperation.upsert_points([struct], condition=to_edge_filter(expect))
        self._update(opened, operation, "writing", [target])

    def set_payload(self, collection: str, point_id: str, payload: dict[str, Any]) -> None:
        """Replace a point's payload, keeping its vector."""
        opened = self._require(collection)
        target = qdrant_id(point_id)
        operation = qe.UpdateOperation.overwrite_payload([target], payload)
        self._update(opened, operation, "writing", [target])

    def retrieve(
        self, collection: str, ids: Sequence[str], with_vectors: bool = False
    ) -> list[StoredPoint]:
        """Points by id, missing ones left out."""
        wanted: list[EdgeId] = [qdrant_id(i) for i in ids if valid_id(i)]
        opened = self._open(collection) if wanted else None
        if opened is None:
            return []
        with opened.lock.reading(), self._calls("reading"):
            records = opened.shard.retrieve(wanted, True, with_vectors)
        return [stored_point(r, with_vectors) for r in records]

    def scroll(
        self,
        collection: str,
        flt: Filter | None,
        limit: int,
        offset: int = 0,
        with_vectors: bool = False,
    ) -> list[StoredPoint]:
        """A page of matching points in id order (integer ids first, then UUIDs)."""
        opened = self._open(collection)
        if opened is None or limit <= 0:
            return []
        # A query without a vector is a filtered scroll in id order that takes a
        # numeric offset, which is what pages of a listing need.
        request = qe.QueryRequest(
            limit=limit,
            offset=offset,
            filter=to_edge_filter(flt),
            with_payload=True,
            with_vector=with_vectors,
        )
        with opened.lock.reading(), self._calls("reading"):
            points = opened.shard.query(request)
        return [stored_point(p, with_vectors) for p in points]

    def scan(
        self,
        collection: str,
        flt: Filter | None = None,
        with_vectors: bool = False,
        page: int = 4096,
        fields: Sequence[str] | None = None,
    ) -> Iterator[StoredPoint]:
        """Every matching point in id order, paged by point id (no offset to skip)."""
        for records in self._scroll_all(collection, flt, with_vectors, page, fields):
            for p in records:
                yield stored_point(p, with_vectors)

    def scan_pages(
        self,
        collection: str,
        flt: Filter | None = None,
        with_vectors: bool = False,
        page: int = 4096,
        fields: Sequence[str] | None = None,
    ) -> Iterator[PointPage]:
        """Every matching point in id order, a page at a time, each vector copied
        straight into its row of the page's matrix. To read every point, the shard's
        payloads (and vectors) are read into memory first, in sequence (see
        ``shard_files``)."""
        opened = self._open(collection) if flt is None else None
        if opened is not None:
            read_for_scan(opened.folder / "shard", with_vectors)
        for records in self._scroll_all(collection, flt, with_vectors, page, fields):
            yield point_page(records, with_vectors)

    def _scroll_all(
        self,
        collection: str,
        flt: Filter | None,
        with_vectors: bool,
        page: int,
        fields: Sequence[str] | None,
    ) -> Iterator[list[Any]]:
        """Edge's records of every matching point, a page at a time (none empty)."""
        opened = self._open(collection)
        if opened is None:
            return
        yield from order.pages(opened, self._calls, to_edge_filter(flt), with_vectors, page, fields)

    def count(self, collection: str, flt: Filter | None = None) -> int:
        """Exact count of matching points (see ``edge_counting``)."""
        opened = self._open(collection)
        if opened is None:
            return 0
        with opened.lock.reading(), self._calls("counting"):
            return counting.count(opened.shard, to_edge_filter(flt), opened.points())

    def ordered(
        self,
        collection: str,
        flt: Filter | None,
        key: str,
        limit: int,
        fields: Sequence[str] | None = None,
        descending: bool = True,
    ) -> list[StoredPoint]:
        """The first ``limit`` matching points by the number in ``key``: Qdrant's
        ``order_by`` where ``key`` has a numeric index, else read field by field."""
        if self.indexed_fields(collection).get(key) not in ORDERED_INDEXES:
            return ordered_by_reading(self, collection, flt, key, limit, fields, descending)
        opened = self._open(collection)
        if opened is None or limit <= 0:
            return []
        with opened.lock.reading(), self._calls("reading"):
            return order.first_by(opened.shard, to_edge_filter(flt), key, limit, fields, descending)

    def indexed_fields(self, collection: str) -> dict[str, str]:
        """The shard's payload indexes by field (``keyword``, ``bool``, ``datetime``...)."""
        opened = self._open(collection)
        if opened is None:
            return {}
        with opened.lock.reading(), self._calls("reading the indexes"):
            schema = opened.shard.info().payload_schema
        return {str(name): schema_type(info.data_type) for name, info in schema.items()}

    def facet(self, collection: str, key: str, flt: Filter | None = None) -> dict[str, int]:
        """Matching points per value of an indexed keyword field (exact; see
        ``edge_counting``)."""
        opened = self._open(collection)
        if opened is None:
            return {}
        edge_filter = to_edge_filter(flt)
        with opened.lock.reading(), self._calls("counting"):
            return counting.facet(opened.shard, key, edge_filter, opened.points())

    def time_bounds(self, collection: str, key: str) -> tuple[str, str] | None:
        """The earliest and latest value of a field with a datetime index."""
        opened = self._open(collection)
        if opened is None:
            return None
        with opened.lock.reading(), self._calls("reading"):
            return order.time_bounds(opened.shard, key)

    def search(
        self,
        collection: str,
        vector: Vector,
        flt: Filter | None,
        limit: int,
        exact: bool = True,
        with_payload: bool = True,
    ) -> list[ScoredPoint]:
        """Nearest points by cosine similarity, ties in id order (payloads left empty
        without ``with_payload``)."""
        opened = self._open(collection)
        if opened is None or limit <= 0:
            return []
        query = qe.Query.Nearest([float(x) for x in vector])
        edge_filter = to_edge_filter(flt)

        def ask(count: int) -> list[ScoredPoint]:
            request = qe.QueryRequest(
                limit=count,
                query=query,
                filter=edge_filter,
                with_payload=with_payload,
                params=opened.search_params(exact, count),
            )
            with opened.lock.reading(), self._calls("searching"):
                points = opened.shard.query(request)
            return [ScoredPoint(str(p.id), dict(p.payload or {}), float(p.score)) for p in points]

        return nearest_first(ask, limit)

    def delete_points(self, collection: str, ids: Sequence[str]) -> None:
        """Remove points for good."""
        opened = self._require(collection)
        wanted: list[EdgeId] = [qdrant_id(i) for i in ids if valid_id(i)]
        if wanted:
            self._update(opened, qe.UpdateOperation.delete_points(wanted), "deleting", wanted)
            self._optimizer.note_writes(opened, len(wanted))

    # ------------------------------------------------------------ optimizing
    def optimize(self, collection: str | None = None) -> None:
        """Optimize one collection (or all) now, in the calling thread (for scripts)."""
        for name in [collection] if collection else self.list_collections():
            opened = self._open(name)
            if opened is not None:
                self._optimizer.wait(opened)
                self._optimizer.optimize_here(opened)

    def settle(self, collection: str) -> None:
        """Wait for a background optimize, then optimize what is still unmerged (a copy in
        a child process, as in the background: this thread keeps the GIL free)."""
        opened = self._open(collection)
        if opened is not None:
            self._optimizer.settle(opened)

    def optimizing(self) -> bool:
        """True while a background optimize is running."""
        return any(self._optimizer.running(c) for c in list(self._collections.values()))

    def wait_optimized(self, timeout: float | None = None) -> None:
        """Block until background optimizing is done (for scripts and tests)."""
        for opened in list(self._collections.values()):
            self._optimizer.wait(opened, timeout)

    # ---------------------------------------------------------------- memory
    def release_pages(self) -> int:
        """Drop from this process the pages of the shards' files that are read as
        searches need them (see ``edge_pages``): they stay in the page cache, and a
        search maps again the few it touches. What a load keeps in memory is left alone.

        Each shard's lock is held while its mappings are released, so no call on it
        (a write rolling its log over, a swap after an optimize) unmaps one of them in
        between: an address handed back must still be the file's.
        """
        released = 0
        with self._lock:
            opened_all = [] if self._closed else list(self._collections.values())
        for opened in opened_all:
            with opened.lock.writing():
                if not self._closed:
                    released += hand_back(opened)
        return released

    # ---------------------------------------------------------------- close
    def close(self) -> None:
        """Close every shard and release the folder lock; a running optimize is dropped."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            opened_all = list(self._collections.values())
            for opened in opened_all:
                if opened.process is not None:  # it works on a copy: stopping it loses nothing
                    with contextlib.suppress(OSError):
                        opened.process.kill()
        for opened in opened_all:
            opened.stop_reading()
            self._optimizer.wait(opened)
            with opened.lock.writing():
                with contextlib.suppress(Exception):
                    opened.shard.flush()
                with contextlib.suppress(Exception):
                    opened.shard.close()
        self._collections.clear()
        for journal in list(self._journals.values()):
            journal.close()
        if self._lock_file is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._lock_file, fcntl.LOCK_UN)
            self._lock_file.close()
            self._lock_file = None

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()
