"""The consolidation history of the current agent: runs, and the workers that change them.

The pane previews and applies a consolidation, undoes a run or one merge, and
reloads itself while a run is going. Each of those asks first (a dialog), then
calls the engine in a worker and reports the outcome as a message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text
from textual import getters, work
from textual.app import ComposeResult
from textual.message import Message
from textual.widgets import DataTable, Static

from amem_tui.tui.dialogs.confirm import confirm_then
from amem_tui.tui.messages import (
    ActionDone,
    ConsolidationFinished,
    ConsolidationProgress,
    HistoryRefreshed,
    PreviewReady,
)
from amem_tui.tui.text import cell, one_line
from amem_tui.tui.widgets.nightly import NightlyWatch
from amem_tui.tui.widgets.tabbed_pane import TabbedPane
from amem_tui.wording import plural

if TYPE_CHECKING:
    from datetime import datetime

    from textual.events import DescendantFocus

    from amem_tui.engine import AgentScope, ConsolidationPlan, ConsolidationRun, MemoryEngine
    from amem_tui.engine.for_apps import Activity

NOTHING_TO_UNDO = "A dry run changed nothing: there is nothing to undo."
HISTORY_TITLE = "Consolidation history"
STARTED_WIDTH = 11
#: The kind column's least width; a longer kind ("scheduled") widens it, never cut.
KIND_WIDTH = 7
#: Narrow enough to leave the notes their width, wide enough for the empty message.
MIN_WIDTH = 30


def merge_undo_blocker(run: ConsolidationRun) -> str | None:
    """Why no merge of ``run`` can be undone, or None when one can."""
    if run.dry_run:
        return NOTHING_TO_UNDO
    if run.trigger == "undo" or run.undoes:
        source = f" of run {run.undoes}" if run.undoes else ""
        return (
            f"This run is an undo{source}: it has no merges of its own to undo. "
            "Select the original run to see what was undone."
        )
    if not run.merges:
        return "This run merged nothing: there is nothing to undo."
    if all(merge.undone for merge in run.merges):
        return "Every merge of this run is already undone."
    return None


def restored_phrase(count: int) -> str:
    """``the dropped note is restored``, ``the 2 dropped notes are restored``."""
    if count == 1:
        return "the dropped note is restored"
    return f"the {count} dropped notes are restored"


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

    #: The table of runs, and the line said instead when there are none.
    table: getters.query_one[DataTable[Text]] = getters.query_one(DataTable)
    message_line = getters.query_one(".pane-message", Static)
    #: The nightly pass: when it runs next, by what; it runs it while the app is open.
    nightly = getters.query_one(NightlyWatch)

    def __init__(self, engine: MemoryEngine, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.engine = engine
        self.runs: dict[str, ConsolidationRun] = {}
        #: The run to put the cursor on when the runs are shown next (a new or undone run).
        self.select_next: str | None = None
        #: The agent whose runs are shown; a preview for another agent is dropped.
        self.agent: str | None = None
        #: True while a consolidation is being applied.
        self.busy = False
        self.set_titles(HISTORY_TITLE)

    def compose(self) -> ComposeResult:
        table: DataTable[Text] = DataTable(cursor_type="row")
        yield table
        yield Static("", classes="pane-message", markup=False)
        yield NightlyWatch(self.engine, id="nightly")

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

    # ----------------------------------------------------------- consolidate
    def consolidate(self, scope: AgentScope) -> None:
        """Preview a consolidation of ``scope`` (a dry run); the user may then apply it."""
        if self.busy:
            self.app.notify("A consolidation is already running.", markup=False)
            return
        # No notification here: the preview dialog follows at once, and a toast that
        # fades after a few seconds would make snapshots depend on the machine's speed.
        self.preview_consolidation(scope)

    @work(thread=True, exclusive=True, exit_on_error=False, group="consolidate")
    def preview_consolidation(self, scope: AgentScope) -> None:
        """The plan: what would be merged (nothing changes until it is applied)."""
        plan = self.engine.agent(scope).plan_consolidation()
        self.post_message(PreviewReady(scope, plan))

    def on_preview_ready(self, message: PreviewReady) -> None:
        """Show the preview (unless the agent changed meanwhile); apply if the user says so."""
        message.stop()
        plan, scope = message.plan, message.scope
        run = plan.run
        if self.agent is None or run.agent != self.agent:
            return

        def answer(apply: bool | None) -> None:
            if apply:
                self.busy = True
                self.post_message(ConsolidationProgress(0, len(run.merges)))
                self.apply_consolidation(scope, plan)

        from amem_tui.tui.dialogs.consolidation import ConsolidationPreview

        preview = ConsolidationPreview(
            run, read_only=self.engine.read_only, what_if=self.what_if_applied(plan)
        )
        self.app.push_screen(preview, answer)

    def what_if_applied(self, plan: ConsolidationPlan) -> Callable[[], Text]:
        """What applying ``plan`` would do to the checks saved to last and to every
        agent's recent queries, as ``consolidate --dry-run --checks`` says it."""
        from amem_tui.engine.for_apps import Consolidate
        from amem_tui.tui.what_if_text import what_if_text
        from amem_tui.tui.widgets.search_history import checks_file

        engine, checks = self.engine, checks_file(self)

        def work_out() -> Text:
            queries = engine.query_history().everyone()
            return what_if_text(engine.what_if(Consolidate(plan), checks=checks, queries=queries))

        return work_out

    @work(thread=True, exclusive=True, exit_on_error=False, group="consolidate")
    def apply_consolidation(self, scope: AgentScope, plan: ConsolidationPlan) -> None:
        """Apply the previewed plan, exactly (refused, with what changed, if the agent's
        notes changed since), reporting progress as it goes."""

        def progress(done: int, total: int) -> None:
            self.post_message(ConsolidationProgress(done, total))

        try:
            run = self.engine.agent(scope).apply(plan, progress=progress)
        finally:
            self.post_message(ConsolidationFinished())
        self.post_message(
            ActionDone(
                f"Consolidated {scope.agent}: {plural(len(run.merges), 'merge')} in run {run.id}",
                run=run.id,
                activity=self._own(run),
            )
        )

    def on_consolidation_progress(self, message: ConsolidationProgress) -> None:
        """Reload the runs while one is applied (it updates live); the screen moves its bar."""
        if self.agent is not None and message.done:
            self.refresh_history(self.agent)

    def on_consolidation_finished(self) -> None:
        """Consolidation may run again."""
        self.busy = False

    @work(thread=True, exclusive=True, exit_on_error=False, group="history")
    def refresh_history(self, agent: str) -> None:
        """Reload the runs of ``agent``."""
        try:
            runs = self.engine.agent(agent).history()
        except Exception:  # a live refresh only; the run itself reports any failure
            return
        self.post_message(HistoryRefreshed(agent, runs))

    def on_history_refreshed(self, message: HistoryRefreshed) -> None:
        """Show the reloaded runs if they are still the current agent's."""
        message.stop()
        if message.agent == self.agent:
            self.show_runs(message.runs)

    # ------------------------------------------------------------------ undo
    def undo_selected_run(self, scope: AgentScope) -> None:
        """Undo the run under the cursor, once the user confirms."""
        run = self.current_run
        if run is None:
            self.app.notify("Select a run in the consolidation history first.", markup=False)
            return
        if run.dry_run:
            self.app.notify(NOTHING_TO_UNDO, markup=False)
            return
        confirm_then(
            self.app,
            "Undo this consolidation run?",
            f"Run {run.id} merged {len(run.merges)} groups. Undo restores the dropped notes "
            "and gives each keeper its content, tags, keywords and links from before.",
            "Undo",
            lambda: self.undo(scope, run.id, None),
        )

    def undo_chosen_merge(
        self, scope: AgentScope, run: ConsolidationRun | None, keeper: str | None
    ) -> None:
        """``m``: undo the merge chosen in the list of the run the detail view shows
        (``keeper``: the chosen merge, None when none is)."""
        if run is None:
            self.app.notify(
                "Select a run in the consolidation history first (Tab to it): its merges "
                "are listed in the detail view.",
                markup=False,
            )
            return
        blocker = merge_undo_blocker(run)
        if blocker is not None:
            self.app.notify(blocker, markup=False)
            return
        if keeper is None:
            self.app.notify(
                "This run has several merges: choose one in the list of merges beside the "
                "run (Tab to it, arrows), then press Enter.",
                markup=False,
            )
            return
        self.undo_one_merge(scope, run, keeper)

    def undo_one_merge(
        self, scope: AgentScope, run: ConsolidationRun | None, keeper: str | None
    ) -> None:
        """Undo the merge of ``run`` into ``keeper``, once the user confirms."""
        if run is None or keeper is None:
            self.app.notify(
                "Select a run in the consolidation history first (its merges are listed "
                "in the detail view).",
                markup=False,
            )
            return
        if run.dry_run:
            self.app.notify(NOTHING_TO_UNDO, markup=False)
            return
        merge = next((m for m in run.merges if m.keeper == keeper), None)
        if merge is None:
            return
        confirm_then(
            self.app,
            "Undo this merge?",
            f"Run {run.id}, merge into {merge.keeper}: "
            f"{restored_phrase(len(merge.dropped))} and the keeper gets back its content, "
            "tags, keywords and "
            "links from before. The run's other merges stay. Refused if the keeper "
            f"changed since.\n\nkeeper: {one_line(merge.content_before, 70)}",
            "Undo merge",
            lambda: self.undo(scope, run.id, merge.keeper),
        )

    @work(thread=True, exit_on_error=False, group="write")
    def undo(self, scope: AgentScope, run_id: str, keeper: str | None) -> None:
        """Undo a whole run, or only its merge into ``keeper``; report what was undone."""
        undo_run = self.engine.agent(scope).undo(run_id, keeper)
        recorded = f"(recorded as undo run {undo_run.id})"
        activity = self._own(undo_run)
        if keeper is None:
            self.post_message(
                ActionDone(
                    f"Undid consolidation run {run_id} {recorded}", run=run_id, activity=activity
                )
            )
        else:
            self.post_message(
                ActionDone(
                    f"Undid the merge into {keeper} of run {run_id} {recorded}",
                    keeper,
                    run_id,
                    activity=activity,
                )
            )

    @staticmethod
    def _own(run: ConsolidationRun) -> Activity:
        """A run made in this app, in the activity log's words."""
        from amem_tui.engine.for_apps import Activity, run_activity

        said = run_activity(run)
        return Activity(said.kind, f"{said.text}, here", said.note_id, said.highlight)
