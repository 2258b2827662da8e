"""The overview screen: the whole store at a glance, as pictures.

Notes written per week by each agent (sparklines on one time axis), who shares what
(each owner's part of the shared scope, and notes shared with chosen readers), and
what consolidation saved each agent; then the figures as a table. The same data as
``amem-tui stats``, built in a worker that reads the store a page at a time and
reports its progress, so a store of 100k notes never freezes the screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, ProgressBar, Static
from textual.worker import get_current_worker

from amem_tui.engine.stats import AGENT_FIGURES
from amem_tui.tui.actions import OVERVIEW_ACTIONS, bindings
from amem_tui.tui.messages import ActionRefused, ReadProgress, StatsReady
from amem_tui.tui.text import cell, one_line
from amem_tui.tui.widgets.overview_charts import Bar, BarRows, SeriesRow, WeeklyNotes, week_axis
from amem_tui.tui.workers import ReportsWorkerFailures

if TYPE_CHECKING:
    from amem_tui.engine.engine import MemoryEngine
    from amem_tui.engine.stats import AgentStats, StoreStats


class StopReading(Exception):
    """Raised inside a build whose screen went away: the rest of the store is not read."""


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
            note += f" · and {chosen} shared with chosen readers"
        bars.append(Bar(owner, count, total, note))
    return bars


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


class OverviewScreen(ReportsWorkerFailures, Screen[None]):
    """The store at a glance; Escape goes back."""

    DEFAULT_CSS = """
    OverviewScreen #overview-status { height: 1; padding: 0 1; background: $boost; }
    OverviewScreen #overview-progress { height: 1; padding: 0 1; }
    OverviewScreen #overview-progress Bar { width: 1fr; }
    OverviewScreen #overview-body { height: 1fr; padding: 0 1; }
    OverviewScreen .section { height: 1; margin-top: 1; text-style: bold; color: $accent; }
    OverviewScreen #overview-figures { height: auto; max-height: 16; }
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings(OVERVIEW_ACTIONS)

    def __init__(self, engine: MemoryEngine) -> None:
        super().__init__()
        self.engine = engine
        #: The figures on screen, once built.
        self.stats: StoreStats | None = None

    def compose(self) -> ComposeResult:
        yield Static("Reading the store…", id="overview-status", markup=False)
        yield ProgressBar(id="overview-progress", show_eta=False)
        yield VerticalScroll(id="overview-body")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Start building the figures."""
        self.build()

    def action_reload(self) -> None:
        """Read the store again."""
        self.query_one("#overview-progress", ProgressBar).display = True
        self.build()

    def action_close(self) -> None:
        """Go back."""
        self.dismiss(None)

    @work(thread=True, exclusive=True, exit_on_error=False, group="overview")
    def build(self) -> None:
        """Build the figures off the UI thread, posting progress as the store is read."""
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise StopReading
            self.post_message(ReadProgress(done, total))

        try:
            stats = self.engine.stats(progress)
        except StopReading:
            return
        self.post_message(StatsReady(stats))

    def on_read_progress(self, message: ReadProgress) -> None:
        """Move the progress bar."""
        self.query_one("#overview-progress", ProgressBar).update(
            total=max(message.total, 1), progress=message.done
        )
        self.query_one("#overview-status", Static).update(
            f"Reading the store… {message.done:,} of {message.total:,} points"
        )

    def on_action_refused(self, message: ActionRefused) -> None:
        """Say why the figures could not be built."""
        self.query_one("#overview-status", Static).update(one_line(message.message, 300))
        self.app.notify(
            one_line(message.message, 400), title=message.title, severity="error", markup=False
        )

    async def on_stats_ready(self, message: StatsReady) -> None:
        """Draw the pictures and the table."""
        stats = self.stats = message.stats
        self.query_one("#overview-progress", ProgressBar).display = False
        points = sum(c.points for c in stats.collections)
        self.query_one("#overview-status", Static).update(
            f"{len(stats.agents)} agents · {points:,} points in {len(stats.collections)} "
            f"collections · shared scope {stats.shared_total:,} notes"
        )
        body = self.query_one("#overview-body", VerticalScroll)
        await body.remove_children()
        rows, axis = series(stats)
        weekly = (
            WeeklyNotes(rows, axis, id="overview-weeks")
            if axis
            else Static("No dated notes.", markup=False)
        )
        savings = (
            Static(f"Consolidation history not read: {stats.history_error}", markup=False)
            if stats.history_error
            else BarRows([saving_bar(agent) for agent in stats.agents], id="overview-savings")
        )
        await body.mount_all(
            [
                Static("Notes written per week", classes="section"),
                weekly,
                Static(
                    f"Who shares what · shared scope {stats.shared_total} notes", classes="section"
                ),
                BarRows(sharing_bars(stats), "Nothing is shared.", id="overview-sharing"),
                Static("Consolidation savings", classes="section"),
                savings,
                Static("Figures", classes="section"),
                self._figures(stats),
            ]
        )

    def _figures(self, stats: StoreStats) -> DataTable[object]:
        table: DataTable[object] = DataTable(id="overview-figures", cursor_type="row")
        # The collection last: on a narrow screen it is the column cut off.
        table.add_column("agent", key="agent")
        table.add_column("mode", key="mode")
        for title, key in AGENT_FIGURES:
            table.add_column(title, key=key)
        table.add_column("collection", key="collection")
        for agent in stats.agents:
            values = [agent.model_dump()[key] for _, key in AGENT_FIGURES]
            table.add_row(
                cell(agent.label, 24),
                cell(agent.mode, 2),
                *(cell(value, 12) for value in values),
                cell(agent.collection, 40),
            )
        return table
