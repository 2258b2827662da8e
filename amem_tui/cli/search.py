"""``search``: what an agent finds for a query, why each hit ranked where it did,
and (``--hidden``, on purpose) the close matches it is not allowed to see."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import model_serializer

from amem_tui.cli.command import Command, Context, UsageError
from amem_tui.cli.options import flag, option, switch
from amem_tui.cli.output import mem0_fields, note_json, note_row, scope_label
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine import AgentScope, MemoryNote, SearchHit, SearchResult
else:
    SearchResult = MemoryNote = AgentScope = Any  # models the answer's own serializer dumps


@dataclass(frozen=True)
class SearchOptions:
    """``search``: the query, how many hits, the ranking, and what to add."""

    query: str = option()
    limit: int | None = option(
        "--limit", within=(1, None), help="matches (default 5, as memory_search; mem0: topK)"
    )
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
    #: Split as given: the engine refuses an empty topic.
    topics: str | None = option("--topics", metavar="A,B", help="knowledge notes of every topic")


def rounded(value: Any) -> Any:
    """A float to six decimals (anything else as it is)."""
    return round(value, 6) if isinstance(value, float) else value


#: What an answer says first, in the order of its JSON keys.
ANSWERED = ("agent", "mode", "collection", "query", "search_mode", "ranking", "exact", "notice")
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


@dataclass(frozen=True)
class FoundNotes:
    """A search's answer: the engine's result, its hits' notes as the agent may see
    them, whether to say how each ranked (``explain``), and who searched."""

    result: SearchResult
    notes: list[MemoryNote]
    explain: bool
    scope: AgentScope

    def explained(self, hit: SearchHit) -> dict[str, Any]:
        """How ``hit`` ranked (``--explain``), in words last."""
        from amem_tui.engine.for_apps import explain_hit

        return {name: rounded(getattr(hit, name)) for name in EXPLAINED} | {
            "explanation": explain_hit(hit)
        }

    @model_serializer
    def _json(self) -> dict[str, Any]:
        result = self.result
        answer: dict[str, Any] = {name: getattr(result, name) for name in ANSWERED}
        answer["hits"] = [
            {"id": hit.note.id, "score": rounded(hit.score), "because": hit.because}
            | note_json(note)
            | (self.explained(hit) if self.explain else {})
            for hit, note in zip(result.hits, self.notes, strict=True)
        ]
        more: dict[str, Any] = {"session_key": result.session_key}
        if self.explain:
            more |= {"total": result.total, "candidates": result.candidates}
        more["hidden"] = [
            {name: rounded(value) for name, value in match.model_dump().items()}
            | {"deciding": match.deciding()}
            for match in result.hidden
        ] or None
        answer |= {key: value for key, value in more.items() if value is not None}
        answer |= mem0_fields(self.scope)
        if result.embedding is not None:
            answer["embedding"] = result.embedding
        return answer


def search_text(found: FoundNotes) -> Iterator[str]:
    """One line per hit, then the hidden matches."""
    result = found.result
    where = scope_label(result.agent, result.mode, result.collection, found.scope)
    how = (result.ranking or result.search_mode) + ("" if result.exact else ", approximate")
    yield f"{where}: {plural(len(result.hits), 'hit')} ({how})"
    if result.notice:
        yield f"note: {result.notice}"
    for hit, note in zip(result.hits, found.notes, strict=True):
        yield f"{rounded(hit.score):.3f}  [{hit.because}]  {note_row(note.id, note.content)}"
        if found.explain:
            yield f"       {found.explained(hit)['explanation']}"
    if result.hidden:
        yield f"hidden from {result.agent}: {len(result.hidden)}"
        for match in result.hidden:
            yield f"{rounded(match.score):.3f}  {match.id}  {match.reason}"
            if match.deciding():
                yield f"       {match.deciding()}"


@Command("search", search_text, SearchOptions, reads=True)
def search_notes(ctx: Context, options: SearchOptions) -> FoundNotes:
    """Search as an agent: what it finds, why, and what it cannot see."""
    if not options.query.strip():  # it would find nothing, and look like a real answer
        raise UsageError("search needs a query: it is empty (to see every note: list)")
    from amem_tui.engine.for_apps import load_in_background

    # The model loads while the store opens. Waited for even on a failure: a library
    # still importing at shutdown fails, and says so on stdout.
    loading = load_in_background(ctx.engine.embedder)
    try:
        scope = ctx.reading_scope()
        # Without --agent, let the engine resolve (and report) a --session-key itself.
        agent = scope if ctx.settings.agent or not ctx.settings.session_key else None
        view = ctx.engine.agent(agent, session_key=ctx.settings.session_key)
        topics = [t.strip() for t in options.topics.split(",")] if options.topics else None
        result = view.search(
            options.query,
            limit=options.limit,
            mode=options.mode,
            hidden=options.hidden,
            exact=options.exact,
            first_turn=options.first_turn,
            subject=options.subject,
            topics=topics,
        )
        # A dry run of a change later re-runs the agent's recent queries (what would move),
        # with their filters.
        searched = view.scope
        ctx.engine.query_history().record(
            searched.namespace or searched.agent,
            options.query,
            options.subject,
            topics or (),
            options.limit,
        )
        notes = ctx.engine.agent(scope).redact([hit.note for hit in result.hits])
        return FoundNotes(result, notes, options.explain, scope)
    finally:
        loading.join()
