"""Reading notes as an agent: one by id, its links, listings and counts.

Every read applies the read rule of ``amem_tui.engine.scope`` and changes
nothing (no ``retrieval_count`` or ``last_accessed`` bumps). A note that does not
exist and one the agent may not read give the same answer, so nothing reveals an
unreadable note's existence.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

import amem_tui.engine.scope as rules
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.errors import NotFound
from amem_tui.engine.models import MemoryNote, NotePage
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.store.filters import Condition, Filter, Match
from amem_tui.engine.versions import NoteHistory, VersionLog

#: The listings of an agent: its own notes, the shared scope, both (what its searches,
#: listings and counts hold), and ``get_only``: what it reads only by id (never part of
#: ``visible``; see ``amem_tui.engine.scope.get_only_filter``).
ListScope = Literal["private", "shared", "visible", "get_only", "all"]


def read_note(service: CollectionService, scope: AgentScope, note_id: str) -> MemoryNote:
    """A note by id, if the read rule lets the agent see it (soft-deleted included)."""
    points = service.store.retrieve(service.name, [note_id]) if service.exists() else []
    if not points:
        raise NotFound(note_id, scope.agent)
    note = service.note(points[0].id, points[0].payload)
    if not service.can_read(scope, note):
        raise NotFound(note_id, scope.agent)
    return note


def linked(
    service: CollectionService, scope: AgentScope, note: MemoryNote
) -> list[tuple[str, MemoryNote | None]]:
    """Each link of a note with its target, or None where the read rule hides it."""
    if not note.links:
        return []
    points = {p.id: p for p in service.store.retrieve(service.name, note.links)}
    out: list[tuple[str, MemoryNote | None]] = []
    for link in note.links:
        point = points.get(link)
        target = service.note(point.id, point.payload) if point else None
        if target is not None and not service.can_read(scope, target):
            target = None
        out.append((link, target))
    return out


def readable_ids(service: CollectionService, scope: AgentScope, ids: Iterable[str]) -> set[str]:
    """Those of ``ids`` that name notes the agent may read (the get rule)."""
    wanted = sorted(set(ids))
    if not wanted:
        return set()
    return {
        point.id
        for point in service.store.retrieve(service.name, wanted)
        if service.can_read(scope, service.note(point.id, point.payload))
    }


def redact(
    service: CollectionService, scope: AgentScope, notes: Sequence[MemoryNote]
) -> list[MemoryNote]:
    """Copies of ``notes`` fit to show the agent: ids in ``links`` and ``conflicts_with``
    that name notes it may not read are left out, and only counted (the extra keys
    ``unreadable_links`` and ``unreadable_conflicts``), so no output reveals that an
    unreadable note exists."""
    readable = readable_ids(
        service, scope, {t for n in notes for t in (*n.links, *n.conflicts_with)}
    )
    out: list[MemoryNote] = []
    for note in notes:
        copy = note.model_copy(deep=True)
        for field, extra in (
            ("links", "unreadable_links"),
            ("conflicts_with", "unreadable_conflicts"),
        ):
            values: list[str] = getattr(note, field)
            kept = [value for value in values if value in readable]
            if len(kept) != len(values):
                setattr(copy, field, kept)
                setattr(copy, extra, len(values) - len(kept))
        out.append(copy)
    return out


def note_history(service: CollectionService, scope: AgentScope, note_id: str) -> NoteHistory:
    """Every version of a note the agent may read, oldest first, redacted as the note is
    (links and conflicts to notes it may not read left out and counted)."""
    note = read_note(service, scope, note_id)
    history = VersionLog(service.store).history(service.name, note_id, note.to_payload())
    snaps = [s for v in history.versions for s in (v.before, v.after) if s is not None]
    named = {t for snap in snaps for key in _REDACTED for t in _ids(snap.get(key))}
    readable = readable_ids(service, scope, named)
    for version in history.versions:
        version.before = _redact_snapshot(version.before, readable)
        version.after = _redact_snapshot(version.after, readable)
    return history


#: The fields of a snapshot that name other notes, and the count kept of those left out.
_REDACTED = {"links": "unreadable_links", "conflicts_with": "unreadable_conflicts"}


def _ids(value: object) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _redact_snapshot(snap: dict[str, Any] | None, readable: set[str]) -> dict[str, Any] | None:
    if snap is None:
        return None
    out = dict(snap)
    for key, counted in _REDACTED.items():
        values = out.get(key)
        if not isinstance(values, list):
            continue
        kept = [v for v in values if isinstance(v, str) and v in readable]
        if len(kept) != len(values):
            out[key] = kept
            out[counted] = len(values) - len(kept)
    return out


def list_filter(
    service: CollectionService,
    scope: AgentScope,
    which: ListScope,
    include_inactive: bool = False,
    *,
    owner: str | None = None,
    low_quality: bool = False,
    run_id: str | None = None,
) -> Filter:
    """The filter behind each listing, narrowed to one ``owner``, to notes flagged
    ``low_quality`` and/or to one session's short-term memories (mem0's ``run_id``;
    openclaw-amem notes carry none) when asked."""
    base = _base_filter(service, scope, which, include_inactive, owner)
    narrow: tuple[Condition, ...] = ()
    if owner and which != "shared":  # the shared filter narrows by owner itself
        narrow += (Match("owner", owner),)
    if low_quality:
        narrow += (Match("low_quality", True),)
    if run_id is not None:
        narrow += (Match("run_id", run_id),)
    return Filter(must=(base, *narrow)) if narrow else base


def _base_filter(
    service: CollectionService,
    scope: AgentScope,
    which: ListScope,
    include_inactive: bool,
    owner: str | None,
) -> Filter:
    if service.format == "mem0":
        # mem0 has no shared scope and no read by id apart from its namespaces.
        if which in ("shared", "get_only"):
            return rules.NEVER
        return service.read_filter(scope, include_inactive)
    if which == "private":
        return rules.private_filter(scope, include_inactive)
    if which == "shared":
        return rules.shared_view_filter(scope, owner, include_inactive)
    if which == "get_only":
        return rules.get_only_filter(scope, include_inactive)
    return service.read_filter(scope, include_inactive)


def list_notes(
    service: CollectionService,
    scope: AgentScope,
    which: ListScope = "visible",
    limit: int = 50,
    offset: int = 0,
    include_inactive: bool = False,
    *,
    owner: str | None = None,
    low_quality: bool = False,
    run_id: str | None = None,
) -> NotePage:
    """A page of the agent's private, shared or all visible notes, with the total.

    ``shared`` is the shared scope; private and shared together are what its searches,
    listings and counts hold (``visible``), as openclaw-amem's agent filter selects
    them. ``get_only`` lists, apart, the notes it reads only by id (their readers name
    it or hold "*"). ``run_id`` keeps one session's short-term memories (mem0).
    """
    if owner is not None:
        rules.validate_agent_id(owner)
    if which in ("shared", "get_only") and not scope.has_shared_scope:
        return NotePage(total=0, offset=offset, notes=[])
    if not service.exists():
        return NotePage(total=0, offset=offset, notes=[])
    flt = list_filter(
        service,
        scope,
        which,
        include_inactive,
        owner=owner,
        low_quality=low_quality,
        run_id=run_id,
    )
    points = service.store.scroll(service.name, flt, limit=limit, offset=offset)
    total = service.store.count(service.name, flt)
    notes = [service.note(p.id, p.payload) for p in points]
    # What a filter cannot judge (wrong types Qdrant still matches) never shows.
    notes = [n for n in notes if service.fits_listing(scope, n, which)]
    if owner is not None:
        notes = [n for n in notes if n.owner == owner]
    return NotePage(total=total, offset=offset, notes=notes)


def count(service: CollectionService, scope: AgentScope, which: ListScope = "visible") -> int:
    """How many notes a listing holds."""
    if which in ("shared", "get_only") and not scope.has_shared_scope:
        return 0
    if not service.exists():
        return 0
    return service.store.count(service.name, list_filter(service, scope, which))
