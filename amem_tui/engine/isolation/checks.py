"""Running memory checks: each check searches exactly as its agent searches (the agent's
own view of the store, the system's own ranking, hidden matches included) and is judged
on what came back: a verdict per check, with what was found, and the exit status a CI
job reports (0: every check holds, 1: one does not; a bad file raises
``CheckFileError``, exit status 2).
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from pydantic import BaseModel, Field

from amem_tui.engine.agent_view import AgentView
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.errors import AmemError
from amem_tui.engine.isolation.checkfile import CheckFile, MemoryCheck
from amem_tui.engine.search_results import HiddenMatch, SearchHit, SearchResult

#: Characters of a note's text a verdict shows.
PREVIEW = 120

#: An agent's view by name (and mem0 user): the engine's ``named_agent``.
ViewOf = Callable[..., AgentView]
#: A collection's service by name (where a hidden match's text is read).
CollectionOf = Callable[[str], CollectionService]
#: The text of a note a hidden match names: (collection, id) -> content (None: gone).
ContentOf = Callable[[str, str], str | None]


class FoundHit(BaseModel):
    """A hit of a check's search."""

    rank: int
    id: str
    content: str
    score: float
    via: str


class FoundHidden(BaseModel):
    """A hidden match of a check's search, and why it is hidden."""

    id: str
    kind: str
    reason: str
    content: str


class CheckVerdict(BaseModel):
    """Whether one check holds, what failed, and what the search found."""

    number: int
    line: int
    name: str
    agent: str
    query: str
    passed: bool
    failures: list[str] = Field(default_factory=list)
    hits: list[FoundHit] = Field(default_factory=list)
    hidden: list[FoundHidden] = Field(default_factory=list)
    ranking: str = ""
    notice: str | None = None


class CheckRun(BaseModel):
    """The verdicts of a checks file."""

    source: str
    verdicts: list[CheckVerdict]

    @property
    def passed(self) -> bool:
        """True when every check holds."""
        return all(v.passed for v in self.verdicts)

    @property
    def failing(self) -> list[CheckVerdict]:
        """The checks that do not hold."""
        return [v for v in self.verdicts if not v.passed]

    @property
    def exit_code(self) -> int:
        """0 when every check holds, else 1 (what ``check`` exits with)."""
        return 0 if self.passed else 1


def preview(text: str) -> str:
    """A note's text on one line, cut to ``PREVIEW`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= PREVIEW else flat[: PREVIEW - 1] + "…"


def _view(view_of: ViewOf, check: MemoryCheck) -> AgentView:
    return view_of(check.agent, user=check.user)


def validate(file: CheckFile, known: Collection[str], view_of: ViewOf) -> None:
    """Raise ``CheckFileError`` (at the key's line) for a check whose agent
    no configuration or store names, or whose view cannot be made."""
    for check in file.checks:
        if check.agent not in known:
            names = ", ".join(sorted(known)) or "none"
            raise check.error(
                file.source, "agent", f"unknown agent '{check.agent}' (known: {names})"
            )
        try:
            _view(view_of, check)
        except AmemError as exc:
            key = "user" if check.user is not None or "user" in exc.message else "agent"
            raise check.error(file.source, key, exc.message) from None


def run_checks(file: CheckFile, view_of: ViewOf, collection_of: CollectionOf) -> CheckRun:
    """Search as each check's agent, and judge each check (see ``validate`` first)."""

    def content_of(collection: str, note_id: str) -> str | None:
        note = collection_of(collection).fetch([note_id]).get(note_id)
        return note.content if note is not None and isinstance(note.content, str) else None

    verdicts = []
    for check in file.checks:
        # What the agent's own search returns (memory_search's 5, the plugin's topK), or
        # as many as ``top`` names where it names more, as the agent's call would ask:
        # the limit is part of the ranking, so a wider search could rank other notes first.
        view = _view(view_of, check)
        result = _search(view, check, check.top if check.top > view.search_limit() else None)
        verdicts.append(judge(check, result, content_of))
    return CheckRun(source=file.source, verdicts=verdicts)


def _search(view: AgentView, check: MemoryCheck, limit: int | None) -> SearchResult:
    if check.subject is not None:
        # The subject filter is openclaw-amem's memory_search argument (engine search's
        # ``subject=``); a view that does not take it yet is an error, never ignored.
        search: Callable[..., SearchResult] = view.search
        try:
            return search(check.query, limit=limit, hidden=True, subject=check.subject)
        except TypeError as exc:
            if "subject" not in str(exc):
                raise
            raise AmemError(
                f"check {check.number}: subject is not supported by this engine's search"
            ) from None
    return view.search(check.query, limit=limit, hidden=True)


def _holds(item: str, note_id: str, content: str | None) -> bool:
    """True when ``item`` names this note: its id, or words of its text."""
    if item == note_id:
        return True
    return content is not None and item.casefold() in content.casefold()


def _reason_holds(wanted: str, hidden: HiddenMatch) -> bool:
    word = wanted.strip().casefold().replace("-", "_").replace(" ", "_")
    return word == hidden.kind or wanted.strip().casefold() in hidden.reason.casefold()


def judge(check: MemoryCheck, result: SearchResult, content_of: ContentOf) -> CheckVerdict:
    """The verdict of one check on its search's result."""
    hits = result.hits
    failures: list[str] = []
    for item in check.expect:
        rank = _rank(item, hits)
        if rank is None:
            failures.append(f"expect {item!r}: not among the hits")
        elif rank > check.top:
            failures.append(f"expect {item!r}: at rank {rank}, not in the top {check.top}")
    for item in check.forbid:
        rank = _rank(item, hits)
        if rank is not None:
            failures.append(
                f"forbid {item!r}: found at rank {rank} (note {hits[rank - 1].note.id})"
            )
    texts = {h.id: content_of(h.collection, h.id) for h in result.hidden}
    for item, reason in check.hidden_because.items():
        rank = _rank(item, hits)
        found = [h for h in result.hidden if _holds(item, h.id, texts[h.id])]
        if rank is not None:
            failures.append(
                f"hidden_because {item!r}: it is not hidden, the agent finds it (rank {rank})"
            )
        elif not found:
            failures.append(f"hidden_because {item!r}: not among the hidden matches")
        elif not any(_reason_holds(reason, h) for h in found):
            why = "; ".join(f"{h.kind}: {h.reason}" for h in found)
            failures.append(f"hidden_because {item!r}: hidden for another reason ({why})")
    return CheckVerdict(
        number=check.number,
        line=check.line,
        name=check.name,
        agent=check.agent,
        query=check.query,
        passed=not failures,
        failures=failures,
        hits=[
            FoundHit(
                rank=rank,
                id=hit.note.id,
                content=preview(hit.note.content if isinstance(hit.note.content, str) else ""),
                score=hit.score,
                via=hit.via,
            )
            for rank, hit in enumerate(hits, 1)
        ],
        hidden=[
            FoundHidden(id=h.id, kind=h.kind, reason=h.reason, content=preview(texts[h.id] or ""))
            for h in result.hidden
        ],
        ranking=result.ranking,
        notice=result.notice,
    )


def _rank(item: str, hits: list[SearchHit]) -> int | None:
    for rank, hit in enumerate(hits, 1):
        content = hit.note.content if isinstance(hit.note.content, str) else None
        if _holds(item, hit.note.id, content):
            return rank
    return None
