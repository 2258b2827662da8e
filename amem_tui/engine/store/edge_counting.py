"""Exact counts and facets on an Edge shard, each asked the cheaper way round.

Qdrant answers a count or a facet whose filter matches few points by walking those
points through the payload indexes, but one whose filter matches most of them (every
active note: ``must_not is_active == false``) by checking the filter on every point.
The facet of ``agent_id`` over the active notes took several times as long as the
facet over every point minus the facet over the soft-deleted ones, which gives the
same figures (docs/performance.md). So where the shard's own estimate says a filter matches more
than half the points, the figure is everything minus the figure of its complement:
the same points, counted exactly, with both calls made under one read of the shard.
"""

from __future__ import annotations

import qdrant_edge as qe

#: Values a facet returns at most: far more agents and owners than any store holds.
FACET_LIMIT = 100_000


def _complement(flt: qe.Filter) -> qe.Filter:
    """The points ``flt`` leaves out. A filter of exclusions alone (``must_not``) is
    turned round into any of them holding: a doubled negation is answered by checking
    every point again."""
    if not flt.must and not flt.should and flt.must_not:
        return qe.Filter(should=list(flt.must_not))
    return qe.Filter(must_not=[flt])


def _mostly(shard: qe.EdgeShard, flt: qe.Filter, points: int) -> bool:
    """True when the shard estimates that ``flt`` matches more than half its points (an
    estimate from the indexes' cardinalities, well under a millisecond)."""
    estimate = int(shard.count(qe.CountRequest(exact=False, filter=flt)))
    return points > 0 and estimate * 2 > points


def count(shard: qe.EdgeShard, flt: qe.Filter | None, points: int) -> int:
    """Exact count of the points matching ``flt``; ``points`` is the shard's total."""
    if flt is None:
        return points
    if _mostly(shard, flt, points):
        return points - int(shard.count(qe.CountRequest(exact=True, filter=_complement(flt))))
    return int(shard.count(qe.CountRequest(exact=True, filter=flt)))


def _facet(shard: qe.EdgeShard, key: str, flt: qe.Filter | None) -> dict[str, int]:
    request = qe.FacetRequest(key, limit=FACET_LIMIT, exact=True, filter=flt)
    return {str(hit.value): int(hit.count) for hit in shard.facet(request).hits}


def facet(shard: qe.EdgeShard, key: str, flt: qe.Filter | None, points: int) -> dict[str, int]:
    """Exact count of the points matching ``flt`` per value of the keyword field ``key``
    (values no matching point holds are left out)."""
    if flt is None or not _mostly(shard, flt, points):
        return _facet(shard, key, flt)
    every = _facet(shard, key, None)
    if len(every) >= FACET_LIMIT:  # cut short: a difference would be wrong
        return _facet(shard, key, flt)
    outside = _facet(shard, key, _complement(flt))
    found = {value: n - outside.get(value, 0) for value, n in every.items()}
    return {value: n for value, n in found.items() if n > 0}
