"""What gets recalled: per agent, the notes it sees that searches returned most, and how
many of them no search ever returned.

openclaw-amem keeps both in each note: its searches add one to ``retrieval_count`` of
every note they return and stamp ``last_accessed``, whichever agent searched (a shared
note's count is every agent's). The inspector never bumps them. mem0 memories keep no
such count: their agents get no recall figures (``never_recalled`` None).

From the store (``count_recalls``): the never-recalled notes are one facet of the
recalled notes by ``agent_id`` (each agent's visible notes are its own and the shared
scope's, as ``counts`` counts them), and each agent's most recalled notes one read
of ``MOST_RECALLED`` points through its read filter, in the order of
``retrieval_count`` (its integer index makes that a read of those points alone), with
only the fields a row shows. Without that index (collections made before it), one read
of the recalled notes' ``agent_id`` and count gives the same figures. From every note
(``RecallTally``): the same figures, judged note by note, for the reference build
of ``scan``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import islice
from typing import Literal

from amem_tui.engine.collections import CollectionService
from amem_tui.engine.models import SHARED, MemoryNote
from amem_tui.engine.scope import AgentScope, active_filter, read_filter
from amem_tui.engine.stats.figures import MOST_RECALLED, AgentStats, RecalledNote
from amem_tui.engine.store.base import ORDERED_INDEXES, NoteStore
from amem_tui.engine.store.filters import Filter, HasId, Range
from amem_tui.engine.store.ids import store_order

#: The payload field openclaw-amem counts recalls in.
RECALL_COUNT = "retrieval_count"
#: A note some search returned.
RECALLED = Range(RECALL_COUNT, gte=1)
#: What a row of the most recalled notes shows (the payload selector of its read).
ROW_FIELDS = ("content", RECALL_COUNT, "last_accessed", "agent_id", "owner")


def recalled(flt: Filter | None) -> Filter:
    """The notes ``flt`` matches that some search returned."""
    return Filter(must=(RECALLED,) if flt is None else (flt, RECALLED))


#: Where a collection's recall figures came from: its store's index on the count, its
#: note index (the malformed points included), a read of the recalled notes, or nowhere
#: yet (left ``pending``).
RecallSource = Literal["store", "note index", "read", ""]


def count_recalls(
    service: CollectionService,
    readers: list[tuple[AgentScope, AgentStats]],
    left_out: HasId | None = None,
    complete: bool = False,
) -> RecallSource:
    """Fill each agent's recall figures of one openclaw-amem collection; each agent's
    ``visible`` must be filled already. ``left_out`` matches the points the counts leave
    out (the malformed ones, where they are known).

    Where ``retrieval_count`` has no index in the store (a collection made before it had
    one, or by another tool), only a ``complete`` count finds the figures: from the note
    index where the store keeps one (as for the malformed points), else by a read of
    the recalled notes; otherwise they are left for later (returns "").
    """
    store, collection = service.store, service.real_name

    def counted(flt: Filter) -> Filter:
        return flt if left_out is None else Filter(must=(flt,), must_not=(left_out,))

    if store.indexed_fields(collection).get(RECALL_COUNT) not in ORDERED_INDEXES:
        if not complete:
            return ""
        if _from_note_index(service, readers):
            return "note index"
        _read_recalled(store, collection, readers, counted(recalled(active_filter())))
        return "read"
    mode_a = [pair for pair in readers if pair[0].mode == "A"]
    every = counted(recalled(active_filter()))
    by_agent = store.facet(collection, "agent_id", every) if mode_a else {}
    whole = store.count(collection, every) if len(mode_a) < len(readers) else 0
    for scope, figures in readers:
        if scope.mode == "A":
            seen = by_agent.get(scope.agent, 0) + by_agent.get(SHARED, 0)
        else:
            seen = whole
        figures.never_recalled = figures.visible - seen
        figures.most_recalled = most_recalled(
            store, collection, counted(recalled(read_filter(scope)))
        )
    return "store"


def _from_note_index(
    service: CollectionService, readers: list[tuple[AgentScope, AgentStats]]
) -> bool:
    """The recall figures from the note index (the malformed notes judged with the rest),
    and the rows of the most recalled notes read by id; False where there is none."""
    found = []
    for scope, figures in readers:
        answer = service.index.recall_figures(scope, MOST_RECALLED)
        if answer is None:
            return False
        found.append((figures, *answer))
    wanted = list(dict.fromkeys(i for _, _, ids in found for i in ids))
    rows = {p.id: p.payload for p in service.store.retrieve(service.real_name, wanted)}
    for figures, never, ids in found:
        figures.never_recalled = never
        figures.most_recalled = [
            RecalledNote.from_payload(i, {k: rows[i].get(k) for k in ROW_FIELDS})
            for i in ids
            if i in rows
        ]
    return True


def _read_recalled(
    store: NoteStore, collection: str, readers: list[tuple[AgentScope, AgentStats]], every: Filter
) -> None:
    """``count_recalls`` where ``retrieval_count`` has no index (a collection made
    before it had one, or by another tool): one read of the recalled notes, two fields
    each (a payload selector), grouped by ``agent_id`` as the counts group the visible
    notes; then the rows of each agent's most recalled notes, read by id."""
    seen: Counter[str] = Counter()
    best: dict[str, list[tuple[tuple[float, tuple[int, int, str]], str]]] = {}
    for point in store.scan(collection, every, fields=("agent_id", RECALL_COUNT)):
        agent, count = point.payload.get("agent_id"), point.payload.get(RECALL_COUNT)
        if not isinstance(agent, str) or not RECALLED.holds(count):
            continue  # a malformed point, which the counts leave to the full read
        seen[agent] += 1
        kept = best.setdefault(agent, [])
        kept.append(((-float(count), store_order(point.id)), point.id))  # type: ignore[arg-type]
        if len(kept) > 8 * MOST_RECALLED:  # now and then: the cost stays a sort of a few
            kept.sort()
            del kept[MOST_RECALLED:]
    chosen: list[tuple[AgentStats, list[str]]] = []
    for scope, figures in readers:
        groups = (scope.agent, SHARED) if scope.mode == "A" else tuple(seen)
        figures.never_recalled = figures.visible - sum(seen[group] for group in groups)
        ranked = sorted(entry for group in groups for entry in best.get(group, []))
        chosen.append((figures, [point_id for _, point_id in ranked[:MOST_RECALLED]]))
    wanted = list(dict.fromkeys(i for _, ids in chosen for i in ids))
    rows = {p.id: p.payload for p in store.retrieve(collection, wanted)}
    for figures, ids in chosen:
        figures.most_recalled = [
            RecalledNote.from_payload(i, {k: rows[i].get(k) for k in ROW_FIELDS})
            for i in ids
            if i in rows
        ]


def most_recalled(store: NoteStore, collection: str, flt: Filter) -> list[RecalledNote]:
    """The ``MOST_RECALLED`` notes ``flt`` matches with the highest
    ``retrieval_count``; of notes recalled as often as the last one kept, those first in
    the store's id order (``rank``), so every store and every build keeps the same.

    Two reads of a few points: the first in the order of the count, which gives the
    count at the cut; then the first notes at that count in id order.
    """
    first = store.ordered(collection, flt, RECALL_COUNT, MOST_RECALLED, fields=ROW_FIELDS)
    notes = [RecalledNote.from_payload(p.id, p.payload) for p in first]
    if len(notes) < MOST_RECALLED:
        return sorted(notes, key=rank)  # every match was read
    cut = notes[-1].retrieval_count
    above = [note for note in notes if note.retrieval_count > cut]
    wanted = MOST_RECALLED - len(above)
    at_cut = Filter(must=(flt, Range(RECALL_COUNT, gte=cut, lte=cut)))
    tied = store.scan(collection, at_cut, page=wanted, fields=ROW_FIELDS)
    rest = [RecalledNote.from_payload(p.id, p.payload) for p in islice(tied, wanted)]
    return sorted([*above, *rest], key=rank)


def rank(note: RecalledNote) -> tuple[int, tuple[int, int, str]]:
    """Most recalled first, then in the store's id order."""
    return (-note.retrieval_count, store_order(note.id))


@dataclass
class RecallTally:
    """The recall figures of a read of every note: each visible note counted never
    recalled, or kept while it may be among an agent's most recalled."""

    #: Per agent's figures (by object id): the notes that may be among its most recalled.
    kept: dict[int, list[RecalledNote]] = field(default_factory=dict)
    #: False when the figures already hold these notes (counted from the note index).
    counting: bool = True

    def add(self, figures: AgentStats, note: MemoryNote) -> None:
        """Count a note ``figures``' agent sees (openclaw-amem notes only)."""
        if figures.never_recalled is None or not self.counting:
            return
        if not RECALLED.holds(note.retrieval_count):
            figures.never_recalled += 1
            return
        kept = self.kept.setdefault(id(figures), [])
        kept.append(_row(note))
        if len(kept) > 8 * MOST_RECALLED:  # now and then: the cost stays a sort of a few
            kept.sort(key=rank)
            del kept[MOST_RECALLED:]

    def finish(self, agents: list[AgentStats]) -> None:
        """Put each agent's most recalled notes in its figures, in ``rank`` order
        (with those it holds already: the counts' own, where only a few notes were read)."""
        for figures in agents:
            merged = [*figures.most_recalled, *self.kept.get(id(figures), [])]
            figures.most_recalled = sorted(merged, key=rank)[:MOST_RECALLED]


def _row(note: MemoryNote) -> RecalledNote:
    return RecalledNote.from_payload(note.id, {key: getattr(note, key) for key in ROW_FIELDS})
