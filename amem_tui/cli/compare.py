"""``compare``: two agents' views side by side (the notes only A, only B, and both see,
or with ``--query`` both agents' results), with why each side can read each note."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from amem_tui.cli.command import Command, Context
from amem_tui.cli.options import option
from amem_tui.cli.output import agent_names, note_row, shorten

if TYPE_CHECKING:
    from amem_tui.engine import Comparison
    from amem_tui.engine.for_apps import (
        ComparedAgent,
        ComparedHit,
        ComparedNote,
        GroupName,
        SideAccess,
    )

#: Group keys and the words for them, given the two sides' labels.
GROUP_TITLES: tuple[tuple[GroupName, str], ...] = (
    ("a_only", "{a} only"),
    ("b_only", "{b} only"),
    ("both", "both"),
)


@dataclass(frozen=True)
class CompareOptions:
    """``compare``: the two agents, which notes, and (``--query``) a search as both."""

    agent_a: str = option(metavar="A", help="an agent (in mem0: or a user_id)")
    agent_b: str = option(metavar="B", help="the agent to compare it with")
    scope: Literal["visible", "private", "shared"] = option(
        "--scope", default="visible", help="which notes of each agent"
    )
    query: str | None = option("--query", metavar="TEXT", help="search as both at once")
    limit: int | None = option(
        "--limit",
        within=(1, None),
        help="notes per group (default 20), or hits per agent (default: what each agent's "
        "own search returns, memory_search's 5 or mem0's topK)",
    )


def _side(agent: ComparedAgent) -> str:
    return f"{agent.label} (Mode {agent.mode}, {agent.collection})"


def _access(access: SideAccess, width: int) -> str:
    verdict = "sees it" if access.listed else "in view" if access.because else "cannot"
    return f"{access.agent:<{width}}  {verdict}: {access.reason}"


def _note_lines(note: ComparedNote, width: int) -> Iterator[str]:
    state = "" if note.active else " (soft-deleted)"
    where = f"owner {note.owner} · agent_id {note.agent_id} · readers "
    where += f"{agent_names(note.readers)} · {note.collection}"
    if note.user_id:
        where += f" · user_id {note.user_id}"
    yield f"  {note.id}{state}  {shorten(note.content, 70)}"
    yield f"      {where}"
    yield f"      {_access(note.a, width)}"
    yield f"      {_access(note.b, width)}"


def _groups_text(comparison: Comparison) -> Iterator[str]:
    a, b = comparison.a.label, comparison.b.label
    width = max(len(a), len(b))
    groups = comparison.groups or {}
    titles = [(key, title.format(a=a, b=b)) for key, title in GROUP_TITLES]
    yield f"{comparison.scope} notes of {_side(comparison.a)} and {_side(comparison.b)}"
    yield "   ".join(f"{title}: {groups[key].total}" for key, title in titles)
    for key, title in titles:
        group = groups[key]
        yield ""
        yield f"{title} ({group.total})"
        for note in group.notes:
            yield from _note_lines(note, width)
        more = group.total - len(group.notes)
        if more > 0:
            yield f"  … and {more} more (raise --limit to see them)"


def _hits_text(label: str, hits: list[ComparedHit], own: Literal["a", "b"]) -> Iterator[str]:
    yield ""
    yield f"{label}'s results ({len(hits)})"
    for hit in hits:
        note = hit.note
        mark = "both" if hit.other_rank is not None else f"{label} only"
        because = (note.a if own == "a" else note.b).because or "-"
        yield (
            f"  #{hit.rank:<3} {hit.score:.3f}  {mark:<{len(label) + 5}}  [{because}]  "
            f"{note_row(note.id, note.content, 50)}"
        )
        yield f"        {hit.other_reason}"
    if not hits:
        yield "  (none)"


def _search_text(comparison: Comparison) -> Iterator[str]:
    search = comparison.search
    assert search is not None
    sides = f"{_side(comparison.a)} and {_side(comparison.b)}"
    yield f"{search.query!r} searched as {sides}, top {search.top()} each"
    yield from (f"note: {notice}" for notice in search.notices)
    yield from _hits_text(comparison.a.label, search.a_hits, "a")
    yield from _hits_text(comparison.b.label, search.b_hits, "b")


def compare_text(comparison: Comparison) -> Iterator[str]:
    """The three groups (or both agents' results), each note with both sides' access."""
    return _search_text(comparison) if comparison.search else _groups_text(comparison)


@Command("compare", compare_text, CompareOptions, reads=True)
def compare_agents(ctx: Context, options: CompareOptions) -> Comparison:
    """Compare two agents' views: what only one sees, what both see, and why."""
    engine = ctx.engine
    comparison = engine.compare(
        options.agent_a, options.agent_b, options.scope, query=options.query, limit=options.limit
    )
    known = engine.known_agents()
    for name, side in ((options.agent_a, comparison.a), (options.agent_b, comparison.b)):
        if name not in known and name != side.namespace:
            ctx.warn(
                f"compare: no agent '{name}' in the configuration or the store "
                f"(known: {', '.join(sorted(known)) or 'none'}); it sees what a new agent "
                "would",
                "unknown_agent",
                {"agent": name, "known_agents": sorted(known)},
            )
    return comparison
