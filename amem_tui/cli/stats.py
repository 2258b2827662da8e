"""``stats``: the whole store at a glance.

For each agent its mode, collection and counts (private, shared by it, visible to it,
soft-deleted, selectively shared, legacy, malformed) and its consolidation savings;
the notes each agent wrote per week; who wrote the shared scope. Reading only.

The figures come from the store's indexes (counts and facets) where it has them;
malformed points are only found by reading every note, which ``--check`` does.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from amem_tui.cli.command import Command

if TYPE_CHECKING:
    from amem_tui.cli.context import Context


def stats_arguments(parser: argparse.ArgumentParser) -> None:
    """``--check``: read every note, to find malformed points too."""
    parser.add_argument(
        "--check",
        action="store_true",
        help="read every note (slow on a big store) to find malformed points; without it "
        "the figures come from the store's indexes and malformed points are not counted",
    )


def store_stats(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """The engine's figures as plain data, with each owner's share of the shared scope."""
    counted = None if args.check else ctx.engine.counted_stats()
    stats = counted if counted is not None else ctx.engine.stats()
    data = stats.model_dump(mode="json")
    data["shared_total"] = stats.shared_total
    data["shared_share"] = {owner: round(part, 4) for owner, part in stats.shared_share().items()}
    return data


#: Columns of text (left-aligned) before the figures (right-aligned).
TEXT_COLUMNS = 3


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [
            cell.ljust(w) if i < TEXT_COLUMNS else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        out.append("  ".join(cells).rstrip())
    return out


def _agents(data: dict[str, Any]) -> list[str]:
    # Here, not at the top: the parser imports every command module, and the TUI's
    # first frame must not wait for the engine's models.
    from amem_tui.engine.stats import AGENT_FIGURES

    rows = [["agent", "mode", "collection", *(title for title, _ in AGENT_FIGURES)]]
    pending = set(data["pending"])
    for agent in data["agents"]:
        figures = ("?" if key in pending else str(agent[key]) for _, key in AGENT_FIGURES)
        rows.append([agent["label"], agent["mode"], agent["collection"], *figures])
    return _table(rows)


def _weeks(data: dict[str, Any]) -> list[str]:
    agents = data["agents"]
    if not data["weeks"]:
        return ["notes written per week: none dated"]
    rows = [["week of", "", "", *(agent["label"] for agent in agents)]]
    for week in data["weeks"]:
        rows.append([week, "", "", *(str(agent["weeks"].get(week, 0)) for agent in agents)])
    undated = [str(agent["weeks"].get("undated", 0)) for agent in agents]
    if any(count != "0" for count in undated):
        rows.append(["undated", "", "", *undated])
    return ["notes written per week (weeks start on Monday)", *_table(rows)]


def stats_text(data: dict[str, Any]) -> str:
    """The agent table, the collections, the shared scope by owner, and notes per week."""
    lines = _agents(data)
    lines.append("")
    unchecked = "malformed" in data["pending"]
    for collection in data["collections"]:
        bad = collection["malformed"]
        unattributed = f" ({collection['unattributed']} naming no agent)" if bad else ""
        checked = "malformed not checked" if unchecked else f"{bad} malformed{unattributed}"
        lines.append(
            f"{collection['name']}: {collection['points']} points ({collection['format']}), "
            f"{checked}"
        )
    total = data["shared_total"]
    owners = ", ".join(
        f"{owner} {data['shared_owners'][owner]} ({part:.0%})"
        for owner, part in data["shared_share"].items()
    )
    lines.append(f"shared scope: {total} notes" + (f", written by {owners}" if owners else ""))
    if data["history_error"]:
        lines.append(f"consolidation history not read: {data['history_error']}")
    if unchecked:
        lines.append(
            "figures from the store's indexes; malformed points (?) are found by reading "
            "every note: stats --check"
        )
    lines += ["", *_weeks(data)]
    return "\n".join(lines)


COMMANDS: tuple[Command[Any], ...] = (
    Command(
        "stats",
        "the whole store at a glance: per agent, per week, and who shares what",
        handler=store_stats,
        text=stats_text,
        arguments=stats_arguments,
    ),
)
