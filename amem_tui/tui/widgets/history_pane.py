"""The consolidation history of the current agent: its runs, newest first.

The pane lists the runs, says which one the cursor is on (the browser's detail view
shows it while the list has the focus), and reloads them while a run is applied. What
changes the runs (consolidate, undo) is its ``RunWriter``, which follows its agent.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text
from textual import getters, work
from textual.app import ComposeResult
from textual.message import Message
from textual.reactive import var
from textual.widgets import DataTable, Static

from amem_tui.tui.text import cell
from amem_tui.tui.widgets.nightly import NightlyWatch
from amem_tui.tui.widgets.rows_table import RowsTable
from amem_tui.tui.widgets.run_writer import RunWriter
from amem_tui.tui.widgets.tabbed_pane import TabbedPane

if TYPE_CHECKING:
    from datetime import datetime

    from textual.events import DescendantFocus

    from amem_tui.engine import ConsolidationRun, MemoryEngine
    from amem_tui.tui.messages import ConsolidationProgress

HISTORY_TITLE = "Consolidation history"
STARTED_WIDTH = 11
#: The kind column's least width; a longer kind ("scheduled") widens it, never cut.
KIND_WIDTH = 7
#: Narrow enough to leave the notes their width, wide enough for the empty message.
MIN_WIDTH = 30


def merges_label(run: ConsolidationRun) -> Text:
    """How many merges a run made, and how many of them are undone."""
    undone = sum(1 for merge in run.merges if merge.undone)
    return Text(f"{len(run.merges)}" + (f" ({undone} undone)" if undone else ""))


def run_label(run: ConsolidationRun) -> Text:
    """A short word for a run: applied, dry run, undo, undone."""
    if run.dry_run:
        return Text("dry run", style="italic")
    if run.trigger == "undo" or run.undoes:
        return Text("undo", style="yellow")
    if run.status and run.status != "done":
        return Text(run.status, style="yellow")
    return Text(run.trigger)


#: Said when nothing here runs the nightly pass (the line below the runs says more).
NOT_SCHEDULED = "not scheduled here"


def next_run_label(when: datetime | None) -> str:
    """The nightly pass's next start, short: "next nightly 02:30" (local time), or that
    nothing here runs it (see ``NightlyWatch``).

    The date is left out: it is always within a day, and it would depend on the
    machine's time zone (snapshots must not).
    """
    return NOT_SCHEDULED if when is None else f"next nightly {when.strftime('%H:%M')}"


class HistoryPane(TabbedPane):
    """A table of consolidation runs (newest first)."""

    DEFAULT_CSS = """
    HistoryPane > DataTable { height: 1fr; background: transparent; scrollbar-size-horizontal: 0; }
    HistoryPane > .pane-message { padding: 0 1; color: $text-muted; height: auto; }
    HistoryPane > NightlyWatch { dock: bottom; border-top: hkey $panel-lighten-2; }
    """

    @dataclass
    class Highlighted(Message):
        """The cursor moved to a run, or the list of runs took the focus."""

        run: ConsolidationRun | None
        #: The list of runs has the focus (the detail view then shows the run).
        focused: bool

    @dataclass
    class Refreshed(Message):
        """The runs of ``agent``, reloaded while a run is going."""

        agent: str
        runs: list[ConsolidationRun]

    #: The agent whose runs are shown (its run writer follows it).
    agent: var[str | None] = var(None)

    #: The table of runs, and the line said instead when there are none.
    table: getters.query_one[DataTable[Text]] = getters.query_one(DataTable)
    message_line = getters.query_one(".pane-message", Static)
    #: The nightly pass: when it runs next, by what; it runs it while the app is open.
    nightly = getters.query_one(NightlyWatch)
    #: What consolidates the agent and undoes its runs.
    writer = getters.query_one(RunWriter)

    def __init__(self, engine: MemoryEngine, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.engine = engine
        self.runs: dict[str, ConsolidationRun] = {}
        #: The run to put the cursor on when the runs are shown next (a new or undone run).
        self.select_next: str | None = None
        self.set_titles(HISTORY_TITLE)

    def compose(self) -> ComposeResult:
        table: DataTable[Text] = RowsTable(cursor_type="row")
        yield table
        yield Static("", classes="pane-message", markup=False)
        yield NightlyWatch(self.engine, id="nightly")
        yield RunWriter(self.engine).data_bind(HistoryPane.agent)

    def _message(self, text: str) -> None:
        message = self.message_line
        message.update(Text(text))
        message.display = bool(text)

    # ------------------------------------------------------------------ rows
    def show_history(
        self,
        agent: str,
        runs: Sequence[ConsolidationRun] | None,
        error: str | None,
    ) -> None:
        """Show ``agent``'s runs, or why the store could not give them."""
        self.agent = agent
        if runs is not None:
            self.show_runs(runs)
        else:
            self.show_unavailable(error or "")

    def show_runs(self, runs: Sequence[ConsolidationRun]) -> None:
        """Replace the rows with these runs, newest first (the cursor stays on its run)."""
        table = self.table
        current = self.select_next or self.current_id
        self.select_next = None
        table.clear(columns=True)
        table.add_column("started", key="started", width=STARTED_WIDTH)
        unique: dict[str, ConsolidationRun] = {}
        for run in sorted(runs, key=lambda r: r.started_at, reverse=True):
            unique.setdefault(run.id, run)
        table.add_column("kind", key="kind", width=self._kind_width(unique.values()))
        table.add_column("merges", key="merges")
        self.runs = {}
        for run in unique.values():
            self.runs[run.id] = run
            # MM-DD HH:MM: the year is rarely news, and the pane is narrow.
            started = run.started_at[5:16].replace("T", " ")
            table.add_row(
                cell(started, STARTED_WIDTH), run_label(run), merges_label(run), key=run.id
            )
        table.display = bool(self.runs)
        self.can_focus = not self.runs  # Tab still reaches the message
        self._show_titles()
        empty = "No consolidation runs yet."
        if not self.engine.read_only:
            empty += " Press c to consolidate."
        self._message("" if self.runs else empty)
        if current and current in table.rows:
            table.move_cursor(row=table.get_row_index(current), animate=False)

    def _show_titles(self) -> None:
        count = len(self.runs)
        parts = [f"{count} run{'' if count == 1 else 's'}"] if count else []
        parts.append(next_run_label(self.nightly.next_run))
        self.set_titles(HISTORY_TITLE, " · ".join(parts))

    def on_nightly_watch_changed(self, message: NightlyWatch.Changed) -> None:
        """The next nightly pass moved (one ran): the subtitle says when."""
        message.stop()
        if self.table.display:
            self._show_titles()

    @property
    def tab_label(self) -> str:
        """``History (2)`` in a strip of tabs: its runs."""
        return f"History ({len(self.runs)})"

    @staticmethod
    def _kind_width(runs: Iterable[ConsolidationRun]) -> int:
        return max([KIND_WIDTH, *(cell_len(run_label(run).plain) for run in runs)])

    def natural_width(self) -> int:
        """The width the pane needs for its rows and titles (and no more)."""
        merges = max([6, *(cell_len(merges_label(run).plain) for run in self.runs.values())])
        kind = self._kind_width(self.runs.values())
        table = STARTED_WIDTH + kind + merges + 3 * 2  # each column's padding
        titles = max(cell_len(HISTORY_TITLE), cell_len(self.subtitle_text)) + 4
        # The border, and the table's scrollbar once the rows outgrow the pane.
        return max(table + 2 + 1, titles + 2, MIN_WIDTH)

    def show_unavailable(self, text: str) -> None:
        """Say why there is no history (the store could not give it)."""
        self.runs = {}
        self.table.clear(columns=True)
        self.table.display = False
        self.can_focus = True
        self.set_titles(HISTORY_TITLE)
        self._message(text)

    @property
    def current_id(self) -> str | None:
        """The id of the run under the cursor."""
        table = self.table
        if not table.display or table.row_count == 0:
            return None
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        except Exception:
            return None
        return str(key.value) if key.value is not None else None

    @property
    def current_run(self) -> ConsolidationRun | None:
        """The run under the cursor."""
        run_id = self.current_id
        return self.runs.get(run_id) if run_id else None

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Tell the screen which run is under the cursor."""
        event.stop()
        key = event.row_key.value if event.row_key is not None else None
        run = self.runs.get(str(key)) if key else None
        self.post_message(self.Highlighted(run, self.table.has_focus))

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        """The list of runs took the focus: say which run it is on."""
        if event.widget is self.table:
            self.post_message(self.Highlighted(self.current_run, True))

    def on_consolidation_progress(self, message: ConsolidationProgress) -> None:
        """Reload the runs while one is applied (it updates live); the browser moves its bar."""
        if self.agent is not None and message.done:
            self.refresh_history(self.agent)

    @work(thread=True, exclusive=True, exit_on_error=False, group="history")
    def refresh_history(self, agent: str) -> None:
        """Reload the runs of ``agent``."""
        try:
            runs = self.engine.agent(agent).history()
        except Exception:  # a live refresh only; the run itself reports any failure
            return
        self.post_message(self.Refreshed(agent, runs))

    def on_history_pane_refreshed(self, message: Refreshed) -> None:
        """Show the reloaded runs if they are still the current agent's."""
        message.stop()
        if message.agent == self.agent:
            self.show_runs(message.runs)
