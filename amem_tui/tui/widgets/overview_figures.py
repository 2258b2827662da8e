"""What the overview draws, worked out from the store's figures: each agent's notes per
week on one axis, who shares what, what consolidation saved, what gets recalled, and
which figures are still coming. Pure functions: the screen (``screens/overview.py``)
builds the figures and mounts what ``pictures`` makes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.widget import Widget
from textual.widgets import Static

from amem_tui.tui.widgets.overview_charts import Bar, BarRows, SeriesRow, WeeklyNotes, week_axis
from amem_tui.tui.widgets.overview_recall import AgentRecalls, RecalledRow, RecallRows

if TYPE_CHECKING:
    from amem_tui.engine import StoreStats
    from amem_tui.engine.for_apps import AgentStats


def keep_malformed(counted: StoreStats, read: StoreStats) -> StoreStats:
    """Counts taken again, with the malformed figures of the last full read carried over
    (where the counts could not name the malformed points themselves)."""
    if "malformed" not in counted.pending or "malformed" in read.pending:
        return counted
    malformed = {(a.agent, a.collection, a.label): a.malformed for a in read.agents}
    for agent in counted.agents:
        agent.malformed = malformed.get((agent.agent, agent.collection, agent.label), 0)
    bad = {c.name: (c.malformed, c.unattributed) for c in read.collections}
    for collection in counted.collections:
        collection.malformed, collection.unattributed = bad.get(collection.name, (0, 0))
    counted.pending = [key for key in counted.pending if key != "malformed"]
    return counted


def coming(stats: StoreStats) -> str:
    """The figures a report does not hold yet, in words."""
    parts = []
    if "weeks" in stats.pending:
        parts.append("deleted, legacy, selective and weekly counts")
    if "most_recalled" in stats.pending:
        parts.append("what gets recalled")
    if "malformed" in stats.pending:
        parts.append("malformed points")
    if "runs" in stats.pending:
        parts.append("consolidation runs")
    return " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 2 else parts)


def series(stats: StoreStats) -> tuple[list[SeriesRow], list[str]]:
    """Each agent's notes per week on one axis, and the axis."""
    axis = week_axis(stats.weeks)
    drawn = set(axis)
    rows = [
        SeriesRow(
            agent.label,
            [agent.weeks.get(week, 0) for week in axis],
            sum(count for week, count in agent.weeks.items() if week not in drawn),
        )
        for agent in stats.agents
    ]
    return rows, axis


def sharing_bars(stats: StoreStats) -> list[Bar]:
    """Each owner's part of the shared scope, with the notes it shared with chosen readers."""
    total = stats.shared_total
    selective: dict[str, int] = {}
    for agent in stats.agents:
        if agent.selectively_shared:
            selective[agent.label] = selective.get(agent.label, 0) + agent.selectively_shared
    owners = list(stats.shared_owners) + [a for a in selective if a not in stats.shared_owners]
    bars = []
    for owner in owners:
        count = stats.shared_owners.get(owner, 0)
        note = f"{count} · {count / total:.0%}" if total else "0"
        chosen = selective.get(owner, 0)
        if chosen:
            note += f" · and {chosen} get only, for chosen readers"
        bars.append(Bar(owner, count, total, note))
    return bars


def recalls(stats: StoreStats) -> list[AgentRecalls] | None:
    """Each agent's recall figures as the picture draws them (None: still coming)."""
    if "most_recalled" in stats.pending:
        return None
    return [
        AgentRecalls(
            agent.label,
            agent.visible,
            agent.never_recalled,
            [
                RecalledRow(
                    note.retrieval_count,
                    note.last_accessed[:10],
                    "shared" if note.agent_id == "shared" else "private",
                    note.content,
                )
                for note in agent.most_recalled
            ],
            why_none=f"no recall counts ({agent.format} keeps none)",
        )
        for agent in stats.agents
    ]


def pictures(stats: StoreStats) -> dict[str, tuple[object, Callable[[], Widget]]]:
    """Each picture by its place: what it draws (compared to skip drawing it again), and
    how to make it."""
    rows, axis = series(stats)
    weeks: tuple[object, Callable[[], Widget]] = (
        ("coming",) if "weeks" in stats.pending else (rows, axis),
        lambda: (
            Static("Still coming: the notes written per week…", markup=False)
            if "weeks" in stats.pending
            else WeeklyNotes(rows, axis, id="overview-weeks")
            if axis
            else Static("No dated notes.", markup=False)
        ),
    )
    bars = sharing_bars(stats)
    saved = [saving_bar(agent) for agent in stats.agents]
    history = "error" if stats.history_error else "coming" if "runs" in stats.pending else ""
    found = recalls(stats)
    return {
        "weeks-place": weeks,
        "sharing-place": (bars, lambda: BarRows(bars, "Nothing is shared.", id="overview-sharing")),
        "savings-place": (
            (history, stats.history_error, saved),
            lambda: (
                Static(f"Consolidation history not read: {stats.history_error}", markup=False)
                if history == "error"
                else Static("Still coming: the consolidation history…", markup=False)
                if history == "coming"
                else BarRows(saved, id="overview-savings")
            ),
        ),
        "recalls-place": (
            found,
            lambda: (
                Static("Still coming: what gets recalled…", markup=False)
                if found is None
                else RecallRows(found, id="overview-recalls")
            ),
        ),
    }


def saving_bar(agent: AgentStats) -> Bar:
    """What consolidation saved one agent: notes merged away of all it had."""
    before = agent.private + agent.merged_away
    if not agent.runs:
        return Bar(agent.label, 0, 0, "no consolidation runs")
    runs = f"{agent.runs} run{'s' if agent.runs != 1 else ''}"
    merges = f"{agent.merges} merge{'s' if agent.merges != 1 else ''}"
    note = f"{agent.merged_away} merged away in {runs} ({merges})"
    if before:
        note += f", {agent.merged_away / before:.0%} smaller"
    return Bar(agent.label, agent.merged_away, before, note)
