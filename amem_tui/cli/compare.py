"""``compare``: two agents' views side by side.

Without a query: the notes only A sees, only B sees, and both see, with why each side
can or cannot read each note. With ``--query``: both agents' ranked results, each hit
marked with whether the other agent gets it, and why not. Reading only.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from amem_tui.cli.command import Command, UsageError
from amem_tui.cli.output import agent_names, sanitize, shorten

if TYPE_CHECKING:
    from amem_tui.cli.context import Context

#: The listings ``--scope`` compares (engine.compare.COMPARE_SCOPES; not imported here
#: so that building the parser loads no engine module).
SCOPES = ("visible", "private", "shared")
#: Group keys and the words for them, given the two sides' labels.
GROUP_TITLES = (("a_only", "{a} only"), ("b_only", "{b} only"), ("both", "both"))


def compare_arguments(parser: argparse.ArgumentParser) -> None:
    """``compare A B [--scope visible|private|shared] [--query TEXT] [--limit K]``."""
    parser.add_argument("agent_a", metavar="A", help="an agent (in mem0: or a user_id)")
    parser.add_argument("agent_b", metavar="B", help="the agent to compare it with")
    parser.add_argument(
        "--scope", choices=SCOPES, default="visible", help="which notes of each agent"
    )
    parser.add_argument("--query", metavar="TEXT", default=None, help="search as both at once")
    parser.add_argument("--limit", type=int, default=20, help="notes per group, or hits per agent")


def compare_agents(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """Both agents' views as plain data (the engine's Comparison as JSON)."""
    if args.limit < 1:
        raise UsageError("--limit must be at least 1")
    engine = ctx.engine
    comparison = engine.compare(
        args.agent_a, args.agent_b, args.scope, query=args.query, limit=args.limit
    )
    known = engine.known_agents()
    for name, side in ((args.agent_a, comparison.a), (args.agent_b, comparison.b)):
        if name not in known and name != side.namespace:
            print(
                sanitize(
                    f"amem-tui: compare: no agent '{name}' in the configuration or the store "
                    f"(known: {', '.join(sorted(known)) or 'none'}); it sees what a new agent "
                    "would"
                ),
                file=sys.stderr,
            )
    return comparison.model_dump(mode="json")


# ---------------------------------------------------------------------- text
def _side(agent: dict[str, Any]) -> str:
    return f"{agent['label']} (Mode {agent['mode']}, {agent['collection']})"


def _access(access: dict[str, Any], width: int) -> str:
    verdict = "sees it" if access["listed"] else "in view" if access["because"] else "cannot"
    return f"{access['agent']:<{width}}  {verdict}: {access['reason']}"


def _note_lines(note: dict[str, Any], width: int) -> list[str]:
    state = "" if note["active"] else " (soft-deleted)"
    where = f"owner {note['owner']} · agent_id {note['agent_id']} · readers "
    where += f"{agent_names(note['readers'])} · {note['collection']}"
    if note.get("user_id"):
        where += f" · user_id {note['user_id']}"
    return [
        f"  {note['id']}{state}  {shorten(note['content'], 70)}",
        f"      {where}",
        f"      {_access(note['a'], width)}",
        f"      {_access(note['b'], width)}",
    ]


def _groups_text(data: dict[str, Any]) -> list[str]:
    a, b = data["a"]["label"], data["b"]["label"]
    width = max(len(a), len(b))
    groups = data["groups"]
    titles = [(key, title.format(a=a, b=b)) for key, title in GROUP_TITLES]
    lines = [
        f"{data['scope']} notes of {_side(data['a'])} and {_side(data['b'])}",
        "   ".join(f"{title}: {groups[key]['total']}" for key, title in titles),
    ]
    for key, title in titles:
        group = groups[key]
        lines += ["", f"{title} ({group['total']})"]
        for note in group["notes"]:
            lines += _note_lines(note, width)
        more = group["total"] - len(group["notes"])
        if more > 0:
            lines.append(f"  … and {more} more (raise --limit to see them)")
    return lines


def _hits_text(label: str, hits: list[dict[str, Any]], own: str, other: str) -> list[str]:
    lines = ["", f"{label}'s results ({len(hits)})"]
    for hit in hits:
        note = hit["note"]
        mark = "both" if hit["other_rank"] is not None else f"{label} only"
        because = note[own]["because"] or "-"
        lines.append(
            f"  #{hit['rank']:<3} {hit['score']:.3f}  {mark:<{len(label) + 5}}  [{because}]  "
            f"{note['id']}  {shorten(note['content'], 50)}"
        )
        lines.append(f"        {hit['other_reason']}")
    if not hits:
        lines.append("  (none)")
    return lines


def _search_text(data: dict[str, Any]) -> list[str]:
    search = data["search"]
    a, b = data["a"]["label"], data["b"]["label"]
    lines = [
        f"{search['query']!r} searched as {_side(data['a'])} and {_side(data['b'])}, "
        f"top {data['limit']} each"
    ]
    lines += [f"note: {notice}" for notice in search["notices"]]
    lines += _hits_text(a, search["a_hits"], "a", b)
    lines += _hits_text(b, search["b_hits"], "b", a)
    return lines


def compare_text(data: dict[str, Any]) -> str:
    """The three groups (or both agents' results), each note with both sides' access."""
    lines = _search_text(data) if data.get("search") else _groups_text(data)
    return "\n".join(lines)


COMMANDS: tuple[Command[Any], ...] = (
    Command(
        "compare",
        "compare two agents' views: what only one sees, what both see, and why",
        handler=compare_agents,
        text=compare_text,
        arguments=compare_arguments,
    ),
)
