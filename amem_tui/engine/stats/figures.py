"""What ``stats`` reports: each agent's figures, each collection's, the shared scope by
owner and the notes written per week; and how a report is laid out before it is read.

Two builds fill it: ``counts`` asks the store for filtered counts and facets (no
note is read), ``scan`` reads every note and judges it by the rules (the
reference, and the only way to find malformed points). ``pending`` names the figures
a report does not hold yet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field, computed_field

from amem_tui.engine.agents import label
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.models import SHARED, MemoryNote, parse_time
from amem_tui.engine.run_records import ConsolidationRun
from amem_tui.engine.scope import AgentScope

#: Progress of a build: (points read, points to read).
Progress = Callable[[int, int], None]
#: Where a note without a readable creation time is counted.
UNDATED = "undated"
#: Run states that changed nothing.
ABANDONED = ("abandoned", "planned", "planning")
#: Figures only a read of every note gives (``pending`` until then).
SCAN_ONLY = ("malformed",)
#: Figures of the consolidation history (``pending`` in a report made without it).
HISTORY_FIGURES = ("runs", "merges", "merged_away")
#: What gets recalled (``pending`` until the full count).
RECALL_FIGURES = ("never_recalled", "most_recalled")
#: Figures a quick count leaves for later (``pending`` until the full count).
COUNTED_LATER = (
    "get_only",
    "soft_deleted",
    "legacy",
    "selectively_shared",
    "weeks",
    *RECALL_FIGURES,
)
#: How many of its most recalled notes each agent's figures hold.
MOST_RECALLED = 5


#: Each agent's figures, as CLI tables and the overview name them: (short title, field
#: of ``AgentStats``).
AGENT_FIGURES = (
    ("private", "private"),
    ("shared by", "shared_by"),
    ("visible", "visible"),
    ("get only", "get_only"),
    ("deleted", "soft_deleted"),
    ("selective", "selectively_shared"),
    ("legacy", "legacy"),
    ("malformed", "malformed"),
    ("runs", "runs"),
    ("merges", "merges"),
    ("saved", "merged_away"),
)


class RecalledNote(BaseModel):
    """A note searches returned, as ``stats`` lists the most recalled: openclaw-amem counts
    every search that returned it, by any agent (a shared note's count is everyone's)."""

    id: str
    content: str = ""
    #: How many searches returned it (openclaw-amem's ``retrieval_count``).
    retrieval_count: int
    #: When a search last returned it (``last_accessed``; "" when not stored).
    last_accessed: str = ""
    #: ``shared``, or the agent whose private note it is.
    agent_id: str | None = None
    #: Who wrote it (``owner``, else its agent id).
    owner: str | None = None

    @classmethod
    def from_payload(cls, point_id: str, payload: dict[str, Any]) -> RecalledNote:
        """The note as the store holds it (only the fields named above are read)."""

        def text(key: str) -> str | None:
            value = payload.get(key)
            return value if isinstance(value, str) else None

        count = payload.get("retrieval_count")
        agent = text("agent_id")
        return cls(
            id=point_id,
            content=text("content") or "",
            retrieval_count=count if isinstance(count, int) and not isinstance(count, bool) else 0,
            last_accessed=text("last_accessed") or "",
            agent_id=agent,
            owner=text("owner") or (agent if agent != SHARED else None),
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
    #: Active notes its searches, listings and counts hold (private and shared; Mode B:
    #: its collection), as openclaw-amem's agent filter selects them.
    visible: int = 0
    #: Active notes it reads only by id: outside its searches, yet the read rule lets it
    #: in (readers name it or hold "*", or it owns them). Never part of ``visible``.
    get_only: int = 0
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
    #: Notes it sees (``visible``) that no search ever returned (``retrieval_count`` 0 or
    #: missing); None where the format keeps no recall counts (mem0).
    never_recalled: int | None = 0
    #: The notes it sees that searches returned most, most first (at most
    #: ``MOST_RECALLED``; ties at the cut fall as the store orders them).
    most_recalled: list[RecalledNote] = Field(default_factory=list)


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
    #: Figures not in this report yet (they read 0): ``SCAN_ONLY`` until every
    #: note has been read. Until then ``visible`` and the shared scope also count
    #: malformed points the rules would leave out.
    pending: list[str] = Field(default_factory=list)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def shared_total(self) -> int:
        """How many active notes the shared scope holds."""
        return sum(self.shared_owners.values())

    @computed_field  # type: ignore[prop-decorator]
    @property
    def shared_share(self) -> dict[str, float]:
        """Each owner's part of the shared scope, from 0 to 1 (4 decimals), largest first."""
        total = self.shared_total or 1
        ranked = sorted(self.shared_owners.items(), key=lambda item: (-item[1], item[0]))
        return {owner: round(count / total, 4) for owner, count in ranked}


#: One collection of a report: its service and the agents that read it, with their figures.
Readers = list[tuple[AgentScope, AgentStats]]


def layout(
    scopes: Sequence[AgentScope], service_of: Callable[[str], CollectionService]
) -> tuple[StoreStats, dict[str, tuple[CollectionService, Readers]], dict[str, list[AgentStats]]]:
    """An empty report with a row per agent; the existing collections with their readers,
    by real name; each agent's rows by agent id (for the consolidation history)."""
    out = StoreStats()
    entries: dict[str, tuple[CollectionService, Readers]] = {}
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
            never_recalled=None if service.format == "mem0" else 0,
        )
        out.agents.append(figures)
        by_agent.setdefault(scope.agent, []).append(figures)
        if service.exists():
            entries.setdefault(service.real_name, (service, []))[1].append((scope, figures))
    return out, entries, by_agent


def consolidation(figures: dict[str, list[AgentStats]], runs: Sequence[ConsolidationRun]) -> None:
    """Add each agent's consolidation runs, merges and notes merged away."""
    for run in runs:
        # A conflict decision (or its undo) merges nothing: it is no consolidation run.
        if run.dry_run or run.status in ABANDONED or run.settles is not None:
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


def week_of(note: MemoryNote) -> str:
    """The Monday (ISO date, in UTC) of the week a note was written, or ``UNDATED``."""
    created = note.created_at()
    if created is None:
        return UNDATED
    return monday(created if created.tzinfo is None else created.astimezone(UTC))


def written_week(payload: dict[str, Any]) -> tuple[str | None, str]:
    """Who wrote a stored payload (``effective_owner``) and its week (``week_of``),
    from the few fields they need."""
    owner, agent = payload.get("owner"), payload.get("agent_id")
    if not (isinstance(owner, str) and owner):
        owner = agent if isinstance(agent, str) and agent and agent != SHARED else None
    stamp = payload.get("timestamp")
    if not (isinstance(stamp, str) and stamp):
        stamp = next(
            (v for k in ("createdAt", "created_at") if isinstance(v := payload.get(k), str) and v),
            None,
        )
    created = parse_time(stamp)
    if created is None:
        return owner, UNDATED
    return owner, monday(created if created.tzinfo is None else created.astimezone(UTC))


def monday(moment: datetime) -> str:
    """The Monday (ISO date) of a time's week."""
    return (moment.date() - timedelta(days=moment.weekday())).isoformat()


def finish(out: StoreStats) -> None:
    """Order each agent's weeks, and collect every week any agent wrote in."""
    for figures in out.agents:
        figures.weeks = dict(sorted(figures.weeks.items()))
    out.weeks = sorted({w for a in out.agents for w in a.weeks if w != UNDATED})
