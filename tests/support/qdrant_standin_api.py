"""The REST endpoints of the Qdrant stand-in (``tests.support.qdrant_standin``): each
parses its body with qdrant-client's own REST models and runs on the stand-in's
local-mode client; ``ROUTES`` maps method and path to them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError
from qdrant_client.http import models as rest

if TYPE_CHECKING:
    from tests.support.qdrant_standin import QdrantStandIn

#: The version the service root reports (qdrant-client checks it only when asked to).
VERSION = "1.15.0"
#: The title the server's root reports beside its version.
TITLE = "qdrant - vector search engine"


class RequestFailed(Exception):
    """A request the stand-in answers with an error status, as the server would."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class PlainText(str):
    """An answer the server sends as plain text, not in its JSON envelope (health checks)."""


@dataclass(frozen=True)
class Call:
    """One request, parsed: the path's parts, the query string and the JSON body."""

    parts: Mapping[str, str]
    query: Mapping[str, str]
    body: Any

    @property
    def collection(self) -> str:
        """The collection named in the path."""
        return self.parts["collection"]

    def parse(self, model: Any) -> Any:
        """The body as one of qdrant-client's REST models (or a union of them)."""
        try:
            return TypeAdapter(model).validate_python(self.body if self.body is not None else {})
        except ValidationError as exc:
            raise RequestFailed(400, f"Format error in JSON body: {exc}") from exc


Handler = Callable[["QdrantStandIn", Call], Any]


def _updated() -> rest.UpdateResult:
    return rest.UpdateResult(operation_id=0, status=rest.UpdateStatus.COMPLETED)


def _selector(points: list[Any] | None, flt: rest.Filter | None) -> Any:
    """A points selector from a body's ``points`` or ``filter``."""
    if points is not None:
        return rest.PointIdsList(points=points)
    if flt is not None:
        return rest.FilterSelector(filter=flt)
    raise RequestFailed(400, "Bad request: either points or filter must be given")


# ------------------------------------------------------------------ collections
def _list_collections(standin: QdrantStandIn, call: Call) -> Any:
    return standin.client.get_collections()


def _get_collection(standin: QdrantStandIn, call: Call) -> Any:
    standin.require(call.collection)
    info = standin.client.get_collection(call.collection)
    schema = {
        field: rest.PayloadIndexInfo(data_type=kind, params=None, points=0)
        for field, kind in standin.indexes.get(call.collection, {}).items()
    }
    return info.model_copy(update={"payload_schema": schema})


def _collection_exists(standin: QdrantStandIn, call: Call) -> Any:
    return rest.CollectionExistence(exists=standin.client.collection_exists(call.collection))


def _create_collection(standin: QdrantStandIn, call: Call) -> Any:
    request: rest.CreateCollection = call.parse(rest.CreateCollection)
    if standin.client.collection_exists(call.collection):
        raise RequestFailed(409, f"Wrong input: Collection `{call.collection}` already exists!")
    # Tuning (HNSW, optimizers, WAL, quantization, sharding) means nothing to local
    # mode; the vectors, the sparse vectors and the metadata are what callers read back.
    standin.client.create_collection(
        call.collection,
        vectors_config=request.vectors if request.vectors is not None else {},
        sparse_vectors_config=request.sparse_vectors,
        metadata=request.metadata,
    )
    standin.indexes[call.collection] = {}
    return True


def _update_collection(standin: QdrantStandIn, call: Call) -> Any:
    request: rest.UpdateCollection = call.parse(rest.UpdateCollection)
    standin.require(call.collection)
    standin.client.update_collection(
        call.collection,
        sparse_vectors_config=request.sparse_vectors,
        metadata=request.metadata,
    )
    return True


def _delete_collection(standin: QdrantStandIn, call: Call) -> Any:
    standin.indexes.pop(call.collection, None)
    return standin.client.delete_collection(call.collection)


# ---------------------------------------------------------------------- aliases
def _list_aliases(standin: QdrantStandIn, call: Call) -> Any:
    return standin.client.get_aliases()


def _collection_aliases(standin: QdrantStandIn, call: Call) -> Any:
    standin.require(call.collection)
    return standin.client.get_collection_aliases(call.collection)


def _change_aliases(standin: QdrantStandIn, call: Call) -> Any:
    request: rest.ChangeAliasesOperation = call.parse(rest.ChangeAliasesOperation)
    for action in request.actions:
        if isinstance(action, rest.CreateAliasOperation):
            standin.require(action.create_alias.collection_name)
    return standin.client.update_collection_aliases(change_aliases_operations=request.actions)


# ---------------------------------------------------------------------- indexes
def _create_index(standin: QdrantStandIn, call: Call) -> Any:
    request: rest.CreateFieldIndex = call.parse(rest.CreateFieldIndex)
    standin.require(call.collection)
    schema = request.field_schema
    kind = getattr(schema, "type", schema)  # index params name their type in their own enum
    if kind is not None and not isinstance(kind, rest.PayloadSchemaType):
        kind = next((t for t in rest.PayloadSchemaType if t.value == kind.value), None)
    if not isinstance(kind, rest.PayloadSchemaType):
        raise RequestFailed(400, "Bad request: field_schema is required")
    standin.indexes.setdefault(call.collection, {})[request.field_name] = kind
    return _updated()


def _delete_index(standin: QdrantStandIn, call: Call) -> Any:
    standin.require(call.collection)
    standin.indexes.get(call.collection, {}).pop(call.parts["field"], None)
    return _updated()


# ----------------------------------------------------------------------- points
def _upsert(standin: QdrantStandIn, call: Call) -> Any:
    request = call.parse(rest.PointInsertOperations)
    standin.require(call.collection)
    points = request.points if isinstance(request, rest.PointsList) else request.batch
    standin.client.upsert(call.collection, points=points, update_filter=request.update_filter)
    return _updated()


def _retrieve(standin: QdrantStandIn, call: Call) -> Any:
    request: rest.PointRequest = call.parse(rest.PointRequest)
    standin.require(call.collection)
    return standin.client.retrieve(
        call.collection,
        ids=request.ids,
        with_payload=request.with_payload if request.with_payload is not None else True,
        with_vectors=request.with_vector if request.with_vector is not None else False,
    )


def _get_point(standin: QdrantStandIn, call: Call) -> Any:
    standin.require(call.collection)
    raw = call.parts["id"]
    point_id: int | str = int(raw) if raw.isdigit() else raw
    found = standin.client.retrieve(call.collection, ids=[point_id], with_vectors=True)
    if not found:
        raise RequestFailed(404, f"Not found: No point with id {raw} found")
    return found[0]


def _scroll(standin: QdrantStandIn, call: Call) -> Any:
    request: rest.ScrollRequest = call.parse(rest.ScrollRequest)
    standin.require(call.collection)
    points, next_offset = standin.client.scroll(
        call.collection,
        scroll_filter=request.filter,
        limit=request.limit if request.limit is not None else 10,
        order_by=request.order_by,
        offset=request.offset,
        with_payload=request.with_payload if request.with_payload is not None else True,
        with_vectors=request.with_vector if request.with_vector is not None else False,
    )
    return rest.ScrollResult(points=points, next_page_offset=next_offset)


def _query_one(standin: QdrantStandIn, collection: str, request: rest.QueryRequest) -> Any:
    return standin.client.query_points(
        collection,
        query=request.query,
        using=request.using,
        prefetch=request.prefetch,
        query_filter=request.filter,
        search_params=request.params,
        limit=request.limit if request.limit is not None else 10,
        offset=request.offset,
        # The server's defaults for a query: no payload, no vectors.
        with_payload=request.with_payload if request.with_payload is not None else False,
        with_vectors=request.with_vector if request.with_vector is not None else False,
        score_threshold=request.score_threshold,
        lookup_from=request.lookup_from,
    )


def _query(standin: QdrantStandIn, call: Call) -> Any:
    request: rest.QueryRequest = call.parse(rest.QueryRequest)
    standin.require(call.collection)
    return _query_one(standin, call.collection, request)


def _query_batch(standin: QdrantStandIn, call: Call) -> Any:
    request: rest.QueryRequestBatch = call.parse(rest.QueryRequestBatch)
    standin.require(call.collection)
    return [_query_one(standin, call.collection, one) for one in request.searches]


class NamedDense(BaseModel):
    """A named dense vector in a search body: ``{"name": ..., "vector": [...]}``."""

    model_config = ConfigDict(extra="forbid")
    name: str
    vector: list[float]


class NamedSparse(BaseModel):
    """A named sparse vector in a search body: ``{"name": ..., "vector": {indices, values}}``."""

    model_config = ConfigDict(extra="forbid")
    name: str
    vector: rest.SparseVector


class SearchRequest(BaseModel):
    """The body of ``POST /collections/{name}/points/search``, as the server reads it.

    qdrant-client no longer ships this model (it sends queries instead), but other
    clients still search this way: openclaw-amem and mem0's TypeScript SDK do.
    """

    model_config = ConfigDict(extra="forbid")
    vector: list[float] | NamedDense | NamedSparse
    filter: rest.Filter | None = None
    params: rest.SearchParams | None = None
    limit: int
    offset: int | None = None
    with_payload: rest.WithPayloadInterface | None = None
    with_vector: rest.WithVector | None = None
    score_threshold: float | None = None
    shard_key: rest.ShardKeySelector | None = None


class SearchRequestBatch(BaseModel):
    """The body of ``POST /collections/{name}/points/search/batch``."""

    model_config = ConfigDict(extra="forbid")
    searches: list[SearchRequest]


def _search_one(standin: QdrantStandIn, collection: str, request: SearchRequest) -> Any:
    vector = request.vector
    query: Any = vector
    using = None
    if isinstance(vector, NamedDense | NamedSparse):
        query, using = vector.vector, vector.name
    # The server's defaults for a search: no payload, no vectors.
    found = standin.client.query_points(
        collection,
        query=query,
        using=using,
        query_filter=request.filter,
        search_params=request.params,
        limit=request.limit,
        offset=request.offset,
        with_payload=request.with_payload if request.with_payload is not None else False,
        with_vectors=request.with_vector if request.with_vector is not None else False,
        score_threshold=request.score_threshold,
    )
    return found.points


def _search(standin: QdrantStandIn, call: Call) -> Any:
    request: SearchRequest = call.parse(SearchRequest)
    standin.require(call.collection)
    return _search_one(standin, call.collection, request)


def _search_batch(standin: QdrantStandIn, call: Call) -> Any:
    request: SearchRequestBatch = call.parse(SearchRequestBatch)
    standin.require(call.collection)
    return [_search_one(standin, call.collection, one) for one in request.searches]


def _count(standin: QdrantStandIn, call: Call) -> Any:
    request: rest.CountRequest = call.parse(rest.CountRequest)
    standin.require(call.collection)
    return standin.client.count(
        call.collection,
        count_filter=request.filter,
        exact=request.exact if request.exact is not None else True,
    )


def _facet(standin: QdrantStandIn, call: Call) -> Any:
    request: rest.FacetRequest = call.parse(rest.FacetRequest)
    standin.require(call.collection)
    return standin.client.facet(
        call.collection,
        key=request.key,
        facet_filter=request.filter,
        limit=request.limit if request.limit is not None else 10,
        exact=request.exact if request.exact is not None else False,
    )


def _set_payload(standin: QdrantStandIn, call: Call) -> Any:
    request: rest.SetPayload = call.parse(rest.SetPayload)
    standin.require(call.collection)
    standin.client.set_payload(
        call.collection,
        payload=request.payload,
        points=_selector(request.points, request.filter),
        key=request.key,
    )
    return _updated()


def _overwrite_payload(standin: QdrantStandIn, call: Call) -> Any:
    request: rest.SetPayload = call.parse(rest.SetPayload)
    standin.require(call.collection)
    standin.client.overwrite_payload(
        call.collection, payload=request.payload, points=_selector(request.points, request.filter)
    )
    return _updated()


def _delete_payload(standin: QdrantStandIn, call: Call) -> Any:
    request: rest.DeletePayload = call.parse(rest.DeletePayload)
    standin.require(call.collection)
    standin.client.delete_payload(
        call.collection, keys=request.keys, points=_selector(request.points, request.filter)
    )
    return _updated()


def _clear_payload(standin: QdrantStandIn, call: Call) -> Any:
    selector = call.parse(rest.PointsSelector)
    standin.require(call.collection)
    standin.client.clear_payload(call.collection, points_selector=selector)
    return _updated()


def _update_vectors(standin: QdrantStandIn, call: Call) -> Any:
    request: rest.UpdateVectors = call.parse(rest.UpdateVectors)
    standin.require(call.collection)
    standin.client.update_vectors(call.collection, points=request.points)
    return _updated()


def _delete_vectors(standin: QdrantStandIn, call: Call) -> Any:
    request: rest.DeleteVectors = call.parse(rest.DeleteVectors)
    standin.require(call.collection)
    standin.client.delete_vectors(
        call.collection, vectors=request.vector, points=_selector(request.points, request.filter)
    )
    return _updated()


def _delete_points(standin: QdrantStandIn, call: Call) -> Any:
    selector = call.parse(rest.PointsSelector)
    standin.require(call.collection)
    standin.client.delete(call.collection, points_selector=selector)
    return _updated()


def _batch_update(standin: QdrantStandIn, call: Call) -> Any:
    request: rest.UpdateOperations = call.parse(rest.UpdateOperations)
    standin.require(call.collection)
    standin.client.batch_update_points(call.collection, update_operations=request.operations)
    return [_updated() for _ in request.operations]


def _create_snapshot(standin: QdrantStandIn, call: Call) -> Any:
    """A snapshot's description, as the server answers it (openclaw-amem's migration asks
    for one before it drops a collection). Local mode cannot write one: the stand-in
    records the description only, and a snapshot it lists cannot be restored."""
    standin.require(call.collection)
    taken = standin.snapshots.setdefault(call.collection, [])
    points = standin.client.count(call.collection, exact=True).count
    when = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    name = f"{call.collection}-standin-{len(taken) + 1}-{when:%Y-%m-%d-%H-%M-%S}.snapshot"
    snapshot = rest.SnapshotDescription(
        name=name, creation_time=when.isoformat(), size=points * 1024, checksum=None
    )
    taken.append(snapshot)
    return snapshot


def _list_snapshots(standin: QdrantStandIn, call: Call) -> Any:
    standin.require(call.collection)
    return standin.snapshots.get(call.collection, [])


def _root(standin: QdrantStandIn, call: Call) -> Any:
    # The server answers its root with the version, outside the result envelope.
    return rest.VersionInfo(title=TITLE, version=VERSION, commit=None)


def _healthz(standin: QdrantStandIn, call: Call) -> Any:
    return PlainText("healthz check passed")


def _readyz(standin: QdrantStandIn, call: Call) -> Any:
    return PlainText("all shards are ready")


_NAME = r"(?P<collection>[^/]+)"
#: (method, path pattern, handler), tried in order.
ROUTES: tuple[tuple[str, re.Pattern[str], Handler], ...] = tuple(
    (method, re.compile(f"^{pattern}$"), handler)
    for method, pattern, handler in (
        ("GET", r"/", _root),
        ("GET", r"/healthz", _healthz),
        ("GET", r"/livez", _healthz),
        ("GET", r"/readyz", _readyz),
        ("GET", r"/collections", _list_collections),
        ("GET", r"/aliases", _list_aliases),
        ("POST", r"/collections/aliases", _change_aliases),
        ("GET", rf"/collections/{_NAME}", _get_collection),
        ("PUT", rf"/collections/{_NAME}", _create_collection),
        ("PATCH", rf"/collections/{_NAME}", _update_collection),
        ("DELETE", rf"/collections/{_NAME}", _delete_collection),
        ("GET", rf"/collections/{_NAME}/exists", _collection_exists),
        ("GET", rf"/collections/{_NAME}/aliases", _collection_aliases),
        ("POST", rf"/collections/{_NAME}/snapshots", _create_snapshot),
        ("GET", rf"/collections/{_NAME}/snapshots", _list_snapshots),
        ("PUT", rf"/collections/{_NAME}/index", _create_index),
        ("DELETE", rf"/collections/{_NAME}/index/(?P<field>[^/]+)", _delete_index),
        ("PUT", rf"/collections/{_NAME}/points", _upsert),
        ("POST", rf"/collections/{_NAME}/points", _retrieve),
        ("POST", rf"/collections/{_NAME}/points/scroll", _scroll),
        ("POST", rf"/collections/{_NAME}/points/query", _query),
        ("POST", rf"/collections/{_NAME}/points/query/batch", _query_batch),
        ("POST", rf"/collections/{_NAME}/points/search", _search),
        ("POST", rf"/collections/{_NAME}/points/search/batch", _search_batch),
        ("POST", rf"/collections/{_NAME}/points/count", _count),
        ("POST", rf"/collections/{_NAME}/facet", _facet),
        ("POST", rf"/collections/{_NAME}/points/payload", _set_payload),
        ("PUT", rf"/collections/{_NAME}/points/payload", _overwrite_payload),
        ("POST", rf"/collections/{_NAME}/points/payload/delete", _delete_payload),
        ("POST", rf"/collections/{_NAME}/points/payload/clear", _clear_payload),
        ("PUT", rf"/collections/{_NAME}/points/vectors", _update_vectors),
        ("POST", rf"/collections/{_NAME}/points/vectors/delete", _delete_vectors),
        ("POST", rf"/collections/{_NAME}/points/delete", _delete_points),
        ("POST", rf"/collections/{_NAME}/points/batch", _batch_update),
        ("GET", rf"/collections/{_NAME}/points/(?P<id>[^/]+)", _get_point),
    )
)


def to_json(value: Any) -> Any:
    """A result as the server's JSON: models dumped, tuples as lists."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    if isinstance(value, dict):
        return {key: to_json(item) for key, item in value.items()}
    return value
