"""Changing the consolidation history: preview and apply a consolidation of the agent,
undo a run or one merge of it. It draws nothing.

Each asks first (a dialog), then calls the engine in a worker and reports the outcome
as a message that goes on up: ``ActionDone`` (the screen says it and reloads),
``ConsolidationProgress`` and ``ConsolidationFinished`` (the history pane reloads its
runs meanwhile, the browser moves its bar). It sits in the history pane, whose agent it
follows (``agent``, bound to the pane's).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual import work
from textual.message import Message
from textual.reactive import var
from textual.widget import Widget

from amem_tui.tui.dialogs.confirm import confirm_then
from amem_tui.tui.messages import ActionDone, ConsolidationFinished, ConsolidationProgress
from amem_tui.tui.text import one_line
from amem_tui.tui.workers import ReportsWorkerFailures
from amem_tui.wording import plural

if TYPE_CHECKING:
    from rich.text import Text

    from amem_tui.engine import AgentScope, ConsolidationPlan, ConsolidationRun, MemoryEngine
    from amem_tui.engine.for_apps import Activity

NOTHING_TO_UNDO = "A dry run changed nothing: there is nothing to undo."


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


class RunWriter(ReportsWorkerFailures, Widget):
    """Consolidates the agent and undoes its runs, each once the user agrees."""

    DEFAULT_CSS = """
    RunWriter { display: none; }
    """

    @dataclass
    class PreviewReady(Message):
        """A consolidation plan is ready to preview (and, if the user says so, apply)."""

        scope: AgentScope
        plan: ConsolidationPlan

    #: The agent whose runs are shown (the history pane's); a preview for another
    #: agent, which the user switched away from meanwhile, is dropped.
    agent: var[str | None] = var(None)

    def __init__(self, engine: MemoryEngine, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.engine = engine
        #: True while a consolidation is being applied.
        self.busy = False

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
        self.post_message(self.PreviewReady(scope, plan))

    def on_run_writer_preview_ready(self, message: PreviewReady) -> None:
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
        from amem_tui.tui.what_if_text import work_out
        from amem_tui.tui.widgets.search_history import checks_file

        return work_out(self.engine, Consolidate(plan), checks_file(self, self.engine))

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

    def on_consolidation_finished(self) -> None:
        """Consolidation may run again (the message goes on up)."""
        self.busy = False

    # ------------------------------------------------------------------ undo
    def undo_run(self, scope: AgentScope, run: ConsolidationRun | None) -> None:
        """Undo ``run`` (the one under the history's cursor), once the user confirms."""
        if run is None:
            self.app.notify("Select a run in the consolidation history first.", markup=False)
            return
        if run.dry_run:
            self.app.notify(NOTHING_TO_UNDO, markup=False)
            return
        confirm_then(
            self.app,
            "Undo this consolidation run?",
            f"Run {run.id} merged {plural(len(run.merges), 'group')}. Undo restores the "
            "dropped notes and gives each keeper its content, tags, keywords and links from "
            "before.",
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
            said = f"Undid consolidation run {run_id} {recorded}"
            self.post_message(ActionDone(said, run=run_id, activity=activity))
        else:
            said = f"Undid the merge into {keeper} of run {run_id} {recorded}"
            self.post_message(ActionDone(said, keeper, run_id, activity=activity))

    @staticmethod
    def _own(run: ConsolidationRun) -> Activity:
        """A run made in this app, in the activity log's words."""
        from amem_tui.engine.for_apps import Activity, run_activity

        said = run_activity(run)
        return Activity(said.kind, f"{said.text}, here", said.note_id, said.highlight)
