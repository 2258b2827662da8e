"""Reads of an Edge shard in an order: every point a page at a time by point id, or by
a numeric or datetime payload index (Qdrant's ``order_by``): the first points by a
number, and a field's time bounds."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import qdrant_edge as qe

from amem_tui.engine.store.base import StoredPoint
from amem_tui.engine.store.edge_translate import stored_point

if TYPE_CHECKING:
    from amem_tui.engine.store.edge_shard import OpenShard


def pages(
    opened: OpenShard,
    calls: Callable[[str], AbstractContextManager[None]],
    edge_filter: Any,
    with_vectors: bool,
    page: int,
    fields: Sequence[str] | None,
) -> Iterator[list[Any]]:
    """Edge's records of every matching point in id order, a page at a time (none empty);
    the shard's read lock is held for each page, not between them."""
    cursor: Any = None
    payload: Any = True if fields is None else qe.PayloadSelector.Include(list(fields))
    while True:
        request = qe.ScrollRequest(
            offset=cursor,
            limit=page,
            filter=edge_filter,
            with_payload=payload,
            with_vector=with_vectors,
        )
        with opened.lock.reading(), calls("reading"):
            points, cursor = opened.shard.scroll(request)
        if points:
            yield points
        if cursor is None or not points:
            return


def first_by(
    shard: Any,
    edge_filter: Any,
    key: str,
    limit: int,
    fields: Sequence[str] | None,
    descending: bool,
) -> list[StoredPoint]:
    """The first ``limit`` matching points by ``key``, each once."""
    direction = qe.Direction.Desc if descending else qe.Direction.Asc
    request = qe.ScrollRequest(
        limit=limit,
        filter=edge_filter,
        with_payload=True if fields is None else qe.PayloadSelector.Include(list(fields)),
        with_vector=False,
        order_by=qe.OrderBy(key, direction=direction),
    )
    points, _ = shard.scroll(request)
    found = {str(p.id): stored_point(p, False) for p in points}  # a list field may repeat one
    return list(found.values())


def time_bounds(shard: Any, key: str) -> tuple[str, str] | None:
    """The earliest and latest value of ``key``, or None if either is not a string."""
    found: list[str] = []
    for direction in (qe.Direction.Asc, qe.Direction.Desc):
        request = qe.ScrollRequest(
            limit=1,
            with_payload=qe.PayloadSelector.Include([key]),
            with_vector=False,
            order_by=qe.OrderBy(key, direction=direction),
        )
        points, _ = shard.scroll(request)
        value = (points[0].payload or {}).get(key) if points else None
        if not isinstance(value, str):
            return None
        found.append(value)
    return found[0], found[1]
