"""``stats``: the whole store at a glance: per agent its counts, what gets recalled,
notes per week, and who wrote the shared scope (see docs/compare.md)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from amem_tui.cli.command import Command, Context
from amem_tui.cli.options import flag
from amem_tui.cli.output import count_of, note_row
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine import StoreStats
else:
    StoreStats = Any  # a model dumped as itself: see output.emit


@dataclass(frozen=True)
class StatsOptions:
    """``stats``: count from the indexes, malformed points too with ``--check``."""

    check: bool = flag("--check", help="count malformed points too (may read every note)")


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


def _agents(stats: StoreStats) -> list[str]:
    from amem_tui.engine.for_apps import AGENT_FIGURES  # not at parse time

    rows = [["agent", "mode", "collection", *(title for title, _ in AGENT_FIGURES)]]
    pending = set(stats.pending)
    for agent in stats.agents:
        # The figures are named by the table the TUI's overview shares.
        shown = ("?" if key in pending else str(getattr(agent, key)) for _, key in AGENT_FIGURES)
        rows.append([agent.label, agent.mode, agent.collection, *shown])
    return _table(rows)


def _weeks(stats: StoreStats) -> Iterator[str]:
    agents = stats.agents
    if not stats.weeks:
        yield "notes written per week: none dated"
        return
    rows = [["week of", "", "", *(agent.label for agent in agents)]]
    for week in stats.weeks:
        rows.append([week, "", "", *(str(agent.weeks.get(week, 0)) for agent in agents)])
    undated = [str(agent.weeks.get("undated", 0)) for agent in agents]
    if any(count != "0" for count in undated):
        rows.append(["undated", "", "", *undated])
    yield "notes written per week (weeks start on Monday)"
    yield from _table(rows)


def _recalls(stats: StoreStats) -> Iterator[str]:
    yield (
        "what gets recalled, as each agent sees it (openclaw-amem counts the searches "
        "that return a note, any agent's)"
    )
    if "most_recalled" in stats.pending:
        yield (
            "  ? (a store without an index on retrieval_count, made before this release: "
            "stats --check finds them)"
        )
        return
    for agent in stats.agents:
        if agent.never_recalled is None:
            yield f"{agent.label}: no recall counts ({agent.format} keeps none)"
            continue
        never = f"{count_of(agent.never_recalled, agent.visible, 'note')} never recalled"
        yield f"{agent.label}: {never}" + ("; most recalled:" if agent.most_recalled else "")
        for note in agent.most_recalled:
            when = note.last_accessed[:10] or "?"
            where = "shared" if note.agent_id == "shared" else "private"
            row = note_row(note.id, note.content)
            yield f"  {note.retrieval_count:>6}x  last {when}  {where:<7}  {row}"


def stats_text(stats: StoreStats) -> Iterator[str]:
    """The agent table, the collections, the shared scope by owner, and notes per week."""
    yield from _agents(stats)
    yield ""
    unchecked = "malformed" in stats.pending
    for collection in stats.collections:
        bad = collection.malformed
        unattributed = f" ({collection.unattributed} naming no agent)" if bad else ""
        checked = "malformed not checked" if unchecked else f"{bad} malformed{unattributed}"
        points = plural(collection.points, "point")
        yield f"{collection.name}: {points} ({collection.format}), {checked}"
    notes = stats.shared_owners
    owners = ", ".join(  # largest first; the percentage of the exact part
        f"{owner} {notes[owner]} ({notes[owner] / stats.shared_total:.0%})"
        for owner in stats.shared_share
    )
    shared = plural(stats.shared_total, "note")
    yield f"shared scope: {shared}" + (f", written by {owners}" if owners else "")
    if stats.history_error:
        yield f"consolidation history not read: {stats.history_error}"
    if unchecked:
        yield (
            "figures from the store's indexes; malformed points (?) are found by reading "
            "every note: stats --check"
        )
    yield ""
    yield from _recalls(stats)
    yield ""
    yield from _weeks(stats)


@Command("stats", stats_text, StatsOptions, reads=True)
def store_stats(ctx: Context, options: StatsOptions) -> StoreStats:
    """The whole store at a glance: per agent, per week, and who shares what."""
    # --check: the note index names the malformed points where the store keeps one;
    # only without it is every note read.
    counted = ctx.engine.counted_stats(complete=options.check)
    if counted is None or (options.check and counted.pending):
        return ctx.engine.stats()
    return counted
