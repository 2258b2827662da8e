"""Messages that workers post back to the screen (data only, no store handles)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from textual.message import Message

from amem_tui.engine.models import HiddenMatch, MemoryNote, NotePage, SearchHit, SearchResult
from amem_tui.engine.scope import AgentScope


@dataclass
class ScopeData:
    """Everything the panes show for one agent, loaded together so they switch at once."""

    scope: AgentScope
    private: NotePage
    shared: NotePage | None
    history: list[Any] | None
    counts: dict[str, int]
    collection_exists: bool
    history_error: str | None = None
    next_run: Any = None  # the nightly consolidation's next start (datetime), if scheduled


class ScopeLoaded(Message):
    """The panes' data for an agent is ready."""

    def __init__(self, generation: int, data: ScopeData) -> None:
        super().__init__()
        self.generation = generation
        self.data = data


class PageLoaded(Message):
    """One more page of a listing."""

    def __init__(self, generation: int, which: str, page: NotePage) -> None:
        super().__init__()
        self.generation = generation
        self.which = which
        self.page = page


class AgentsLoaded(Message):
    """The agents from the configuration and the store."""

    def __init__(self, agents: list[AgentScope]) -> None:
        super().__init__()
        self.agents = agents


class SearchDone(Message):
    """A search finished (possibly for an older query: check ``query``)."""

    def __init__(self, generation: int, query: str, result: SearchResult) -> None:
        super().__init__()
        self.generation = generation
        self.query = query
        self.result = result


class HiddenFound(Message):
    """The hidden matches of a search, found after its hits were shown."""

    def __init__(
        self, generation: int, query: str, hidden: list[HiddenMatch], notice: str | None
    ) -> None:
        super().__init__()
        self.generation = generation
        self.query = query
        self.hidden = hidden
        self.notice = notice


@dataclass
class NoteData:
    """A note for the detail view, its links with the read rule applied."""

    note: MemoryNote
    links: list[tuple[str, MemoryNote | None]]
    conflicts: list[tuple[str, MemoryNote | None]]
    hit: SearchHit | None = None
    writable: bool = False
    notes: list[str] = field(default_factory=list)


class NoteLoaded(Message):
    """The selected note is loaded."""

    def __init__(self, generation: int, data: NoteData) -> None:
        super().__init__()
        self.generation = generation
        self.data = data


class ActionDone(Message):
    """A write finished: say so, and reload what changed."""

    def __init__(self, message: str, select: str | None = None) -> None:
        super().__init__()
        self.message = message
        self.select = select


class ActionRefused(Message):
    """The engine refused a request: show the rule, never a traceback."""

    def __init__(self, title: str, message: str) -> None:
        super().__init__()
        self.title = title
        self.message = message


class ModelState(Message):
    """The embedding model finished loading, or failed to."""

    def __init__(self, ready: bool, detail: str = "") -> None:
        super().__init__()
        self.ready = ready
        self.detail = detail


class PreviewReady(Message):
    """A consolidation dry run finished."""

    def __init__(self, run: Any) -> None:
        super().__init__()
        self.run = run


class ConsolidationProgress(Message):
    """Progress of an applied consolidation."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done = done
        self.total = total


class AuditReady(Message):
    """The audit report of the store is built."""

    def __init__(self, report: Any) -> None:
        super().__init__()
        self.report = report
