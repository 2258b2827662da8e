"""Two agents' views side by side: what one sees and the other does not, and why.

Without a query the notes of a listing (``visible``, ``private`` or ``shared``) fall
into three groups: seen by A only, by B only, and by both. With a query both agents
search at once, and each hit says whether the other agent gets it too.

Every note carries each side's access: whether it is in that side's view, the rule of
its collection's format that lets it in (``private``, ``shared``, ``reader``,
``collection``) or keeps it out (the hidden reason), whether the side may read it by
id, and one sentence. The rules are the collection service's
(``CollectionService.visible_because``, ``fits_listing``,
``can_read``, ``hidden_reason``): this
module only sorts notes into groups. Reading only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from amem_tui.engine.agents import label
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.errors import InvalidInput
from amem_tui.engine.models import SHARED, MemoryNote
from amem_tui.engine.reading import list_filter
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.search_results import HiddenKind, SearchHit, SearchResult, VisibleBecause
from amem_tui.engine.store.base import SCAN_PAGE
from amem_tui.engine.store.filters import Filter

#: Which listing of each agent is compared.
CompareScope = Literal["visible", "private", "shared"]
COMPARE_SCOPES: tuple[CompareScope, ...] = ("visible", "private", "shared")
#: The three groups, in the order they are shown.
GroupName = Literal["a_only", "b_only", "both"]
GROUP_NAMES: tuple[GroupName, ...] = ("a_only", "b_only", "both")
#: Characters of content a compared note keeps (a page is for reading, not export).
CONTENT_CHARS = 400
#: Points read per store call while someone watches the progress (see
#: ``amem_tui.engine.stats.LIVELY_PAGE``); unwatched, each backend's own page.
LIVELY_PAGE = 512
#: How often (in points) progress is reported.
PROGRESS_EVERY = 1000

#: Notes a group lists when no limit is named.
GROUP_PAGE = 20
#: Runs one agent's search (the facade's ``search``, bound to the query and limit).
SearchAs = Callable[[AgentScope], SearchResult]
#: Progress of a comparison: (points read, points to read).
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Side:
    """One agent of a comparison and the service of the collection it reads."""

    scope: AgentScope
    service: CollectionService


class ComparedAgent(BaseModel):
    """Who one side is: agent, mode, collection (and the mem0 user and namespace)."""

    agent: str
    mode: Literal["A", "B"]
    collection: str
    format: str
    user: str | None = None
    namespace: str | None = None
    #: How people name the side (see ``label``).
    label: str = ""


class SideAccess(BaseModel):
    """Whether one side sees a note, by which rule, and why (or why not)."""

    agent: str
    #: In this side's compared listing.
    listed: bool
    #: The search rule that puts the note in the side's view (None: not in its view).
    because: VisibleBecause | None = None
    #: Why the note is not in the side's view (None: it is).
    kind: HiddenKind | None = None
    #: The read rule for fetching by id and following links.
    readable: bool = False
    #: One sentence: the rule that lets the side in, or the reason it is kept out.
    reason: str = ""


class ComparedNote(BaseModel):
    """A note with the access fields that decide who sees it, and each side's access."""

    id: str
    collection: str
    format: str
    content: str
    agent_id: str | None
    owner: str | None
    readers: list[str]
    writers: list[str]
    active: bool
    user_id: str | None = None
    a: SideAccess
    b: SideAccess


class NoteGroup(BaseModel):
    """One group: how many notes it holds and the first page of them."""

    total: int = 0
    notes: list[ComparedNote] = Field(default_factory=list)


class ComparedHit(BaseModel):
    """One agent's hit, and whether the other agent gets the same note."""

    rank: int
    score: float
    similarity: float | None = None
    #: Only filler of the top-k: no query word matched and the cosine is low.
    weak: bool = False
    note: ComparedNote
    #: The other agent's rank for this note (None: not among its results).
    other_rank: int | None = None
    #: Why the other agent does or does not get this note.
    other_reason: str = ""


class SideBySide(BaseModel):
    """Both agents' ranked results for one query, and the limit each search used."""

    query: str
    a_limit: int | None = None
    b_limit: int | None = None
    a_hits: list[ComparedHit] = Field(default_factory=list)
    b_hits: list[ComparedHit] = Field(default_factory=list)
    notices: list[str] = Field(default_factory=list)

    def top(self) -> str:
        """How many hits each side asked for: ``5``, or ``5 and 8`` when the agents'
        own searches differ (a mem0 plugin's ``topK``)."""
        if self.a_limit == self.b_limit:
            return str(self.a_limit)
        return f"{self.a_limit} and {self.b_limit}"


class Comparison(BaseModel):
    """Two agents' views: three groups of notes, or (with a query) two ranked lists."""

    a: ComparedAgent
    b: ComparedAgent
    scope: CompareScope
    #: Notes per group; with a query, hits per agent (None: as many as each agent's own
    #: search returns, ``SideBySide.a_limit`` and ``b_limit``).
    limit: int | None
    groups: dict[GroupName, NoteGroup] | None = None
    search: SideBySide | None = None


# ------------------------------------------------------------------- access
def agent_of(side: Side) -> ComparedAgent:
    """The side as the comparison names it."""
    scope = side.scope
    return ComparedAgent(
        agent=scope.agent,
        mode=scope.mode,
        collection=scope.collection,
        format=side.service.format,
        user=scope.user,
        namespace=scope.namespace,
        label=label(scope),
    )


def in_listing(side: Side, service: CollectionService, note: MemoryNote, which: str) -> bool:
    """True when ``note`` (in ``service``'s collection) is in the side's ``which`` listing."""
    if service.real_name != side.service.real_name or not note.active:
        return False
    if which == "visible":
        return service.visible_because(side.scope, note) is not None
    if which == "shared" and not side.scope.has_shared_scope:
        return False
    return service.fits_listing(side.scope, note, which)


def _granted(side: Side, service: CollectionService, because: VisibleBecause) -> str:
    scope = side.scope
    if service.format == "mem0":
        return f"namespace: its user_id is '{scope.namespace}'"
    if because == "collection":
        return f"Mode B: all of its own collection '{scope.collection}'"
    if because == "private":
        return f"private: its agent_id is '{scope.agent}'"
    return f"shared: agent_id '{SHARED}' (every Mode A agent)"


def access(
    side: Side,
    service: CollectionService,
    note: MemoryNote,
    which: str,
    dedicated: Mapping[str, str],
) -> SideAccess:
    """One side's access to ``note`` (stored in ``service``'s collection)."""
    scope = side.scope
    own = service.real_name == side.service.real_name
    because = service.visible_because(scope, note) if own else None
    readable = own and service.can_read(scope, note)
    listed = in_listing(side, service, note, which)
    if because is not None:
        reason = _granted(side, service, because)
        if not listed:  # in its view, but not in the listing compared
            reason += f"; not among its {which} notes"
        return SideAccess(
            agent=label(scope), listed=listed, because=because, readable=readable, reason=reason
        )
    kind, reason = service.hidden_reason(scope, note, dedicated)
    if readable and kind != "get_only":  # a get-only reason says so already
        reason += "; it may still read it by id"
    return SideAccess(agent=label(scope), listed=False, kind=kind, readable=readable, reason=reason)


def compared_note(
    sides: tuple[Side, Side],
    service: CollectionService,
    note: MemoryNote,
    which: str,
    dedicated: Mapping[str, str],
) -> ComparedNote:
    """A note with both sides' access to it."""
    content = note.content if isinstance(note.content, str) else ""
    user_id = (note.model_extra or {}).get("user_id")
    return ComparedNote(
        id=note.id,
        collection=service.name,
        format=service.format,
        content=content[:CONTENT_CHARS],
        agent_id=note.agent_id,
        owner=note.effective_owner,
        readers=note.effective_readers,
        writers=note.effective_writers,
        active=note.active,
        user_id=user_id if isinstance(user_id, str) else None,
        a=access(sides[0], service, note, which, dedicated),
        b=access(sides[1], service, note, which, dedicated),
    )


# ------------------------------------------------------------------- groups
def _listing_filter(side: Side, which: CompareScope) -> Filter:
    return list_filter(side.service, side.scope, which)


def _scans(sides: tuple[Side, Side], which: CompareScope) -> list[tuple[CollectionService, Filter]]:
    """Each collection to read once, with a filter that keeps what either side may list."""
    out: list[tuple[CollectionService, Filter]] = []
    a, b = sides
    if a.service.real_name == b.service.real_name:
        both = Filter(should=(_listing_filter(a, which), _listing_filter(b, which)))
        return [(a.service, both)] if a.service.exists() else []
    for side in sides:
        if side.service.exists():
            out.append((side.service, _listing_filter(side, which)))
    return out


def group_notes(
    sides: tuple[Side, Side],
    which: CompareScope,
    limit: int,
    dedicated: Mapping[str, str],
    progress: Progress | None = None,
) -> dict[GroupName, NoteGroup]:
    """The notes listed by A only, B only and both: counts, and the first ``limit`` of each.

    Each collection is read once, a page at a time; only the pages shown are kept.
    """
    groups: dict[GroupName, NoteGroup] = {name: NoteGroup() for name in GROUP_NAMES}
    scans = _scans(sides, which)
    # Counting costs a pass on stores that filter in Python: only when someone watches.
    total = sum(s.store.count(s.name, flt) for s, flt in scans) if progress is not None else 0
    page = LIVELY_PAGE if progress is not None else SCAN_PAGE
    done = 0
    for service, flt in scans:
        for point in service.store.scan(service.name, flt, page=page):
            note = service.note(point.id, point.payload)
            done += 1
            if progress is not None and done % PROGRESS_EVERY == 0:
                progress(done, total)
            seen = (
                in_listing(sides[0], service, note, which),
                in_listing(sides[1], service, note, which),
            )
            if not any(seen):
                continue  # the store matched a value the rules refuse (a wrong type)
            name: GroupName = "both" if all(seen) else "a_only" if seen[0] else "b_only"
            group = groups[name]
            group.total += 1
            if len(group.notes) < limit:
                group.notes.append(compared_note(sides, service, note, which, dedicated))
    if progress is not None:
        progress(done, done)
    return groups


# ------------------------------------------------------------------- search
def _in_scope(hit: SearchHit, which: CompareScope) -> bool:
    if which == "private":
        return hit.because in ("private", "collection")
    if which == "shared":
        return hit.because == "shared"
    return True


def _hits(
    sides: tuple[Side, Side],
    mine: int,
    result: SearchResult,
    other_ranks: Mapping[tuple[str, str], int],
    which: CompareScope,
    dedicated: Mapping[str, str],
) -> list[ComparedHit]:
    count = len(other_ranks)
    results = ("1 result" if count == 1 else f"{count} results") if count else "results"
    service = sides[mine].service
    other = label(sides[1 - mine].scope)
    out: list[ComparedHit] = []
    for rank, hit in enumerate(result.hits, 1):
        if not _in_scope(hit, which):
            continue
        note = compared_note(sides, service, hit.note, "visible", dedicated)
        other_access = note.b if mine == 0 else note.a
        other_rank = other_ranks.get((service.real_name, hit.note.id))
        if other_rank is not None:
            reason = f"{other} gets it too, at #{other_rank}"
        elif other_access.because is not None:
            reason = (
                f"{other} may see it ({other_access.reason}), "
                f"but it is not among its {results} for this query"
            )
        else:
            reason = f"{other} cannot see it: {other_access.reason}"
        out.append(
            ComparedHit(
                rank=rank,
                score=hit.score,
                similarity=hit.similarity,
                weak=hit.weak,
                note=note,
                other_rank=other_rank,
                other_reason=reason,
            )
        )
    return out


def side_by_side(
    sides: tuple[Side, Side],
    query: str,
    search_as: SearchAs,
    which: CompareScope,
    dedicated: Mapping[str, str],
) -> SideBySide:
    """Both agents' ranked results for ``query``, each hit marked with the other's access."""
    results = (search_as(sides[0].scope), search_as(sides[1].scope))
    ranks = [
        {(side.service.real_name, hit.note.id): rank for rank, hit in enumerate(result.hits, 1)}
        for side, result in zip(sides, results, strict=True)
    ]
    notices = [f"{r.agent}: {r.notice}" for r in results if r.notice]
    return SideBySide(
        query=query,
        a_limit=results[0].limit,
        b_limit=results[1].limit,
        a_hits=_hits(sides, 0, results[0], ranks[1], which, dedicated),
        b_hits=_hits(sides, 1, results[1], ranks[0], which, dedicated),
        notices=notices,
    )


def compare(
    sides: tuple[Side, Side],
    *,
    which: CompareScope = "visible",
    limit: int | None = None,
    query: str | None = None,
    search_as: SearchAs | None = None,
    dedicated: Mapping[str, str] | None = None,
    progress: Progress | None = None,
) -> Comparison:
    """Compare two agents' views (see the module docstring)."""
    if which not in COMPARE_SCOPES:
        raise InvalidInput(f"unknown scope {which!r}: use one of {', '.join(COMPARE_SCOPES)}")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise InvalidInput("the compare limit must be a positive integer")
    dedicated = dedicated or {}
    a, b = agent_of(sides[0]), agent_of(sides[1])
    if query is None or not query.strip():
        page = GROUP_PAGE if limit is None else limit
        groups = group_notes(sides, which, page, dedicated, progress)
        return Comparison(a=a, b=b, scope=which, limit=page, groups=groups)
    if search_as is None:
        raise InvalidInput("a query needs a search to run")
    search = side_by_side(sides, query, search_as, which, dedicated)
    return Comparison(a=a, b=b, scope=which, limit=limit, search=search)


def sides_of(
    scopes: Sequence[AgentScope], service: Callable[[str], CollectionService]
) -> tuple[Side, Side]:
    """The two sides of a comparison from two scopes."""
    if len(scopes) != 2:
        raise InvalidInput("a comparison takes exactly two agents")
    first, second = (Side(scope, service(scope.collection)) for scope in scopes)
    return first, second
