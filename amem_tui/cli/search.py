"""``search``: what an agent finds for a query, why each hit ranked where it did,
and (``--hidden``) the close matches it is not allowed to see.

Hits are shown as the agent may see them: links and conflicts to notes it may not
read are left out and counted (``unreadable_links``, ``unreadable_conflicts``).
``--hidden`` is the inspector's own question (what could it not see, and why) and
names those matches on purpose.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from amem_tui.cli.command import Command, UsageError
from amem_tui.cli.output import mem0_view_json, scope_label, shorten

if TYPE_CHECKING:
    from amem_tui.cli.context import Context
    from amem_tui.engine.models import MemoryNote, SearchResult


def search_arguments(parser: argparse.ArgumentParser) -> None:
    """``search QUERY [--limit N] [--mode hybrid|dense] [--exact|--approximate]
    [--explain] [--hidden]``."""
    parser.add_argument("query")
    parser.add_argument("--limit", type=int, default=10)
    parser.add_argument("--mode", choices=["hybrid", "dense"], default="hybrid", help="ranking")
    how = parser.add_mutually_exclusive_group()
    how.add_argument(
        "--exact",
        dest="exact",
        action="store_const",
        const=True,
        help="compare the query with every note (the default up to 250,000 notes)",
    )
    how.add_argument(
        "--approximate",
        dest="exact",
        action="store_const",
        const=False,
        help="search the HNSW graph (the default beyond 250,000 notes)",
    )
    parser.add_argument("--explain", action="store_true", help="show how each hit ranked")
    parser.add_argument("--hidden", action="store_true", help="add the matches it cannot see")


def search_notes(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """What the agent finds for a query, best first; --hidden adds what it cannot see."""
    if args.limit < 1:
        raise UsageError("--limit must be at least 1")
    from amem_tui.engine.embed import load_in_background  # heavy: only when a search runs

    load_in_background(ctx.engine.embedder)  # while the store opens
    scope = ctx.reading_scope()
    # Without --agent, let the engine resolve (and report) a --session-key itself.
    agent = scope if ctx.settings.agent or not ctx.settings.session_key else None
    result = ctx.engine.search(
        agent, args.query, limit=args.limit, mode=args.mode, hidden=args.hidden, exact=args.exact
    )
    notes = ctx.engine.redact(scope, [hit.note for hit in result.hits])
    out = search_json(result, explain=args.explain, notes=notes)
    out.update(mem0_view_json(scope))
    return out


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def search_json(
    result: SearchResult, explain: bool = True, notes: list[MemoryNote] | None = None
) -> dict[str, Any]:
    """A search result as the CLI prints it; ``explain`` adds how each hit ranked.

    ``notes`` are the hits' notes as the agent may see them (redacted), in hit order.
    """
    from amem_tui.engine.search import explain_hit  # ranking code: only once a search ran

    hits = []
    shown = notes if notes is not None else [hit.note for hit in result.hits]
    for hit, note in zip(result.hits, shown, strict=True):
        row: dict[str, Any] = {
            "id": hit.note.id,
            "score": round(hit.score, 6),
            "because": hit.because,
            **note.to_payload(),
        }
        if explain:
            row.update(
                similarity=_round(hit.similarity),
                bm25_rank=hit.bm25_rank,
                bm25_score=_round(hit.bm25_score),
                dense_rank=hit.dense_rank,
                rrf=_round(hit.rrf),
                boost=_round(hit.boost),
                via=hit.via,
                via_note=hit.via_note,
                hop=hit.hop,
                explanation=explain_hit(hit),
            )
        hits.append(row)
    out: dict[str, Any] = {
        "agent": result.agent,
        "mode": result.mode,
        "collection": result.collection,
        "query": result.query,
        "search_mode": result.search_mode,
        "exact": result.exact,
        "notice": result.notice,
        "hits": hits,
    }
    if result.session_key is not None:
        out["session_key"] = result.session_key
    if explain:
        out["total"] = result.total
        out["candidates"] = result.candidates
    if result.hidden:
        out["hidden"] = [
            {
                "id": h.id,
                "reason": h.reason,
                "kind": h.kind,
                "owner": h.owner,
                "agent_id": h.agent_id,
                "collection": h.collection,
                "score": round(h.score, 6),
                "similarity": _round(h.similarity),
            }
            for h in result.hidden
        ]
    return out


def search_text(data: dict[str, Any]) -> str:
    """One line per hit (score, why visible, id, content), then the hidden matches."""
    where = scope_label(data)
    how = data["search_mode"] + ("" if data["exact"] else ", approximate")
    lines = [f"{where}: {len(data['hits'])} hits ({how})"]
    if data.get("notice"):
        lines.append(f"note: {data['notice']}")
    for hit in data["hits"]:
        content = shorten(str(hit.get("content", "")), 60)
        lines.append(f"{hit['score']:.3f}  [{hit['because']}]  {hit['id']}  {content}")
        if "explanation" in hit:
            lines.append(f"       {hit['explanation']}")
    if "hidden" in data:
        lines.append(f"hidden from {data['agent']}: {len(data['hidden'])}")
        for hidden in data["hidden"]:
            lines.append(f"{hidden['score']:.3f}  {hidden['id']}  {hidden['reason']}")
    return "\n".join(lines)


COMMANDS: tuple[Command[Any], ...] = (
    Command(
        "search",
        "search as an agent: what it finds, why, and what it cannot see",
        handler=search_notes,
        text=search_text,
        arguments=search_arguments,
    ),
)
