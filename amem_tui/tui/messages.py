"""Messages that workers post back to the widgets and screens (data only, no store handles).

Every message is a dataclass: its fields are its constructor, typed. Engine types are
imported for the type checker only, so importing this module loads no pydantic model.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from textual.message import Message

if TYPE_CHECKING:
    from amem_tui.engine import (
        AgentScope,
        ConsolidationRun,
        HiddenMatch,
        MemoryNote,
        NotePage,
        SearchHit,
        SearchResult,
        StoreStats,
    )
    from amem_tui.engine.for_apps import Activity, PaneUpdate, Probe


@dataclass(frozen=True)
class ActivityEntry:
    """One line of the activity log: when (local time), as which agent, what happened."""

    at: str
    agent: str
    activity: Activity


#: The two note panes: the agent's own notes and the shared scope.
PaneName = Literal["private", "shared"]


# ------------------------------------------------------------------ the agent
@dataclass
class ScopeData:
    """Everything the panes show for one agent, loaded together so they switch at once."""

    scope: AgentScope
    private: NotePage
    shared: NotePage | None
    history: list[ConsolidationRun] | None
    counts: dict[str, int]
    collection_exists: bool
    history_error: str | None = None
    #: True for a mem0 collection: one namespace, no shared scope, never written.
    mem0: bool = False
    #: Why the collection cannot be written (a mem0 collection), if it cannot.
    collection_refusal: str | None = None
    #: Soft-deleted notes among each listing's total (while they are shown).
    deleted: dict[str, int] = field(default_factory=dict)
    #: Said once the agent is shown (e.g. why another scope than the one asked for).
    notice: str | None = None
    #: The agent has a shared scope to show (Mode A, not mem0): the Shared pane lists it.
    shares: bool = False
    #: The store is the default folder (no --url, no --store) and holds no notes.
    empty_default_store: bool = False
    #: How searches rank when not by meaning as the agent's own (``approximate``,
    #: ``words only``); empty when exact.
    search_note: str = ""


@dataclass
class ScopeLoaded(Message):
    """The panes' data for an agent is ready; ``select`` names the note to select after."""

    generation: int
    data: ScopeData
    select: str | None = None


@dataclass
class AgentsLoaded(Message):
    """The agents from the configuration and the store."""

    agents: list[AgentScope]


# --------------------------------------------------------------------- search
@dataclass
class SearchDone(Message):
    """A search finished (possibly for an older query: check ``generation`` and ``query``).

    ``drawn`` is set once the frame with its answer is on screen, or once the answer is
    dropped: the search's thread waits for it before handing back its pages."""

    generation: int
    query: str
    result: SearchResult
    drawn: threading.Event = field(default_factory=threading.Event)


@dataclass
class SearchAbandoned(Message):
    """A search stopped early because its query was typed over (nothing to show)."""

    generation: int
    query: str


@dataclass
class SearchFailed(Message):
    """A search raised; the error itself is reported by the worker-error handler."""

    generation: int
    query: str
    error: str


@dataclass
class HiddenFound(Message):
    """The hidden matches of a search, found after its hits were shown."""

    generation: int
    query: str
    hidden: list[HiddenMatch]
    notice: str | None


# ----------------------------------------------------------------------- note
@dataclass
class NoteData:
    """A note for the detail view, fit to show the agent: links and conflicts to notes it
    may not read are left out and only counted (``note.model_extra``:
    ``unreadable_links``, ``unreadable_conflicts``)."""

    note: MemoryNote
    links: list[tuple[str, MemoryNote | None]]
    conflicts: list[tuple[str, MemoryNote | None]]
    hit: SearchHit | None = None
    writable: bool = False
    notes: list[str] = field(default_factory=list)
    #: Why the agent may not modify the note (the engine's refusal), when it may not.
    write_refusal: str | None = None

    @classmethod
    def missing(cls, note_id: str, reason: str) -> NoteData:
        """What the detail shows for a note that is gone or not visible: its id and why."""
        from amem_tui.engine import MemoryNote

        return cls(note=MemoryNote(id=note_id, content=""), links=[], conflicts=[], notes=[reason])


@dataclass
class NoteLoaded(Message):
    """The selected note is loaded."""

    generation: int
    data: NoteData


# -------------------------------------------------------------------- outcome
@dataclass
class ActionDone(Message):
    """A write finished: say so, reload what changed and select ``select`` if given
    (``run``: the consolidation run to select in the history pane)."""

    message: str
    select: str | None = None
    run: str | None = None
    #: What happened, for the activity log (the app's own writes are logged too).
    activity: Activity | None = None


@dataclass
class BulkDone(Message):
    """A bulk write finished: say what it did and left alone, unmark the notes it wrote
    in ``pane``, and reload."""

    message: str
    pane: PaneName
    done: list[str]
    #: (note id, why) of every marked note not written.
    left: list[tuple[str, str]]
    activities: list[Activity] = field(default_factory=list)


@dataclass(frozen=True)
class JumpTarget:
    """A note to show, and the agents (by name) the row it came from names, best first."""

    note_id: str
    agents: tuple[str, ...] = ()
    #: The collection the row names, if it names one (a Mode B agent's, say).
    collection: str | None = None
    #: Exactly these agents first (a comparison's sides: a mem0 user and agent included).
    scopes: tuple[AgentScope, ...] = ()
    #: Show it as the agents the row names, before the current one (a leak is seen as
    #: the agent it reaches).
    as_named: bool = False


@dataclass(frozen=True)
class JumpPlace:
    """Where a note is shown: as ``scope``; ``listed`` when its panes list it (else the
    agent reads it only by id, and the detail view shows it)."""

    scope: AgentScope
    listed: bool


@dataclass
class JumpFound(Message):
    """Where to show a note another screen chose (None: no agent may read it)."""

    note_id: str
    place: JumpPlace | None


@dataclass
class ActionRefused(Message):
    """The engine refused a request: show the rule, never a traceback.

    ``store_unavailable`` marks a store that did not answer (the screen shows its banner).
    """

    title: str
    message: str
    store_unavailable: bool = False


# -------------------------------------------------------------- consolidation
@dataclass
class ConsolidationProgress(Message):
    """Progress of an applied consolidation; a burst of these costs one repaint."""

    done: int
    total: int

    def can_replace(self, message: Message) -> bool:
        """A newer count supersedes this one while both wait in the queue."""
        return isinstance(message, ConsolidationProgress)


@dataclass
class ConsolidationFinished(Message):
    """An applied consolidation ended (done or failed): the progress bar goes."""


# ------------------------------------------------------- compare and overview
@dataclass
class ReadProgress(Message):
    """How far a long read of the store has come (points read of points to read).

    A burst of these costs one repaint: a newer count replaces an older one waiting.
    """

    done: int
    total: int

    def can_replace(self, message: Message) -> bool:
        """A newer count supersedes this one while both wait in the queue."""
        return isinstance(message, ReadProgress)


@dataclass
class StatsReady(Message):
    """The overview's figures are built (a later report replaces one not yet drawn)."""

    stats: StoreStats

    def can_replace(self, message: Message) -> bool:
        """A newer report holds all an older one does."""
        return isinstance(message, StatsReady)


# --------------------------------------------------------------------- follow
@dataclass
class FollowUpdate(Message):
    """A follow-mode poll finished: what each pane must change, in words too.

    ``load`` is the main screen's load count when the poll started: an update for
    panes that were reloaded (or switched) meanwhile is dropped.
    """

    load: int
    agent: str
    probe: Probe
    panes: dict[PaneName, PaneUpdate]
    #: Each pane's total, as the listing counts it now.
    totals: dict[PaneName, int]
    #: The header's counts (private, shared, visible).
    counts: dict[str, int]
    activities: list[Activity]
    #: The agent's consolidation runs, when the run log changed.
    runs: list[ConsolidationRun] | None = None
    #: True after an outage: the panes are reloaded as a whole.
    resync: bool = False
    #: How long the poll took (the next one waits at least twice that).
    seconds: float = 0.0
    #: Set by the follow bar: the panes were reloaded or switched since the poll began.
    stale: bool = False


@dataclass
class Watched:
    """What follow mode compares the store with: the notes each pane lists (by id), the
    ids worth a closer look (the subject, the rows on screen and around them) and the
    consolidation runs shown."""

    shown: dict[PaneName, dict[str, MemoryNote]]
    watch: list[str]
    runs: list[ConsolidationRun]


@dataclass
class FollowFailed(Message):
    """A follow-mode poll failed (the store did not answer, or worse)."""

    message: str
    store_unavailable: bool
