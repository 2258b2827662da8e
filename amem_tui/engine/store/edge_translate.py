"""Translation between the store's neutral types and Qdrant Edge's: filters, ids,
points, vectors and schema types."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import numpy as np
import qdrant_edge as qe

from amem_tui.engine.store.base import PointPage, StoredPoint
from amem_tui.engine.store.filters import (
    Before,
    Condition,
    Empty,
    Filter,
    HasId,
    Match,
    MatchAny,
    MatchExcept,
    Range,
    Since,
)
from amem_tui.engine.store.ids import qdrant_id, valid_id
from amem_tui.engine.store.points import dense_rows, sparse_of, vector_of

#: A point id as Edge takes it.
EdgeId = int | UUID | str


def _bool(value: bool) -> Any:
    # qdrant-edge-py 0.9 reads a Python bool as an integer (bool subclasses int), and an
    # integer never matches a stored true/false, so boolean matches would silently match
    # nothing. numpy's bool is not an int subclass and arrives as a real boolean.
    return np.bool_(value)


def to_edge_filter(flt: Filter | None) -> qe.Filter | None:
    """Translate a neutral filter into Qdrant Edge's filter types."""
    if flt is None:
        return None

    def condition(cond: Condition) -> Any:
        if isinstance(cond, Filter):
            return to_edge_filter(cond)
        if isinstance(cond, Match):
            value = _bool(cond.value) if isinstance(cond.value, bool) else cond.value
            return qe.FieldCondition(cond.key, match=qe.MatchValue(value))
        if isinstance(cond, MatchAny):
            return qe.FieldCondition(cond.key, match=qe.MatchAny(list(cond.values)))
        if isinstance(cond, MatchExcept):
            return qe.FieldCondition(cond.key, match=qe.MatchExcept(list(cond.values)))
        if isinstance(cond, Empty):
            return qe.IsEmptyCondition(cond.key)
        if isinstance(cond, Since):
            return qe.FieldCondition(cond.key, range=qe.RangeDateTime(gte=cond.moment))
        if isinstance(cond, Before):
            return qe.FieldCondition(cond.key, range=qe.RangeDateTime(lt=cond.moment))
        if isinstance(cond, Range):
            bounds = qe.RangeFloat(gte=cond.gte, gt=cond.gt, lte=cond.lte, lt=cond.lt)
            return qe.FieldCondition(cond.key, range=bounds)
        if isinstance(cond, HasId):
            return qe.HasIdCondition({edge_id(i) for i in cond.ids if valid_id(i)})
        raise TypeError(f"unknown condition {cond!r}")

    return qe.Filter(
        must=[condition(c) for c in flt.must] or None,
        should=[condition(c) for c in flt.should] or None,
        must_not=[condition(c) for c in flt.must_not] or None,
    )


def edge_id(text: str) -> EdgeId:
    """An id as Edge's id conditions take it: an integer, or a UUID."""
    found = qdrant_id(text)
    return found if isinstance(found, int) else UUID(found)


def stored_point(record: Any, with_vectors: bool) -> StoredPoint:
    """A point Edge returned, as the store's neutral point (its vectors if asked)."""
    raw = record.vector if with_vectors else None
    return StoredPoint(
        str(record.id),
        dict(record.payload or {}),
        vector_of(raw, qe.SparseVector),
        sparse_of(raw, qe.SparseVector),
    )


def point_page(records: list[Any], with_vectors: bool) -> PointPage:
    """A page of points Edge returned (the payload Edge hands over is already a dict of
    its own), each vector copied straight into its row of the page's matrix."""
    vectors = (r.vector for r in records)
    out = dense_rows(len(records), vectors, qe.SparseVector) if with_vectors else None
    page = out or PointPage([], [])
    page.ids = [str(r.id) for r in records]
    page.payloads = [r.payload or {} for r in records]
    return page


def edge_vectors(point: StoredPoint) -> Any:
    """The dense vector alone, or with the named sparse vectors beside it."""
    if not point.sparse:
        return list(point.vector or [])
    named: dict[str, Any] = {"": list(point.vector or [])}
    for name, sparse in point.sparse.items():
        named[name] = qe.SparseVector(indices=list(sparse.indices), values=list(sparse.values))
    return named


def schema_type(data_type: Any) -> str:
    """``keyword`` for ``PayloadSchemaType.Keyword`` (however the binding prints it)."""
    return str(data_type).rsplit(".", 1)[-1].lower()
