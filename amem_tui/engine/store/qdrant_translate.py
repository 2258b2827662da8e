"""Translation between the store's neutral types and qdrant-client's models: filters
and points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from qdrant_client import models as qm

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


def to_qdrant_filter(flt: Filter | None) -> qm.Filter | None:
    """Translate a neutral filter into qdrant-client's filter model."""
    if flt is None:
        return None

    def condition(cond: Condition) -> Any:
        if isinstance(cond, Filter):
            return to_qdrant_filter(cond)
        if isinstance(cond, Match):
            return qm.FieldCondition(key=cond.key, match=qm.MatchValue(value=cond.value))
        if isinstance(cond, MatchAny):
            return qm.FieldCondition(key=cond.key, match=qm.MatchAny(any=list(cond.values)))
        if isinstance(cond, Since):
            # The model parses the ISO text itself (the type says datetime).
            since: Any = cond.moment
            return qm.FieldCondition(key=cond.key, range=qm.DatetimeRange(gte=since))
        if isinstance(cond, Before):
            until: Any = cond.moment
            return qm.FieldCondition(key=cond.key, range=qm.DatetimeRange(lt=until))
        if isinstance(cond, Range):
            bounds = qm.Range(gte=cond.gte, gt=cond.gt, lte=cond.lte, lt=cond.lt)
            return qm.FieldCondition(key=cond.key, range=bounds)
        if isinstance(cond, MatchExcept):
            values: Any = list(cond.values)
            return qm.FieldCondition(key=cond.key, match=qm.MatchExcept(**{"except": values}))
        if isinstance(cond, Empty):
            return qm.IsEmptyCondition(is_empty=qm.PayloadField(key=cond.key))
        if isinstance(cond, HasId):
            return qm.HasIdCondition(has_id=[qdrant_id(i) for i in cond.ids if valid_id(i)])
        raise TypeError(f"unknown condition {cond!r}")

    return qm.Filter(
        must=[condition(c) for c in flt.must] or None,
        should=[condition(c) for c in flt.should] or None,
        must_not=[condition(c) for c in flt.must_not] or None,
    )


def stored_point(point_id: Any, payload: dict[str, Any] | None, raw: Any) -> StoredPoint:
    """A point as the store hands it on, from what qdrant-client returned."""
    return StoredPoint(
        str(point_id),
        dict(payload or {}),
        vector_of(raw, qm.SparseVector),
        sparse_of(raw, qm.SparseVector),
    )


def point_page(records: Sequence[qm.Record], with_vectors: bool) -> PointPage:
    """A page of points qdrant-client returned, each vector copied straight into its
    row of the page's matrix."""
    vectors = (r.vector for r in records)
    out = dense_rows(len(records), vectors, qm.SparseVector) if with_vectors else None
    page = out or PointPage([], [])
    page.ids = [str(r.id) for r in records]
    page.payloads = [dict(r.payload or {}) for r in records]
    return page


def qdrant_vectors(point: StoredPoint) -> Any:
    """The dense vector alone, or with the named sparse vectors beside it."""
    if not point.sparse:
        return point.vector or []
    named: dict[str, Any] = {"": point.vector or []}
    for name, sparse in point.sparse.items():
        named[name] = qm.SparseVector(indices=list(sparse.indices), values=list(sparse.values))
    return named
