"""Following an agent's memory while something else writes it: a cheap probe, and what
changed between what an app shows and what the store holds now.

Qdrant has no change feed, so an app that follows a running agent polls. A probe
costs a handful of counts and one small read, whatever the size of the store:

- three counts: each pane's active notes (private, shared; for a Mode B agent, its
  own and its whole collection's), and everything the agent sees with the
  soft-deleted notes; and the agent's consolidation runs in the run log;
- the notes the app shows (at most ``WATCH_LIMIT``), read back by id;
- only when the panes hold more notes than before (or every ``SWEEP_EVERY``
  probes, or on an embedded store after a write), the notes created since the newest
  one seen, found by a time condition on their creation time.

On an embedded store only this process writes: while the store's write generation
stands still nothing can have changed, and a probe reads nothing at all.

What a probe means for what an app shows, and in words, is in
``amem_tui.engine.activity``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Literal

import amem_tui.engine.scope as rules
from amem_tui.engine.clock import iso
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.consolidation.runlog import runs_collection
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.reading import list_filter
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.store.filters import Filter, Match, Since

#: The most notes a probe reads back by id (what an app has on screen).
WATCH_LIMIT = 400
#: Notes created since the last probe that one probe reads (more: the app re-lists).
NEW_LIMIT = 200
#: A probe looks for new notes even when no count moved, one probe in this many (once a
#: minute at the TUI's poll a second): an add and a hard delete in the same interval
#: leave every count as it was.
SWEEP_EVERY = 60
#: How far before the first probe a new note may be dated and still be found: the
#: clocks of the writing agent and of this process need not agree.
CLOCK_SKEW = timedelta(minutes=5)

PaneName = Literal["private", "shared"]


@dataclass(frozen=True)
class Probe:
    """What one look at an agent's memory found.

    ``since`` and ``seen`` carry the time window that finds new notes from one probe
    to the next; an app passes the previous probe back and reads the rest.
    """

    agent: str
    #: The active notes each pane of the agent lists.
    counts: Mapping[PaneName, int]
    #: Every active note the agent sees (the header's "visible").
    visible: int
    #: Every note the agent sees, soft-deleted ones included: only a new note adds one.
    everything: int
    #: (recorded runs, finished runs) of the agent in the run log.
    runs: tuple[int, int]
    #: The watched notes whose payload changed since the previous probe (or that it did
    #: not watch), as stored now (None: gone, or no longer readable).
    watched: Mapping[str, MemoryNote | None]
    #: Notes created since the previous probe, by the pane they belong to.
    new_notes: Mapping[PaneName, Sequence[MemoryNote]]
    #: True when more notes were created than one probe reads: re-list instead.
    overflow: bool
    #: New notes are looked for from this time on (ISO 8601).
    since: str
    #: Ids already found at or after ``since`` (never reported twice).
    seen: frozenset[str]
    #: The embedded store's write generation (None on a server: others write there).
    generation: int | None
    #: Probes made since new notes were last looked for.
    sweep: int = 0
    #: Every watched note's payload as read (None: missing), to tell what changed next.
    payloads: Mapping[str, Mapping[str, object] | None] = field(default_factory=dict)
    #: Active notes the agent reads only by id (never in ``visible``; Mode A notes only).
    get_only: int = 0

    def counts_moved(self, before: Probe | None) -> bool:
        """True when a pane's count or the run log differs from ``before``."""
        return (
            before is None
            or self.counts != before.counts
            or self.visible != before.visible
            or self.everything != before.everything
            or self.runs != before.runs
            or self.get_only != before.get_only
        )

    @property
    def found_new(self) -> bool:
        """True when this probe found notes created since the previous one."""
        return any(self.new_notes.values())


@dataclass
class _Window:
    since: str
    seen: set[str] = field(default_factory=set)


def pane_of(scope: AgentScope, note: MemoryNote) -> PaneName | None:
    """The pane a note is listed in for ``scope`` (soft-deleted ones included), or None."""
    if rules.fits_listing(scope, note, "private"):
        return "private"
    if scope.has_shared_scope and rules.fits_listing(scope, note, "shared"):
        return "shared"
    return None


def panes(scope: AgentScope) -> tuple[PaneName, ...]:
    """The panes an agent has: Mode B agents have no shared scope."""
    return ("private", "shared") if scope.has_shared_scope else ("private",)


def probe(
    service: CollectionService,
    scope: AgentScope,
    watch: Sequence[str],
    since: Probe | None,
    now: Callable[[], datetime],
) -> Probe:
    """Look at ``scope``'s memory; ``since`` is the previous probe of the same agent.

    ``watch`` names the notes an app shows (the first ``WATCH_LIMIT`` are read);
    ``now`` is the engine's clock, which dates the first window for new notes.
    """
    store = service.store
    generation = store.write_generation if store.embedded else None
    if (
        since is not None
        and since.agent == scope.agent
        and generation is not None
        and generation == since.generation
        and generation % 2 == 0
    ):
        # Nothing was written by anyone: nothing to read, and nothing is new.
        return replace(
            since, watched={}, new_notes={which: [] for which in since.new_notes}, overflow=False
        )
    # One listing of the collections answers both "does it exist" questions.
    names = set(store.list_collections())
    exists = service.real_name in names
    counts, visible, everything = _counts(service, scope) if exists else ({}, 0, 0)
    get_only = (
        store.count(service.name, list_filter(service, scope, "get_only"))
        if exists and scope.has_shared_scope and service.format == "amem"
        else 0
    )
    log = runs_collection(service.name)
    runs = _runs(service, scope, log) if log in names else (0, 0)
    before = since.payloads if since is not None and since.agent == scope.agent else {}
    payloads, watched = (
        _watched(service, scope, watch[:WATCH_LIMIT], before) if exists else ({}, {})
    )
    first = since is None or since.agent != scope.agent
    window = _Window(
        iso(now() - CLOCK_SKEW) if first or since is None else since.since,
        set() if first or since is None else set(since.seen),
    )
    # Only a new note adds to what the agent sees with the soft-deleted notes (a
    # publish moves one between panes, a delete keeps it): look for new notes then, on
    # a sweep, or on an embedded store whose generation moved (this process wrote).
    added = since is not None and everything > since.everything
    moved = first or since is None or generation is not None or added
    sweep = 0 if since is None or first else since.sweep + 1
    new_notes: dict[PaneName, list[MemoryNote]] = {which: [] for which in panes(scope)}
    overflow = False
    if exists and (moved or sweep >= SWEEP_EVERY):
        sweep = 0
        found, overflow = _created_since(service, scope, window)
        if not first:  # the first probe only learns what is there
            for note in found:
                which = pane_of(scope, note)
                if which is not None:
                    new_notes[which].append(note)
    return Probe(
        agent=scope.agent,
        counts=counts,
        visible=visible,
        everything=everything,
        runs=runs,
        watched=watched,
        payloads=payloads,
        new_notes=new_notes,
        overflow=overflow,
        since=window.since,
        seen=frozenset(window.seen),
        generation=generation,
        sweep=sweep,
        get_only=get_only,
    )


def _counts(service: CollectionService, scope: AgentScope) -> tuple[dict[PaneName, int], int, int]:
    """Each pane's active notes, the visible ones, and all of them with the deleted."""
    store, name = service.store, service.name
    counts: dict[PaneName, int] = {
        which: store.count(name, list_filter(service, scope, which)) for which in panes(scope)
    }
    if scope.has_shared_scope and service.format == "amem":
        # Mode A: the private and shared panes split what the agent sees.
        visible = sum(counts.values())
    else:
        visible = store.count(name, list_filter(service, scope, "visible"))
    everything = store.count(name, list_filter(service, scope, "visible", include_inactive=True))
    return counts, visible, everything


def _runs(service: CollectionService, scope: AgentScope, log: str) -> tuple[int, int]:
    runs = Filter(must=(Match("kind", "run"), Match("agent", scope.agent)))
    done = Filter(must=(*runs.must, Match("status", "done")))
    return (service.store.count(log, runs), service.store.count(log, done))


def _watched(
    service: CollectionService,
    scope: AgentScope,
    ids: Sequence[str],
    before: Mapping[str, Mapping[str, object] | None],
) -> tuple[dict[str, Mapping[str, object] | None], dict[str, MemoryNote | None]]:
    """The payloads of the watched notes, and the notes whose payload is not the one
    ``before`` holds (only those are read as notes: that is most of a probe's cost)."""
    payloads: dict[str, Mapping[str, object] | None] = dict.fromkeys(ids)
    if ids:
        for point in service.store.retrieve(service.name, list(ids)):
            payloads[point.id] = point.payload
    changed: dict[str, MemoryNote | None] = {}
    for note_id, payload in payloads.items():
        if note_id in before and before[note_id] == payload:
            continue
        if payload is None:
            changed[note_id] = None
            continue
        note = service.note(note_id, dict(payload))
        changed[note_id] = note if service.can_read(scope, note) else None
    return payloads, changed


def _time_field(service: CollectionService) -> str:
    return "created_at" if service.format == "mem0" else "timestamp"


def _created_since(
    service: CollectionService, scope: AgentScope, window: _Window
) -> tuple[list[MemoryNote], bool]:
    """Notes of the scope created at or after the window's start and not seen yet;
    moves the window on when it fills up."""
    visible = service.read_filter(scope, include_inactive=True)
    key = _time_field(service)
    flt = Filter(must=(visible, Since(key, window.since)))
    points = service.store.scroll(service.name, flt, limit=NEW_LIMIT + 1)
    overflow = len(points) > NEW_LIMIT
    found: list[MemoryNote] = []
    for point in points[:NEW_LIMIT]:
        if point.id in window.seen:
            continue
        window.seen.add(point.id)
        found.append(service.note(point.id, point.payload))
    if len(window.seen) > NEW_LIMIT // 2 or overflow:
        # Start the window at the newest note found, and remember only the notes
        # dated exactly then: the window stays small however long the app follows.
        times = [t for t in (_created(service, p.payload) for p in points) if t]
        if times:
            window.since = max(times)
            window.seen = {p.id for p in points if _created(service, p.payload) == window.since}
    return found, overflow


def _created(service: CollectionService, payload: Mapping[str, object]) -> str:
    value = payload.get(_time_field(service))
    return value if isinstance(value, str) else ""
