"""The overview screen: the whole store at a glance, as pictures.

First its health (the problems of ``amem-tui health``, Enter going to the notes behind
one, and each agent's writes per day: ``widgets/overview_health.py``), built in a
worker of its own. Then
notes written per week by each agent (sparklines on one time axis), who shares what
(each owner's part of the shared scope, and notes shared with chosen readers), and
what consolidation saved each agent; then the figures as a table, and what gets
recalled (the share of the notes each agent sees that searches returned, and its most
recalled notes). The same data as
``amem-tui stats``. A worker first asks the store for its cheapest counts (each
agent's private, shared and visible notes: a blink, where its indexes allow) and draws
them, saying on screen which figures are still coming; then the other counts, and
the note index (kept for search, and saved beside the store) names the malformed
points and the notes holding openclaw-amem's merges, which complete the figures. Only
where there is no note index to ask, every note is read, a page at a time, with its
progress on screen; a store of 100k notes never freezes the screen. While following,
the counts are asked again whenever a collection's revision moves (the note index
catches up by reading only what was written).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from textual import work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, ProgressBar, Static
from textual.worker import get_current_worker

from amem_tui.engine import AmemError, NotFound
from amem_tui.engine.for_apps import AGENT_FIGURES
from amem_tui.tui.actions import OVERVIEW_ACTIONS, bindings
from amem_tui.tui.dialogs.problem_notes import NoteRow, ProblemNotes
from amem_tui.tui.messages import ActionRefused, JumpTarget, ReadProgress, StatsReady
from amem_tui.tui.text import cell, fit_widths, one_line
from amem_tui.tui.widgets.overview_figures import coming, keep_malformed, pictures
from amem_tui.tui.widgets.overview_health import HealthPanel, WritesPerDay
from amem_tui.tui.workers import ReportsWorkerFailures
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine import HealthReport, MemoryEngine, StoreStats
    from amem_tui.engine.for_apps import Problem


#: Seconds between two looks at the store's revisions while following.
FOLLOW_EVERY = 2.0


class StopReading(Exception):
    """Raised inside a build whose screen went away: the rest of the store is not read."""


#: The figures table's columns: every agent figure but ``get only``, which would push
#: the table past 120 columns; the sharing bars above name those notes instead, and
#: ``amem-tui stats`` and the main screen's header count them.
TABLE_FIGURES = tuple(figure for figure in AGENT_FIGURES if figure[1] != "get_only")


class OverviewScreen(ReportsWorkerFailures, Screen[JumpTarget | None]):
    """The store at a glance; Escape goes back, Enter on a health problem goes to the
    first note behind it."""

    DEFAULT_CSS = """
    OverviewScreen #overview-status { height: 1; padding: 0 1; background: $boost; }
    OverviewScreen #overview-progress { height: 1; padding: 0 1; }
    OverviewScreen #overview-progress Bar { width: 1fr; }
    OverviewScreen #overview-body { height: 1fr; padding: 0 1; }
    OverviewScreen .section { height: 1; margin-top: 1; text-style: bold; color: $accent; }
    OverviewScreen .picture { height: auto; }
    OverviewScreen #overview-figures { height: auto; max-height: 16; }
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings(OVERVIEW_ACTIONS)

    def __init__(self, engine: MemoryEngine, following: bool = False) -> None:
        super().__init__()
        self.engine = engine
        #: The figures on screen, once built.
        self.stats: StoreStats | None = None
        #: Recount when the store changes (the main screen was following).
        self.following = following
        self._revisions: list[int | None] | None = None
        #: The figures the pictures show (None: none yet; they follow the table).
        self.pictured: StoreStats | None = None
        #: What each picture draws now, by its place (only a change redraws one).
        self._drawn: dict[str, object] = {}
        self._drawing = asyncio.Lock()

    def compose(self) -> ComposeResult:
        yield Static("Reading the store…", id="overview-status", markup=False)
        yield ProgressBar(id="overview-progress", show_eta=False)
        with VerticalScroll(id="overview-body"):
            yield Static("Health · the problems amem-tui health reports", classes="section")
            with Vertical(id="health-place", classes="picture"):
                yield Static("Checking health…", markup=False)
            yield Static("Writes per agent per day", classes="section")
            yield Vertical(id="writes-place", classes="picture")
            yield Static("Notes written per week", classes="section")
            yield Vertical(id="weeks-place", classes="picture")
            yield Static("Who shares what", id="sharing-title", classes="section")
            yield Vertical(id="sharing-place", classes="picture")
            yield Static("Consolidation savings", classes="section")
            yield Vertical(id="savings-place", classes="picture")
            yield Static("Figures", classes="section")
            yield DataTable(id="overview-figures", cursor_type="row")
            yield Static(
                "What gets recalled · the most recalled notes each agent sees", classes="section"
            )
            yield Vertical(id="recalls-place", classes="picture")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Start building the figures (and, while following, watching for changes)."""
        self.build()
        self.check_health()
        if self.following:
            self.set_interval(FOLLOW_EVERY, self.recount)

    def action_reload(self) -> None:
        """Read the store again."""
        self.query_one("#overview-progress", ProgressBar).display = True
        self.build()
        self.check_health()

    def action_close(self) -> None:
        """Go back."""
        self.dismiss(None)

    @work(thread=True, exclusive=True, exit_on_error=False, group="overview")
    def build(self) -> None:
        """Build the figures off the UI thread, cheapest first: the first counts (each
        agent's private, shared and visible notes), the other counts with the malformed
        points (the note index names them), then what gets recalled and the
        consolidation history; each is drawn as it comes. Counts the engine kept (the
        collection's revision unchanged) cost nothing. Only where no note index can
        name the malformed points, every note is read, posting its progress."""
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise StopReading
            self.post_message(ReadProgress(done, total))

        # The revisions the figures are counted at, for following: taken before the
        # counts (a write in between is seen as a move), kept once the first are drawn.
        revisions = self.engine.revisions() if self.following else None
        stages: tuple[dict[str, bool], ...] = (
            {"history": False, "quick": True},
            {"complete": True, "history": False, "recalls": False},
            {"complete": True},
        )
        counted = None
        for how in stages:
            counted = self.engine.counted_stats(**how)
            if worker.is_cancelled:
                return
            if counted is None:
                break  # a store that cannot count: every note is read below
            self.post_message(StatsReady(counted))
            self._revisions = revisions
        if counted is not None and not counted.pending:
            return
        try:
            stats = self.engine.stats(progress)
        except StopReading:
            return
        self.post_message(StatsReady(stats))

    @dataclass
    class HealthReady(Message):
        """The health report is built."""

        report: HealthReport

    @work(thread=True, exclusive=True, exit_on_error=False, group="overview-health")
    def check_health(self) -> None:
        """Build the health report (as ``amem-tui health``) off the UI thread."""
        self.post_message(self.HealthReady(self.engine.health()))

    async def on_overview_screen_health_ready(self, message: HealthReady) -> None:
        """Draw the problems and the writes per agent per day."""
        for place, picture in (
            ("health-place", HealthPanel(message.report, id="overview-health")),
            ("writes-place", WritesPerDay(message.report, id="overview-writes")),
        ):
            holder = self.query_one(f"#{place}", Vertical)
            await holder.remove_children()
            await holder.mount(picture)
        self._focus_problems()

    def _focus_problems(self) -> None:
        """The problems are what the screen acts on (Enter): they take the focus from the
        body it opened on, unless the user has moved it elsewhere meanwhile. Once the
        figures are in too: a focus that moves restyles the body, so the figures table
        is drawn alike whichever came first."""
        problems = self.query("#health-problems")
        if self.stats is None or self.stats.pending or not problems:
            return
        if self.focused in (None, self.query_one("#overview-body")):
            problems.first().focus(scroll_visible=False)  # the section title stays in view

    @dataclass
    class ProblemRead(Message):
        """The notes behind a problem are read, to list."""

        problem: Problem
        rows: list[NoteRow]

    def on_health_panel_chosen(self, message: HealthPanel.Chosen) -> None:
        """Open a problem: its notes read first (none to read: opened at once)."""
        if message.problem.notes:
            self.read_problem_notes(message.problem)
        else:
            self.on_overview_screen_problem_read(self.ProblemRead(message.problem, []))

    @work(thread=True, exclusive=True, exit_on_error=False, group="overview-problem")
    def read_problem_notes(self, problem: Problem) -> None:
        """The notes behind a problem, as its agent reads them, off the UI thread."""
        self.post_message(self.ProblemRead(problem, problem_rows(self.engine, problem)))

    def on_overview_screen_problem_read(self, message: ProblemRead) -> None:
        """List the problem's notes; the one chosen is shown in the main screen as the
        problem's agent."""
        problem = message.problem

        def chosen(note_id: str | None) -> None:
            if note_id is not None:
                agents = (problem.agent,) if problem.agent else ()
                self.dismiss(JumpTarget(note_id, agents, problem.collection, as_named=True))

        self.app.push_screen(ProblemNotes(problem, message.rows), chosen)

    @work(thread=True, exclusive=True, exit_on_error=False, group="overview-recount")
    def recount(self) -> None:
        """While following: when a collection's revision moved, ask for the counts again
        (only the collections written since are counted again: the engine keeps the
        others'), the note index (caught up with what was written) naming the malformed
        points (without one, they stay those of the last full read); only the pictures
        whose figures changed are drawn again."""
        if self.stats is None or self._revisions is None:
            return
        revisions = self.engine.revisions()
        if revisions == self._revisions or None in revisions:
            return
        counted = self.engine.counted_stats(complete=True)
        if counted is None or get_current_worker().is_cancelled:
            return  # the recount that cancelled this one sees the revisions moved too
        self._revisions = revisions
        self.post_message(StatsReady(keep_malformed(counted, self.stats)))

    def on_read_progress(self, message: ReadProgress) -> None:
        """Move the progress bar."""
        self.query_one("#overview-progress", ProgressBar).update(
            total=max(message.total, 1), progress=message.done
        )
        read = f"{message.done:,} of {message.total:,} points"
        if self.stats is not None and self.stats.pending:
            self.query_one("#overview-status", Static).update(
                f"{self._summary(self.stats)} · still coming: {coming(self.stats)} (?), "
                f"reading every note… {read}"
            )
        else:
            self.query_one("#overview-status", Static).update(f"Reading the store… {read}")

    def on_action_refused(self, message: ActionRefused) -> None:
        """Say why the figures could not be built."""
        self.query_one("#overview-status", Static).update(one_line(message.message, 300))
        self.app.notify(
            one_line(message.message, 400), title=message.title, severity="error", markup=False
        )

    @staticmethod
    def _summary(stats: StoreStats) -> str:
        points = sum(c.points for c in stats.collections)
        return (
            f"{plural(len(stats.agents), 'agent')} · {points:,} point{'' if points == 1 else 's'}"
            f" in {plural(len(stats.collections), 'collection')} · shared scope "
            f"{stats.shared_total:,} note{'' if stats.shared_total == 1 else 's'}"
        )

    def on_stats_ready(self, message: StatsReady) -> None:
        """Draw the status line and the table at once; the pictures after that frame
        (the first time) or now, each only when what it draws changed."""
        first = self.stats is None
        stats = self.stats = message.stats
        self.query_one("#overview-progress", ProgressBar).display = bool(stats.pending)
        status = self._summary(stats)
        if stats.pending:
            status += f" · still coming: {coming(stats)} (?)…"
        self.query_one("#overview-status", Static).update(status)
        self.query_one("#sharing-title", Static).update(
            f"Who shares what · shared scope {plural(stats.shared_total, 'note')}"
        )
        self._fill_figures(self.query_one("#overview-figures", DataTable), stats)
        self._focus_problems()
        if first:
            self.call_after_refresh(self._draw_pictures)
        else:
            self.call_later(self._draw_pictures)

    async def _draw_pictures(self) -> None:
        """Put in each place the picture of the figures on screen, where it changed."""
        async with self._drawing:
            stats = self.stats
            if stats is None:
                return
            for place, (drawn, picture) in pictures(stats).items():
                if place in self._drawn and self._drawn[place] == drawn:
                    continue
                self._drawn[place] = drawn
                holder = self.query_one(f"#{place}", Vertical)
                await holder.remove_children()
                await holder.mount(picture())
            self.pictured = stats

    def _fill_figures(self, table: DataTable[object], stats: StoreStats) -> None:
        """The figures, one row per agent, fitted to the screen: the widest columns (the
        collection and the agent's label first) cut with an ellipsis until they fit."""
        titles = ["agent", "mode", *(title for title, _ in TABLE_FIGURES), "collection"]
        keys = ["agent", "mode", *(key for _, key in TABLE_FIGURES), "collection"]
        rows = []
        for agent in stats.agents:
            figures = agent.model_dump()
            values = ["?" if key in stats.pending else figures[key] for _, key in TABLE_FIGURES]
            rows.append(
                [
                    one_line(agent.label, 24),
                    one_line(agent.mode, 2),
                    *(one_line(value, 12) for value in values),
                    one_line(agent.collection, 40),
                ]
            )
        natural = [
            max([len(title), *(cell_len(row[i]) for row in rows)]) for i, title in enumerate(titles)
        ]
        # The screen scrolls: its scrollbar, and the table's own, take two columns each.
        room = self.app.size.width - 4 - 2 * table.cell_padding * len(titles)
        widths = fit_widths(natural, room, [len(title) for title in titles])
        table.clear(columns=True)
        for title, key, width in zip(titles, keys, widths, strict=True):
            table.add_column(title, key=key, width=width)
        for row in rows:
            table.add_row(*(cell(value, width) for value, width in zip(row, widths, strict=True)))


def problem_rows(engine: MemoryEngine, problem: Problem) -> list[NoteRow]:
    """Each note behind a problem as its agent reads it (the configured agent for the
    store's own): its owner and first words, or why it could not be read."""
    try:
        view = engine.agent(problem.agent)
    except AmemError as error:
        return [NoteRow(i, "?", one_line(f"(not read: {error})", 200)) for i in problem.notes]
    rows = []
    for note_id in problem.notes:
        try:
            note = view.get(note_id)
        except NotFound:
            rows.append(NoteRow(note_id, "?", f"(not readable as {view.scope.agent})"))
            continue
        owner = note.owner or note.agent_id or "(none)"
        rows.append(NoteRow(note.id, owner, one_line(note.content, 200)))
    return rows
