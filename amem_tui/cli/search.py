"""``search``: what an agent finds for a query, why each hit ranked where it did,
and (``--hidden``, on purpose) the close matches it is not allowed to see."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from amem_tui.cli.command import Command, UsageError
from amem_tui.cli.options import flag, option, switch
from amem_tui.cli.output import (
    Mem0View,
    Note,
    Omitted,
    flattened,
    mem0_view,
    note_row,
    scope_label,
)
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.cli.context import Context
    from amem_tui.engine import MemoryNote, QueryEmbedding, SearchResult
else:
    QueryEmbedding = Any  # a model dumped as itself: see output.emit


@dataclass(frozen=True)
class SearchOptions:
    """``search``: the query, how many hits, the ranking, and what to add."""

    query: str = option()
    limit: int | None = option("--limit", help="hits wanted (default 10; mem0: its topK)")
    mode: Literal["plugin", "hybrid", "dense"] | None = option(
        "--mode", help="ranking (default: the store's own)"
    )
    first_turn: bool = flag("--first-turn", help="mem0, --view recall: a session's first turn")
    #: True: compare with every note; False: the HNSW graph; None: by the store's size.
    exact: bool | None = switch(
        ("--exact", True, "compare the query with every note (the default up to 250,000 notes)"),
        ("--approximate", False, "search the HNSW graph (the default beyond 250,000 notes)"),
    )
    explain: bool = flag("--explain", help="show how each hit ranked")
    hidden: bool = flag("--hidden", help="add the matches it cannot see")
    #: openclaw-amem's memory_search filters: ``subject`` and ``topicsFilter``.
    subject: str | None = option("--subject", metavar="NAME", help="only notes about this person")
    topics: str | None = option("--topics", metavar="A,B", help="knowledge notes of every topic")


def search_notes(ctx: Context, options: SearchOptions) -> FoundNotes:
    """Search as an agent: what it finds, why, and what it cannot see."""
    if options.limit is not None and options.limit < 1:
        raise UsageError("--limit must be at least 1")
    if not options.query.strip():  # it would find nothing, and look like a real answer
        raise UsageError("search needs a query: it is empty (to see every note: list)")
    from amem_tui.engine.for_apps import load_in_background

    ctx.in_background(load_in_background(ctx.engine.embedder))  # while the store opens
    scope = ctx.reading_scope()
    # Without --agent, let the engine resolve (and report) a --session-key itself.
    agent = scope if ctx.settings.agent or not ctx.settings.session_key else None
    view = ctx.engine.agent(agent, session_key=ctx.settings.session_key)
    result = view.search(
        options.query,
        limit=options.limit,
        mode=options.mode,
        hidden=options.hidden,
        exact=options.exact,
        first_turn=options.first_turn,
        subject=options.subject,
        topics=[t.strip() for t in options.topics.split(",")] if options.topics else None,
    )
    # A dry run of a change later re-runs the agent's recent queries (what would move).
    searched = view.scope
    ctx.engine.query_history().record(searched.namespace or searched.agent, options.query)
    notes = ctx.engine.agent(scope).redact([hit.note for hit in result.hits])
    return found_notes(result, options.explain, notes, mem0_view(scope))


def rounded(value: Any) -> Any:
    """A float to six decimals (anything else as it is)."""
    return round(value, 6) if isinstance(value, float) else value


#: How a hit ranked (``--explain``), in the order of its JSON keys.
EXPLAINED = (
    "similarity",
    "bm25_rank",
    "bm25_score",
    "dense_rank",
    "rrf",
    "fused",
    "boost",
    "via",
    "via_note",
    "hop",
)
#: What a hidden match says (``--hidden``), in the order of its JSON keys.
HIDDEN = (
    "id",
    "reason",
    "kind",
    "owner",
    "agent_id",
    "collection",
    "score",
    "similarity",
    "dense_rank",
    "bm25_rank",
)


@dataclass(frozen=True)
class Hit:
    """One hit: its note as the agent may see it, its score, why it is visible, and
    (``--explain``) how it ranked."""

    id: str
    score: float
    because: str
    note: Note
    explained: dict[str, Any] | None = None
    _json = flattened("note", "explained")


@dataclass(frozen=True)
class FoundNotes:
    """A search's answer: who searched, how, the hits and (``--hidden``) the matches
    it cannot see."""

    agent: str
    mode: str
    collection: str
    query: str
    search_mode: str
    ranking: str
    exact: bool
    notice: str | None
    hits: list[Hit]
    session_key: Omitted[str] = None
    total: Omitted[int] = None
    candidates: Omitted[int] = None
    hidden: Omitted[list[dict[str, Any]]] = None
    mem0: Mem0View | None = None
    embedding: Omitted[QueryEmbedding] = None
    _json = flattened("mem0")


def found_notes(
    result: SearchResult, explain: bool, notes: list[MemoryNote], mem0: Mem0View | None
) -> FoundNotes:
    """A search result as the CLI answers it, with the hits' redacted ``notes``."""
    from amem_tui.engine.for_apps import explain_hit

    hits = [
        Hit(
            hit.note.id,
            rounded(hit.score),
            hit.because,
            note,
            {name: rounded(getattr(hit, name)) for name in EXPLAINED}
            | {"explanation": explain_hit(hit)}
            if explain
            else None,
        )
        for hit, note in zip(result.hits, notes, strict=True)
    ]
    hidden = [
        {name: rounded(getattr(match, name)) for name in HIDDEN} | {"deciding": match.deciding()}
        for match in result.hidden
    ]
    return FoundNotes(
        result.agent,
        result.mode,
        result.collection,
        result.query,
        result.search_mode,
        result.ranking,
        result.exact,
        result.notice,
        hits,
        result.session_key,
        result.total if explain else None,
        result.candidates if explain else None,
        hidden or None,
        mem0,
        result.embedding,
    )


def search_text(found: FoundNotes) -> str:
    """One line per hit, then the hidden matches."""
    where = scope_label(found.agent, found.mode, found.collection, found.mem0)
    how = (found.ranking or found.search_mode) + ("" if found.exact else ", approximate")
    lines = [f"{where}: {plural(len(found.hits), 'hit')} ({how})"]
    if found.notice:
        lines.append(f"note: {found.notice}")
    for hit in found.hits:
        lines.append(f"{hit.score:.3f}  [{hit.because}]  {note_row(hit.id, hit.note.content)}")
        if hit.explained is not None:
            lines.append(f"       {hit.explained['explanation']}")
    if found.hidden is not None:
        lines.append(f"hidden from {found.agent}: {len(found.hidden)}")
        for hidden in found.hidden:
            lines.append(f"{hidden['score']:.3f}  {hidden['id']}  {hidden['reason']}")
            if hidden["deciding"]:
                lines.append(f"       {hidden['deciding']}")
    return "\n".join(lines)


COMMANDS: tuple[Command[Any, Any], ...] = (
    Command("search", search_notes, search_text, SearchOptions, reads=True),
)
