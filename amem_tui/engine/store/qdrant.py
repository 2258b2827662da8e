"""The qdrant-client backend: a Qdrant server or cluster, a local folder, or ``:memory:``."""

from __future__ import annotations

import base64
import contextlib
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from qdrant_client import QdrantClient
from qdrant_client import models as qm
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

from amem_tui.engine.errors import StoreLocked, StoreUnavailable
from amem_tui.engine.redact import redact_text, redact_url, split_credentials
from amem_tui.engine.store.base import (
    BOOL_INDEXES,
    CREATED_BY,
    DATETIME_INDEXES,
    INTEGER_INDEXES,
    KEYWORD_INDEXES,
    ORDERED_INDEXES,
    CollectionInfo,
    PointPage,
    ScoredPoint,
    StoredPoint,
    Vector,
)
from amem_tui.engine.store.filters import Filter
from amem_tui.engine.store.ids import qdrant_id, valid_id
from amem_tui.engine.store.journal import SIDECAR_DIR, ChangeLog, WriteJournal
from amem_tui.engine.store.points import nearest_first, ordered_by_reading
from amem_tui.engine.store.qdrant_translate import (
    point_page,
    qdrant_vectors,
    stored_point,
    to_qdrant_filter,
)

#: Values a facet returns at most: far more agents and owners than any store holds.
FACET_LIMIT = 100_000


#: The folder amem-tui keeps beside a local-mode store's own files (journals, indexes).
DERIVED_DIR = "amem"


class QdrantStore:
    """A ``NoteStore`` on qdrant-client."""

    def __init__(
        self,
        *,
        url: str | None = None,
        path: str | None = None,
        api_key: str | None = None,
        timeout: int = 10,
        connect_timeout: int = 3,
    ) -> None:
        #: Changes on every write made through this object, so readers may cache safely.
        self.write_generation = 0
        #: The points each write touched, for caches that follow write_generation.
        self.changes = ChangeLog()
        self._journals: dict[str, WriteJournal] = {}
        self._journal_lock = threading.Lock()
        # qdrant-client's local mode is not thread-safe (a search racing a write
        # fails inside numpy), and the TUI's workers are threads: one call at a time.
        self._local_lock: threading.RLock | None = None
        if url:
            # Shown in every message: never the credentials the URL may carry.
            self.location = redact_url(url)
            self.embedded = False
            client_options = _server_options(url, api_key)
            # Probe with a short timeout first, so an unreachable server fails fast;
            # the version check runs in a thread and would print a warning: skip it.
            try:
                probe = QdrantClient(
                    **client_options, timeout=connect_timeout, check_compatibility=False
                )
                try:
                    probe.get_collections()
                finally:
                    probe.close()
                self.client = QdrantClient(
                    **client_options, timeout=timeout, check_compatibility=False
                )
            except UnexpectedResponse as exc:
                if exc.status_code in (401, 403):
                    raise StoreUnavailable(
                        f"the Qdrant server at {self.location} refused access "
                        f"({exc.status_code}): check QDRANT_API_KEY"
                    ) from exc
                raise StoreUnavailable(
                    f"cannot use the Qdrant server at {self.location}: {_reason(exc)}"
                ) from exc
            except Exception as exc:  # bad URL, refused, timed out, TLS: all "unavailable"
                raise StoreUnavailable(
                    f"cannot reach the Qdrant server at {self.location}: {_reason(exc)}"
                ) from exc
        else:
            location = path or ":memory:"
            self.location = location
            self.embedded = True
            self._local_lock = threading.RLock()
            try:
                if location == ":memory:":
                    self.client = QdrantClient(location=":memory:")
                else:
                    self.client = QdrantClient(path=location)
            except Exception as exc:  # a locked, unreadable or corrupt folder
                if "already accessed" in str(exc):
                    raise StoreLocked(
                        f"the embedded store {location} is in use by another process; "
                        "stop that process, or point both at a Qdrant server with --url"
                    ) from exc
                raise StoreUnavailable(f"cannot open the store at {location}: {exc}") from exc

    # -------------------------------------------------------------- helpers
    @contextmanager
    def _calls(self, what: str) -> Iterator[None]:
        with self._local_lock or contextlib.nullcontext(), self._translated(what):
            yield

    @contextmanager
    def _translated(self, what: str) -> Iterator[None]:
        try:
            yield
        except (ResponseHandlingException, OSError, sqlite3.Error) as exc:
            raise StoreUnavailable(f"{what} failed: {_reason(exc)} ({self.location})") from exc
        except UnexpectedResponse as exc:
            # Any status the server answers with is a fault of the store, never a
            # raw client exception for the caller (the TUI shows it as a banner).
            raise StoreUnavailable(
                f"{what} failed: the server answered {exc.status_code} "
                f"{exc.reason_phrase} ({self.location})"
            ) from exc
        except ValueError as exc:
            if self.embedded:  # local mode's own errors (a bug, or a missing collection)
                raise
            # A proxy's HTML page or a truncated body instead of Qdrant's JSON.
            raise StoreUnavailable(
                f"{what} failed: the server's answer could not be read ({self.location})"
            ) from exc

    @contextmanager
    def _writing(
        self, what: str, collection: str, ids: Sequence[str | int] | None = None
    ) -> Iterator[None]:
        # Bumped before and after: a reader that overlaps a write never keeps
        # what it read under the generation that follows the write.
        self.write_generation += 1
        if self.embedded:  # only an embedded store's readers may cache what they read
            with contextlib.suppress(Exception):
                collection = self.resolve_alias(collection)
            self.changes.record(self.write_generation, collection, ids)
        try:
            with self._calls(what):
                yield
            journal = self._journal(collection)
            if journal is not None:
                journal.record(ids)
        finally:
            self.write_generation += 1

    def _journal(self, collection: str) -> WriteJournal | None:
        """The write journal of a collection in a store folder (none in memory or on a server)."""
        folder = self._folder(collection)
        if folder is None:
            return None
        with self._journal_lock:
            journal = self._journals.get(collection)
            if journal is None:
                journal = self._journals[collection] = WriteJournal(folder / "journal")
            return journal

    def _folder(self, collection: str) -> Path | None:
        if not self.embedded or self.location == ":memory:":
            return None
        return Path(self.location) / DERIVED_DIR / quote(collection, safe="")

    # -------------------------------------------------------------- revisions
    def settle(self, collection: str) -> None:
        """Nothing to wait for: a server optimizes by itself, local mode never does."""

    def revision(self, collection: str) -> int | None:
        """Writes the collection has had through amem-tui (folder stores only)."""
        journal = self._journal(self.resolve_alias(collection))
        return journal.revision if journal is not None else None

    def changed_since(self, collection: str, revision: int) -> set[str] | None:
        """Ids written after ``revision`` (None when unknown)."""
        journal = self._journal(self.resolve_alias(collection))
        return journal.changed_since(revision) if journal is not None else None

    def sidecar(self, collection: str) -> Path | None:
        """A folder for data derived from the collection (folder stores only)."""
        folder = self._folder(self.resolve_alias(collection))
        return folder / SIDECAR_DIR if folder is not None else None

    def release_pages(self) -> int:
        """Nothing: qdrant-client maps no store files into this process."""
        return 0

    # ---------------------------------------------------------- collections
    def list_collections(self) -> list[str]:
        """Names of all collections."""
        with self._calls("listing collections"):
            return sorted(c.name for c in self.client.get_collections().collections)

    def _aliases(self) -> dict[str, str]:
        return self.list_aliases() or {}

    def list_aliases(self) -> dict[str, str] | None:
        """Every alias and the collection it points to (None: the client has no aliases)."""
        try:
            with self._calls("reading aliases"):
                response = self.client.get_aliases()
        except (NotImplementedError, AttributeError):
            return None
        return {a.alias_name: a.collection_name for a in response.aliases}

    def resolve_alias(self, name: str) -> str:
        """The collection an alias points to, or ``name``."""
        with self._calls("reading aliases"):
            return self._aliases().get(name, name)

    def collection_info(self, name: str) -> CollectionInfo | None:
        """Facts about a collection, or None when it does not exist."""
        real = self.resolve_alias(name)
        with self._calls("reading collection info"):
            if not self.client.collection_exists(real):
                return None
            info = self.client.get_collection(real)
        params = info.config.params
        vectors = params.vectors
        size: int | None = None
        if isinstance(vectors, qm.VectorParams):
            size = vectors.size
        elif isinstance(vectors, dict) and vectors:
            first = vectors.get("") or next(iter(vectors.values()))
            size = first.size
        metadata = dict(info.config.metadata or {})
        aliases = [a for a, target in self._aliases().items() if target == real]
        return CollectionInfo(
            name=real,
            vector_size=size,
            embedding_model=metadata.get("embedding_model"),
            points_count=self.count(real),
            aliases=aliases,
            metadata=metadata,
            sparse_vectors=sorted(params.sparse_vectors or {}),
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
        """Create the collection with cosine distance, indexes, model metadata and the
        named sparse vector slots (IDF weighting, as mem0 creates its ``bm25``)."""
        existing = self.collection_info(name)
        if existing is not None:
            return existing
        with self._writing("creating a collection", name):
            try:
                self.client.create_collection(
                    collection_name=name,
                    vectors_config=qm.VectorParams(size=vector_size, distance=qm.Distance.COSINE),
                    sparse_vectors_config={
                        slot: qm.SparseVectorParams(modifier=qm.Modifier.IDF) for slot in sparse
                    }
                    or None,
                    metadata={"embedding_model": embedding_model, "created_by": CREATED_BY},
                )
            except UnexpectedResponse as exc:
                # 409: another process created it since we looked. Its collection is
                # used as it is; the indexes below are created again, which the
                # server answers as done when they exist.
                if exc.status_code != 409:
                    raise
            if not self.embedded:  # local mode has no payload indexes (it filters in Python)
                for field in indexes:
                    self.client.create_payload_index(name, field, qm.PayloadSchemaType.KEYWORD)
            if not self.embedded and notes:
                for field in BOOL_INDEXES:
                    self.client.create_payload_index(name, field, qm.PayloadSchemaType.BOOL)
                for field in DATETIME_INDEXES:
                    self.client.create_payload_index(name, field, qm.PayloadSchemaType.DATETIME)
                numeric = qm.IntegerIndexParams(
                    type=qm.IntegerIndexType.INTEGER, lookup=False, range=True, on_disk=True
                )
                for field in INTEGER_INDEXES:
                    self.client.create_payload_index(name, field, numeric)
        info = self.collection_info(name)
        assert info is not None
        return info

    # --------------------------------------------------------------- points
    def upsert(self, collection: str, points: Sequence[StoredPoint]) -> None:
        """Insert or replace points (vectors required)."""
        if not points:
            return
        structs = [
            qm.PointStruct(id=qdrant_id(p.id), vector=qdrant_vectors(p), payload=p.payload)
            for p in points
        ]
        with self._writing("writing", collection, [p.id for p in points]):
            self.client.upsert(self.resolve_alias(collection), points=structs, wait=True)

    def put_if(self, collection: str, point: StoredPoint, expect: Filter) -> None:
        """Insert ``point``, or replace the stored one only if it matches ``expect``:
        one upsert with an ``update_filter``, which the server checks when it applies
        the write (Qdrant 1.16 and later; an older server may ignore it)."""
        struct = qm.PointStruct(
            id=qdrant_id(point.id), vector=qdrant_vectors(point), payload=point.payload
        )
        with self._writing("writing", collection, [point.id]):
            self.client.upsert(
                self.resolve_alias(collection),
                points=[struct],
                update_filter=to_qdrant_filter(expect),
                wait=True,
            )

    def set_payload(self, collection: str, point_id: str, payload: dict[str, Any]) -> None:
        """Replace a point's payload, keeping its vector."""
        with self._writing("writing", collection, [point_id]):
            self.client.overwrite_payload(
                self.resolve_alias(collection),
                payload=payload,
                points=[qdrant_id(point_id)],
                wait=True,
            )

    def retrieve(
        self, collection: str, ids: Sequence[str], with_vectors: bool = False
    ) -> list[StoredPoint]:
        """Points by id, missing ones left out."""
        wanted = [qdrant_id(i) for i in ids if valid_id(i)]
        if not wanted:
            return []
        with self._calls("reading"):
            records = self.client.retrieve(
                self.resolve_alias(collection),
                ids=wanted,
                with_payload=True,
                with_vectors=with_vectors,
            )
        return [stored_point(r.id, r.payload, r.vector) for r in records]

    def scroll(
        self,
        collection: str,
        flt: Filter | None,
        limit: int,
        offset: int = 0,
        with_vectors: bool = False,
    ) -> list[StoredPoint]:
        """A page of matching points in id order."""
        with self._calls("reading"):
            response = self.client.query_points(
                self.resolve_alias(collection),
                query_filter=to_qdrant_filter(flt),
                limit=limit,
                offset=offset,
                with_payload=True,
                with_vectors=with_vectors,
            )
        return [stored_point(p.id, p.payload, p.vector) for p in response.points]

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
                yield stored_point(p.id, p.payload, p.vector)

    def scan_pages(
        self,
        collection: str,
        flt: Filter | None = None,
        with_vectors: bool = False,
        page: int = 4096,
        fields: Sequence[str] | None = None,
    ) -> Iterator[PointPage]:
        """Every matching point in id order, a page at a time, each vector copied
        straight into its row of the page's matrix."""
        for records in self._scroll_all(collection, flt, with_vectors, page, fields):
            yield point_page(records, with_vectors)

    def _scroll_all(
        self,
        collection: str,
        flt: Filter | None,
        with_vectors: bool,
        page: int,
        fields: Sequence[str] | None,
    ) -> Iterator[list[qm.Record]]:
        """The client's records of every matching point, a page at a time (none empty)."""
        name = self.resolve_alias(collection)
        cursor: Any = None
        payload: bool | list[str] = True if fields is None else list(fields)
        while True:
            with self._calls("reading"):
                points, cursor = self.client.scroll(
                    name,
                    scroll_filter=to_qdrant_filter(flt),
                    limit=page,
                    offset=cursor,
                    with_payload=payload,
                    with_vectors=with_vectors,
                )
            if points:
                yield points
            if cursor is None or not points:
                return

    def count(self, collection: str, flt: Filter | None = None) -> int:
        """Exact count of matching points."""
        with self._calls("counting"):
            return self.client.count(
                self.resolve_alias(collection), count_filter=to_qdrant_filter(flt), exact=True
            ).count

    def ordered(
        self,
        collection: str,
        flt: Filter | None,
        key: str,
        limit: int,
        fields: Sequence[str] | None = None,
        descending: bool = True,
    ) -> list[StoredPoint]:
        """The first ``limit`` matching points by the number in ``key``: the server's
        ``order_by`` where ``key`` has a numeric index (a server refuses it without
        one), else read field by field (local mode has no indexes)."""
        if self.indexed_fields(collection).get(key) not in ORDERED_INDEXES:
            return ordered_by_reading(self, collection, flt, key, limit, fields, descending)
        if limit <= 0:
            return []
        direction = qm.Direction.DESC if descending else qm.Direction.ASC
        with self._calls("reading"):
            points, _ = self.client.scroll(
                self.resolve_alias(collection),
                scroll_filter=to_qdrant_filter(flt),
                limit=limit,
                with_payload=True if fields is None else list(fields),
                with_vectors=False,
                order_by=qm.OrderBy(key=key, direction=direction),
            )
        found = {str(p.id): stored_point(p.id, p.payload, None) for p in points}
        return list(found.values())

    def indexed_fields(self, collection: str) -> dict[str, str]:
        """The server's payload indexes by field; none in local mode (it filters in Python,
        so many counts cost many scans)."""
        if self.embedded:
            return {}
        with self._calls("reading collection info"):
            schema = self.client.get_collection(self.resolve_alias(collection)).payload_schema
        found: dict[str, str] = {}
        for name, info in schema.items():
            kind: Any = info.data_type
            found[str(name)] = str(getattr(kind, "value", kind)).lower()
        return found

    def facet(self, collection: str, key: str, flt: Filter | None = None) -> dict[str, int]:
        """Matching points per value of an indexed keyword field (exact)."""
        with self._calls("counting"):
            response = self.client.facet(
                self.resolve_alias(collection),
                key=key,
                facet_filter=to_qdrant_filter(flt),
                limit=FACET_LIMIT,
                exact=True,
            )
        return {str(hit.value): int(hit.count) for hit in response.hits}

    def time_bounds(self, collection: str, key: str) -> tuple[str, str] | None:
        """The earliest and latest value of a field with a datetime index."""
        found: list[str] = []
        for direction in (qm.Direction.ASC, qm.Direction.DESC):
            with self._calls("reading"):
                points, _ = self.client.scroll(
                    self.resolve_alias(collection),
                    limit=1,
                    with_payload=[key],
                    order_by=qm.OrderBy(key=key, direction=direction),
                )
            value = (points[0].payload or {}).get(key) if points else None
            if not isinstance(value, str):
                return None
            found.append(value)
        return found[0], found[1]

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
        real = self.resolve_alias(collection)
        query_filter = to_qdrant_filter(flt)
        params = None if self.embedded else qm.SearchParams(exact=exact)

        def ask(count: int) -> list[ScoredPoint]:
            with self._calls("searching"):
                response = self.client.query_points(
                    real,
                    query=vector,
                    query_filter=query_filter,
                    limit=count,
                    with_payload=with_payload,
                    search_params=params,
                )
            return [
                ScoredPoint(str(p.id), dict(p.payload or {}), float(p.score))
                for p in response.points
            ]

        return nearest_first(ask, limit)

    def delete_points(self, collection: str, ids: Sequence[str]) -> None:
        """Remove points for good."""
        with self._writing("deleting", collection, list(ids)):
            self.client.delete(
                self.resolve_alias(collection),
                points_selector=qm.PointIdsList(points=[qdrant_id(i) for i in ids]),
                wait=True,
            )

    def close(self) -> None:
        """Close the client and release the folder lock."""
        with self._local_lock or contextlib.nullcontext(), contextlib.suppress(Exception):
            self.client.close()
        for journal in list(self._journals.values()):
            journal.close()


def _reason(exc: BaseException) -> str:
    """The first line of a client error, with the secrets of any URL it quotes masked."""
    text = str(exc).strip().splitlines()
    return redact_text(text[0]) if text else type(exc).__name__


def _server_options(url: str, api_key: str | None) -> dict[str, Any]:
    """What qdrant-client needs to reach ``url`` with the credentials it carries.

    The client keeps only the URL's scheme, host, port and path: an ``api_key`` query
    parameter becomes its ``api_key`` (over ``QDRANT_API_KEY``: the URL is the more
    specific of the two), user info an HTTP Basic ``Authorization`` header (what a
    proxy in front of the server checks).
    """
    found = split_credentials(url)
    options: dict[str, Any] = {"url": found.url, "api_key": found.api_key or api_key}
    if found.username is not None:
        pair = f"{found.username}:{found.password or ''}".encode()
        options["headers"] = {"Authorization": "Basic " + base64.b64encode(pair).decode()}
    return options
