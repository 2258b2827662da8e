"""The reference build of ``stats``: every note read once and judged by the rules.

Built to scale: each collection is read once, a page at a time, and only counts are
kept, never the notes; ``progress(done, total)`` reports the points read. Each note
is judged by its collection service's rules (``visible_because``, ``fits_listing``)
for the agents it could concern. The only build that finds malformed points, and the
one for stores that cannot count by filter (mem0 collections, qdrant-client's local
mode). Reading only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from amem_tui.engine.collections import CollectionService
from amem_tui.engine.errors import AmemError
from amem_tui.engine.formats import mem0
from amem_tui.engine.models import EVERYONE, SHARED, MemoryNote
from amem_tui.engine.run_records import ConsolidationRun
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.stats.figures import (
    AgentStats,
    CollectionStats,
    Progress,
    Readers,
    StoreStats,
    consolidation,
    finish,
    layout,
    week_of,
)
from amem_tui.engine.stats.recall import RecallTally
from amem_tui.engine.store.base import SCAN_PAGE

#: How often (in points) progress is reported.
PROGRESS_EVERY = 1000
#: Points read per store call while someone watches the progress: a store call may
#: hold the interpreter lock for its whole page (Qdrant Edge does), so small pages
#: keep an app's screen lively. Unwatched (the CLI), each backend's own page is used.
LIVELY_PAGE = 512


@dataclass
class ReadCollection:
    """One collection being read: its service, its agents and who could each note concern."""

    service: CollectionService
    agents: Readers = field(default_factory=list)
    #: The recall figures of the notes read so far.
    recalls: RecallTally = field(default_factory=RecallTally)

    def concerned(self, note: MemoryNote) -> list[tuple[AgentScope, AgentStats]]:
        """The agents the rules could name for ``note`` (an index; the rules decide).

        Every agent of a Mode B collection reads all of it. Elsewhere a note can
        concern the agent its ``agent_id`` names, its owner and its explicit readers,
        and every Mode A agent when it is shared; in a mem0 collection the agent of
        its namespace.
        """
        if self.service.format == "mem0":
            namespace = mem0.note_namespace(note)
            return [pair for pair in self.agents if pair[1].namespace == namespace]
        names = {note.agent_id, note.effective_owner, *(note.readers or ())}
        shared = note.agent_id == SHARED or EVERYONE in names
        return [
            pair for pair in self.agents if pair[0].mode == "B" or pair[0].agent in names or shared
        ]


def wrote(service: CollectionService, scope: AgentScope, note: MemoryNote) -> bool:
    """True when the agent wrote ``note``: its owner (mem0: its namespace's memory).

    A Mode B agent sees all of its collection, notes imported from others included,
    but wrote only its own.
    """
    if service.format == "mem0":
        return service.visible_because(scope, note) is not None
    return note.effective_owner == scope.agent


def count_note(
    entry: ReadCollection, note: MemoryNote, collection: CollectionStats, shares: Counter[str]
) -> None:
    """Add one note to the figures of the agents it concerns, of its collection and of
    the shared scope's owners (``shares``), as the rules judge it."""
    service = entry.service
    amem = service.format == "amem"
    active, malformed = note.active, note.malformed
    shared = amem and note.agent_id == SHARED and not malformed
    if shared and active:
        shares[note.effective_owner or "(no owner)"] += 1
    attributed = False
    for scope, figures in entry.concerned(note):
        because = service.visible_because(scope, note)
        if because is not None:
            figures.visible += 1
            entry.recalls.add(figures, note)
        elif active and amem and service.get_only_because(scope, note) is not None:
            figures.get_only += 1
        private = active and service.fits_listing(scope, note, "private")
        if private:
            figures.private += 1
        if not wrote(service, scope, note):
            continue
        if private and amem and _names_other_readers(scope, note):
            figures.selectively_shared += 1
        attributed = True
        week = week_of(note)
        figures.weeks[week] = figures.weeks.get(week, 0) + 1
        if amem and note.legacy:
            figures.legacy += 1
        if malformed:
            figures.malformed += 1
        if not active:
            figures.soft_deleted += 1
        elif shared and scope.has_shared_scope:
            figures.shared_by += 1
    if malformed:
        collection.malformed += 1
        if not attributed:
            collection.unattributed += 1


def _names_other_readers(scope: AgentScope, note: MemoryNote) -> bool:
    """True when a private note's own readers name agents besides ``scope`` (not everyone)."""
    others = set(note.readers or ()) - {scope.agent}
    return bool(others) and EVERYONE not in others


def build_stats(
    scopes: Sequence[AgentScope],
    service_of: Callable[[str], CollectionService],
    history: Callable[[], list[ConsolidationRun]],
    progress: Progress | None = None,
) -> StoreStats:
    """Read every collection the agents read, once, and count (see the module docstring).

    ``history`` gives every consolidation run; when it fails the figures are still
    built and ``history_error`` says why.
    """
    out, laid_out, by_agent = layout(scopes, service_of)
    entries = {name: ReadCollection(*entry) for name, entry in laid_out.items()}
    sizes = {name: entry.service.store.count(name) for name, entry in entries.items()}
    page = LIVELY_PAGE if progress is not None else SCAN_PAGE
    total, done = sum(sizes.values()), 0
    shares: Counter[str] = Counter()
    for name, entry in entries.items():
        collection = CollectionStats(name=name, format=entry.service.format, points=sizes[name])
        out.collections.append(collection)
        service = entry.service
        for point in service.store.scan(service.name, page=page):
            count_note(entry, service.note(point.id, point.payload), collection, shares)
            done += 1
            if progress is not None and done % PROGRESS_EVERY == 0:
                progress(done, total)
        entry.recalls.finish([figures for _, figures in entry.agents])
    if progress is not None:
        progress(total, total)
    out.shared_owners = dict(sorted(shares.items(), key=lambda item: (-item[1], item[0])))
    finish(out)
    try:
        consolidation(by_agent, history())
    except AmemError as exc:
        out.history_error = str(exc)
    return out
