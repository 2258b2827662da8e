"""``stats`` from the store's indexes: filtered counts and facets, no note read.

Every figure of an openclaw-amem collection is a count of a filter on indexed fields
(``agent_id``, ``owner``, ``readers``, ``is_active``; ``timestamp`` for the weeks),
or one facet that counts every agent at once. The filters come from
``amem_tui.engine.scope``, so they say what the rules say; on well-formed notes
the figures equal those of ``scan``, which a test checks. Malformed points can
only be found by reading every note: the report leaves them ``pending``, and
``visible`` and the shared scope may still count such points until that read, unless
the note index (which read every note once, and is kept current) names them: then
they are left out of the counts and judged one by one (``complete``). One
more difference: a store cannot tell an empty ``readers`` or ``writers`` list from a
missing one, so such a note counts as legacy here (openclaw-amem never writes one).

A collection the store cannot count this way (a mem0 collection, qdrant-client's
local mode, a collection without those indexes) makes ``count_stats`` return
None: read it with ``scan.build_stats``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from amem_tui.engine.collections import CollectionService
from amem_tui.engine.errors import AmemError
from amem_tui.engine.run_records import ConsolidationRun
from amem_tui.engine.scope import (
    AgentScope,
    active_filter,
    deleted_filter,
    get_only_filter,
    legacy_filter,
    selective_filter,
    shared_filter,
    unowned_filter,
    utc_time,
)
from amem_tui.engine.stats.cache import CountCache
from amem_tui.engine.stats.figures import (
    COUNTED_LATER,
    HISTORY_FIGURES,
    RECALL_FIGURES,
    SCAN_ONLY,
    UNDATED,
    CollectionStats,
    Readers,
    StoreStats,
    consolidation,
    finish,
    layout,
    monday,
    written_week,
)
from amem_tui.engine.stats.recall import RecallSource, RecallTally, count_recalls
from amem_tui.engine.stats.scan import ReadCollection, count_note
from amem_tui.engine.store.base import NoteStore
from amem_tui.engine.store.filters import Before, Filter, HasId, Since

#: Indexes a collection needs to be counted rather than read.
NEEDED_INDEXES = ("agent_id", "owner", "readers", "is_active")
#: The time field whose datetime index gives the notes written per week.
TIME_FIELD = "timestamp"
#: Fields a week needs when there is no time index (read with a payload selector).
WEEK_FIELDS = ("agent_id", "owner", "timestamp", "createdAt", "created_at")
#: More weeks than this between a collection's first and last note: read the times
#: instead of counting each week (two facets a week).
MOST_WEEKS = 520


def countable(service: CollectionService) -> bool:
    """True when the store can count this collection's figures from its indexes."""
    if service.format != "amem":
        return False
    indexed = service.store.indexed_fields(service.real_name)
    return all(field in indexed for field in NEEDED_INDEXES)


def both(*filters: Filter | None) -> Filter:
    """A filter every one of ``filters`` must hold (None: no condition)."""
    return Filter(must=tuple(f for f in filters if f is not None))


class _Counting:
    """One collection's counts: the store, its name, and who wrote what; the points of
    ``left_out`` (the malformed ones, judged one by one instead) are never counted."""

    def __init__(self, service: CollectionService, left_out: Sequence[str] = ()) -> None:
        self.service = service
        self.store: NoteStore = service.store
        self.name = service.real_name
        self.indexed = self.store.indexed_fields(self.name)
        self.left_out = frozenset(left_out)
        #: The points left out, as a condition (None: none).
        self.left_out_ids = HasId(tuple(sorted(left_out))) if left_out else None
        self._without = Filter(must_not=(self.left_out_ids,)) if self.left_out_ids else None

    def _only_counted(self, flt: Filter | None) -> Filter | None:
        if self._without is None:
            return flt
        return both(flt, self._without)

    def total(self) -> int:
        """Every point of the collection, malformed or not."""
        return self.store.count(self.name)

    def count(self, flt: Filter | None = None) -> int:
        return self.store.count(self.name, self._only_counted(flt))

    def facet(self, key: str, flt: Filter | None = None) -> Counter[str]:
        """Points per value of ``key`` (empty values left out)."""
        found = self.store.facet(self.name, key, self._only_counted(flt))
        return Counter({k: n for k, n in found.items() if k})

    def written(self, flt: Filter | None = None) -> Counter[str]:
        """Matching notes by who wrote them (``effective_owner``): the owner, else the
        agent id of a note without one. Two facets for every agent at once."""
        owned = self.facet("owner", flt)
        owned.update(self.facet("agent_id", both(flt, unowned_filter())))
        return owned

    def weeks(self) -> dict[str, Counter[str]] | None:
        """Notes written per week (Monday, UTC) by writer; None without a time index."""
        if self.indexed.get(TIME_FIELD) != "datetime":
            return None
        bounds = self.store.time_bounds(self.name, TIME_FIELD)
        first, last = (utc_time(b) for b in bounds) if bounds else (None, None)
        if first is None or last is None:
            return {}
        start = date.fromisoformat(monday(first))
        if (last.date() - start).days // 7 > MOST_WEEKS:
            return None
        out: dict[str, Counter[str]] = {}
        week = start
        while week <= last.date():
            after = week + timedelta(days=7)
            span = Filter(
                must=(Since(TIME_FIELD, _midnight(week)), Before(TIME_FIELD, _midnight(after)))
            )
            found = self.written(span)
            if found:
                out[week.isoformat()] = found
            week = after
        return out

    def weeks_read(self) -> dict[str, Counter[str]]:
        """Notes written per week by writer, reading only the fields a week needs."""
        out: dict[str, Counter[str]] = {}
        for point in self.store.scan(self.name, fields=WEEK_FIELDS):
            if point.id in self.left_out:
                continue
            writer, week = written_week(point.payload)
            if writer:
                out.setdefault(week, Counter())[writer] += 1
        return out


def _midnight(day: date) -> str:
    return datetime(day.year, day.month, day.day).isoformat() + "Z"


#: The figures each part of a collection's count sets (see ``_fill``).
FIRST_FIELDS = ("private", "visible", "shared_by")
REST_FIELDS = ("get_only", "soft_deleted", "legacy", "selectively_shared", "weeks")


def _fill_first(counting: _Counting, readers: Readers) -> tuple[int, Counter[str], int]:
    """The cheapest figures of one collection (``COUNTED_LATER`` left out): each
    agent's private, shared-by and visible notes. Returns the collection's points, the
    shared scope by owner, and how many notes it holds."""
    points = counting.total()
    mode_a = [pair for pair in readers if pair[0].mode == "A"]
    private = counting.facet("agent_id", active_filter()) if mode_a else Counter()
    active = counting.count(active_filter()) if len(mode_a) < len(readers) else 0
    shares = counting.facet("owner", shared_filter())
    shared = counting.count(shared_filter())
    for scope, figures in readers:
        if scope.mode == "A":
            figures.private = private[scope.agent]
            # read_filter's two parts, which no note holds both of: its own notes and
            # the shared scope; what it reads only by id is counted apart.
            figures.visible = figures.private + shared
            figures.shared_by = shares[scope.agent]
        else:
            figures.private = figures.visible = active
    return points, shares, shared


def _fill_rest(counting: _Counting, readers: Readers) -> None:
    """The figures ``_fill_first`` leaves for later (``COUNTED_LATER``), but
    what gets recalled."""
    deleted = counting.written(deleted_filter())
    legacy = counting.written(legacy_filter(writers="writers" in counting.indexed))
    for scope, figures in readers:
        figures.soft_deleted = deleted[scope.agent]
        figures.legacy = legacy[scope.agent]
        figures.selectively_shared = counting.count(selective_filter(scope))
        if scope.mode == "A":
            figures.get_only = counting.count(get_only_filter(scope))
    weeks = counting.weeks()
    if weeks is None:
        weeks = counting.weeks_read()
    written = counting.written()
    for scope, figures in readers:
        dated = 0
        for week, writers in weeks.items():
            if writers[scope.agent]:
                figures.weeks[week] = writers[scope.agent]
                dated += writers[scope.agent]
        if written[scope.agent] > dated:
            figures.weeks[UNDATED] = written[scope.agent] - dated


def _fill(
    counting: _Counting,
    readers: Readers,
    collection: CollectionStats,
    how: Counting,
    cache: CountCache | None,
) -> tuple[Counter[str], RecallSource]:
    """Count one collection's figures for its readers (see ``Counting``), each part
    kept in ``cache`` while the collection's revision stays; returns its shared scope
    by owner, and where its recall figures came from ("": not counted)."""
    revision = counting.store.revision(counting.name)
    scopes = tuple(scope for scope, _ in readers)

    def key(part: str) -> tuple[object, ...] | None:
        if revision is None:
            return None
        return (part, counting.name, revision, scopes, counting.left_out)

    cache = cache or CountCache()
    points, shares, shared = cache.part(
        key("first"), readers, FIRST_FIELDS, lambda: _fill_first(counting, readers)
    )
    collection.points = points
    source: RecallSource = ""
    if not how.quick:
        cache.part(key("rest"), readers, REST_FIELDS, lambda: _fill_rest(counting, readers))
        if how.recalls:
            source = cache.part(
                key(f"recalls {how.complete}"),
                readers,
                RECALL_FIGURES,
                lambda: count_recalls(
                    counting.service, readers, counting.left_out_ids, how.complete
                ),
            )
    unowned = shared - sum(shares.values())
    if unowned:
        shares["(no owner)"] = unowned
    return shares, source


@dataclass(frozen=True)
class Counting:
    """How much of the report ``count_stats`` counts."""

    #: The malformed points named by the note index, and judged one by one.
    complete: bool = False
    #: Only the first figures (``COUNTED_LATER`` pending).
    quick: bool = False
    #: What gets recalled too (else ``RECALL_FIGURES`` pending).
    recalls: bool = True


def count_stats(
    scopes: Sequence[AgentScope],
    service_of: Callable[[str], CollectionService],
    history: Callable[[], list[ConsolidationRun]] | None,
    complete: bool = False,
    quick: bool = False,
    *,
    recalls: bool = True,
    cache: CountCache | None = None,
) -> StoreStats | None:
    """The report from counts and facets (malformed points ``pending``), or None when a
    collection cannot be counted this way (see the module docstring).

    ``complete``: the note index (which every search of an embedded store keeps) names
    the malformed points; the counts leave them out and each of them is judged by the
    rules, as a read of every note would, so nothing is pending. Where a collection has
    no note index, its malformed points stay pending. Without ``history`` its figures
    (``HISTORY_FIGURES``) are pending: the history reads the note index, which a
    store without a saved one must first build by reading every note. ``quick``
    counts only the cheapest figures (every agent's private, shared-by and visible
    notes, every collection's points): the rest (``COUNTED_LATER``) are pending,
    for a screen that draws those first. ``recalls`` False leaves what gets recalled
    pending (``RECALL_FIGURES``: a read of the recalled notes where their count has
    no index). ``cache`` keeps each collection's counts while its revision stays (see
    ``cache``).
    """
    out, entries, by_agent = layout(scopes, service_of)
    if not all(countable(service) for service, _ in entries.values()):
        return None
    shares: Counter[str] = Counter()
    complete = complete and not quick  # the malformed points add to every figure
    how = Counting(complete, quick, recalls and not quick)
    found_all = complete
    recalled_all = how.recalls
    for name, (service, readers) in entries.items():
        collection = CollectionStats(name=name, format=service.format)
        out.collections.append(collection)
        malformed = service.index.malformed_note_ids() if complete else None
        found_all = found_all and malformed is not None
        counting = _Counting(service, malformed or ())
        owners, source = _fill(counting, readers, collection, how, cache)
        shares.update(owners)
        recalled_all = recalled_all and source != ""
        if malformed:
            # The note index's recall figures hold the malformed notes already.
            tally = RecallTally(counting=source != "note index")
            entry = ReadCollection(service, readers, tally)
            for point in service.store.retrieve(service.real_name, malformed):
                count_note(entry, service.note(point.id, point.payload), collection, shares)
            entry.recalls.finish([figures for _, figures in readers])
    out.shared_owners = dict(sorted(shares.items(), key=lambda item: (-item[1], item[0])))
    out.pending = [] if found_all else list(SCAN_ONLY)
    if quick:
        out.pending = [*COUNTED_LATER, *out.pending]
    elif not recalled_all:
        out.pending = [*RECALL_FIGURES, *out.pending]
    if not recalled_all:  # what the malformed points alone added means nothing yet
        for figures in out.agents:
            if figures.never_recalled is not None:
                figures.never_recalled, figures.most_recalled = 0, []
    finish(out)
    if history is None:
        out.pending += HISTORY_FIGURES
        return out
    try:
        consolidation(by_agent, history())
    except AmemError as exc:
        out.history_error = str(exc)
    return out
