"""The whole store at a glance: per agent, per week, per owner of the shared scope.

For each agent: its mode and collection, how many notes are private to it, shared by
it, visible to it, soft-deleted, selectively shared (its private notes whose readers
name other agents), legacy (no access fields) and malformed; the notes it wrote per
week; its consolidation runs and what they merged away. For the shared scope: how
much of it each owner wrote.

Built to scale: each collection is read once, a page at a time, and only counts are
kept, never the notes; ``progress(done, total)`` reports the points read. Each note
is judged by its collection service's rules (``visible_because``, ``fits_listing``)
for the agents it could concern. Reading only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, Field

from amem_tui.engine.agents import label
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.errors import AmemError
from amem_tui.engine.formats import mem0
from amem_tui.engine.models import EVERYONE, SHARED, ConsolidationRun, MemoryNote
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.store.base import SCAN_PAGE

#: Progress of a build: (points read, points to read).
Progress = Callable[[int, int], None]
#: How often (in points) progress is reported.
PROGRESS_EVERY = 1000
#: Points read per store call while someone watches the progress: a store call may
#: hold the interpreter lock for its whole page (Qdrant Edge does), so small pages
#: keep an app's screen lively. Unwatched (the CLI), each backend's own page is used.
LIVELY_PAGE = 512
#: Where a note without a readable creation time is counted.
UNDATED = "undated"
#: Run states that changed nothing.
ABANDONED = ("abandoned", "planned", "planning")


#: Each agent's figures, as CLI tables and the overview name them: (short title, field
#: of :class:`AgentStats`).
AGENT_FIGURES = (
    ("private", "private"),
    ("shared by", "shared_by"),
    ("visible", "visible"),
    ("deleted", "soft_deleted"),
    ("selective", "selectively_shared"),
    ("legacy", "legacy"),
    ("malformed", "malformed"),
    ("runs", "runs"),
    ("merges", "merges"),
    ("saved", "merged_away"),
)


class AgentStats(BaseModel):
    """The figures of one agent (one user and agent pair in a mem0 collection)."""

    agent: str
    mode: Literal["A", "B"]
    collection: str
    format: str = "amem"
    user: str | None = None
    namespace: str | None = None
    #: How people name it (``alice/dev`` in a mem0 collection).
    label: str = ""
    #: Active notes private to the agent (in Mode B: every active note of its collection).
    private: int = 0
    #: Active shared notes it wrote.
    shared_by: int = 0
    #: Active notes in its view (private, shared, and shared with it through readers).
    visible: int = 0
    #: Active notes others shared with it alone (its readers name it).
    shared_with_it: int = 0
    #: Soft-deleted notes it wrote (private or shared).
    soft_deleted: int = 0
    #: Its active private notes whose readers name other agents.
    selectively_shared: int = 0
    #: Notes it wrote without the access fields (owner, readers, writers).
    legacy: int = 0
    #: Malformed points it wrote (by their owner, else their agent_id).
    malformed: int = 0
    #: Notes it wrote (private or shared, soft-deleted included) by week (Monday, ISO date).
    weeks: dict[str, int] = Field(default_factory=dict)
    #: Consolidation runs (dry runs and undo runs left out), merges and notes merged away.
    runs: int = 0
    merges: int = 0
    merged_away: int = 0
    #: Undo runs, and merges of its runs that were undone.
    undo_runs: int = 0
    undone_merges: int = 0


class CollectionStats(BaseModel):
    """The figures of one collection."""

    name: str
    format: str
    points: int = 0
    malformed: int = 0
    #: Malformed points that name no agent of the configuration or the store.
    unattributed: int = 0


class StoreStats(BaseModel):
    """Everything ``stats`` reports."""

    agents: list[AgentStats] = Field(default_factory=list)
    collections: list[CollectionStats] = Field(default_factory=list)
    #: Active shared notes by owner (the shared scope of the Mode A collection).
    shared_owners: dict[str, int] = Field(default_factory=dict)
    #: Every week any agent wrote in, oldest first.
    weeks: list[str] = Field(default_factory=list)
    #: Why consolidation history could not be read (None: it was).
    history_error: str | None = None

    @property
    def shared_total(self) -> int:
        """How many active notes the shared scope holds."""
        return sum(self.shared_owners.values())

    def shared_share(self) -> dict[str, float]:
        """Each owner's part of the shared scope, from 0 to 1, largest first."""
        total = self.shared_total or 1
        ranked = sorted(self.shared_owners.items(), key=lambda item: (-item[1], item[0]))
        return {owner: count / total for owner, count in ranked}


def week_of(note: MemoryNote) -> str:
    """The Monday (ISO date) of the week a note was written, or :data:`UNDATED`."""
    created = note.created_at()
    if created is None:
        return UNDATED
    return (created.date() - timedelta(days=created.weekday())).isoformat()


@dataclass
class _Collection:
    """One collection being read: its service, its agents and who could each note concern."""

    service: CollectionService
    agents: list[tuple[AgentScope, AgentStats]] = field(default_factory=list)

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
        shared = note.agent_id == SHARED
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


def _count(
    entry: _Collection, note: MemoryNote, collection: CollectionStats, shares: Counter[str]
) -> None:
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
            if because == "reader":
                figures.shared_with_it += 1
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


def _consolidation(figures: dict[str, list[AgentStats]], runs: Sequence[ConsolidationRun]) -> None:
    for run in runs:
        if run.dry_run or run.status in ABANDONED:
            continue
        for agent in figures.get(run.agent, []):
            if run.trigger == "undo" or run.undoes:
                agent.undo_runs += 1
                continue
            agent.runs += 1
            for merge in run.merges:
                if merge.status != "done":
                    continue
                if merge.undone:
                    agent.undone_merges += 1
                    continue
                agent.merges += 1
                agent.merged_away += len(merge.dropped)


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
    out = StoreStats()
    entries: dict[str, _Collection] = {}
    by_agent: dict[str, list[AgentStats]] = {}
    for scope in scopes:
        service = service_of(scope.collection)
        figures = AgentStats(
            agent=scope.agent,
            mode=scope.mode,
            collection=scope.collection,
            format=service.format,
            user=scope.user,
            namespace=scope.namespace,
            label=label(scope),
        )
        out.agents.append(figures)
        by_agent.setdefault(scope.agent, []).append(figures)
        if service.exists():
            entries.setdefault(service.real_name, _Collection(service)).agents.append(
                (scope, figures)
            )
    sizes = {name: entry.service.store.count(name) for name, entry in entries.items()}
    page = LIVELY_PAGE if progress is not None else SCAN_PAGE
    total, done = sum(sizes.values()), 0
    shares: Counter[str] = Counter()
    for name, entry in entries.items():
        collection = CollectionStats(name=name, format=entry.service.format, points=sizes[name])
        out.collections.append(collection)
        service = entry.service
        for point in service.store.scan(service.name, page=page):
            _count(entry, service.note(point.id, point.payload), collection, shares)
            done += 1
            if progress is not None and done % PROGRESS_EVERY == 0:
                progress(done, total)
    if progress is not None:
        progress(total, total)
    out.shared_owners = dict(sorted(shares.items(), key=lambda item: (-item[1], item[0])))
    for figures in out.agents:
        figures.weeks = dict(sorted(figures.weeks.items()))
    out.weeks = sorted({w for a in out.agents for w in a.weeks if w != UNDATED})
    try:
        _consolidation(by_agent, history())
    except AmemError as exc:
        out.history_error = str(exc)
    return out
