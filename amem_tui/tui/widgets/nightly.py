"""The nightly pass, run by the inspector while it is open, and the truth about it.

A line at the foot of the history pane says when the next nightly pass runs and what
runs it: this inspector, at the configured time (``consolidation_time``), as
openclaw-amem runs its own pass in its process; or, on a read-only store, nothing here,
with the commands that would. It also says what the store records of the last pass
(its day, and who ran it: a scheduled job, an inspector, a person).

The pass is the engine's (``ConsolidationScheduler``: every
agent, once a day, under the run lock kept in the store, so a day's pass that cron or
another machine already ran, or is running, is left alone), recorded with the trigger
``nightly``. A Textual timer of this widget asks the scheduler, with the engine's
clock, whether the time has come; the pass runs in a worker of this widget and its
progress shows on the line (a burst of progress messages costs one repaint).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.message import Message
from textual.widgets import Static
from textual.worker import get_current_worker

from amem_tui.tui.messages import ActionDone
from amem_tui.tui.workers import ReportsWorkerFailures
from amem_tui.wording import plural

if TYPE_CHECKING:
    from datetime import datetime

    from amem_tui.engine import MemoryEngine
    from amem_tui.engine.for_apps import (
        ConsolidationScheduler,
        Holder,
        PassProgress,
        PassRecord,
        PassResult,
    )

#: Seconds between two looks at the clock (the scheduler's own thread waits up to 60).
CHECK_INTERVAL = 30.0
#: What the store records as having run a pass the inspector ran.
RUNNER = "the amem-tui inspector"
#: The commands that run the pass, and that schedule it, when nothing here does.
RUN_COMMAND = "amem-tui consolidate --all-agents --due"
SCHEDULE_COMMAND = "amem-tui schedule --print cron"


def who_ran(record: PassRecord) -> str:
    """Who ran a recorded pass, as far as the record tells: ``consolidate --all-agents
    --due (a scheduled job) on host db1``."""
    kind = " (a scheduled job)" if record.trigger == "scheduled" else ""
    return f"{record.runner}{kind} on host {record.host}"


def last_said(record: PassRecord) -> str:
    """The last pass recorded: its day, who ran it, and whether it finished."""
    states = {
        "done": "",
        "stopped": f" (stopped after {plural(len(record.agents), 'agent')})",
    }
    state = states.get(record.status, " (still running, or stopped)")
    return f"last pass {record.day}{state}, by {who_ran(record)}"


def progress_said(step: PassProgress) -> str:
    """``nightly pass running: agent 2 of 3 (dev), merging 3/5``."""
    where = f"agent {step.index} of {step.agents} ({step.agent})"
    return f"Nightly pass running: {where}, {step.doing()}"


def pass_said(result: PassResult) -> str:
    """What a pass the inspector ran did."""
    said = (
        f"Nightly pass of {result.day}: {plural(len(result.runs), 'agent')} consolidated, "
        f"{plural(result.merges, 'merge')} (trigger nightly)"
    )
    if result.errors:
        said += f"; failed: {', '.join(sorted(result.errors))}"
    return said


class NightlyWatch(ReportsWorkerFailures, Static):
    """Runs the nightly pass at its time while the inspector is open, and says when the
    next one runs and by what (or that nothing here runs it, and how to)."""

    DEFAULT_CSS = """
    NightlyWatch { height: auto; padding: 0 1; color: $text-muted; }
    """

    @dataclass
    class Progress(Message):
        """Where the running pass is; a newer one replaces it while both wait."""

        step: PassProgress

        def can_replace(self, message: Message) -> bool:
            """Only the newest step is worth drawing."""
            return isinstance(message, NightlyWatch.Progress)

    @dataclass
    class Finished(Message):
        """The pass ended: what it did (None: it did not run), or who holds it."""

        result: PassResult | None
        busy: Holder | None

    @dataclass
    class Known(Message):
        """The last pass the store records (None: none yet)."""

        last: PassRecord | None

    @dataclass
    class Changed(Message):
        """When the next pass runs changed (the pane's subtitle says it)."""

    def __init__(self, engine: MemoryEngine, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.engine = engine
        #: The scheduler this inspector runs (None: none, on a read-only store).
        self.scheduler: ConsolidationScheduler | None = None
        #: The last pass the store records, once read.
        self.last: PassRecord | None = None
        #: The step of the pass running here now (None: none runs).
        self.step: PassProgress | None = None
        #: True from the moment the pass is started until it ends.
        self.running = False
        #: Who held the run lock when the pass was last due (another process ran it).
        self.busy: Holder | None = None
        #: Why no pass can be scheduled (a bad configured time), if so.
        self.problem: str | None = None
        #: The last pass found no agent to consolidate (a store of mem0 memories only).
        self.nothing_to_do = False
        #: How many times the watch looked at the clock.
        self.checks = 0

    def on_mount(self) -> None:
        from amem_tui.engine import AmemError
        from amem_tui.engine.for_apps import ConsolidationScheduler

        if not self.engine.read_only:
            try:
                self.scheduler = ConsolidationScheduler(self.engine, runner=RUNNER)
            except AmemError as exc:  # a bad time in the configuration: said, not fatal
                self.problem = str(exc)
        self.show_state()
        if self.scheduler is not None:
            self.set_interval(CHECK_INTERVAL, self.check, name="nightly-pass")
        self.look()

    # ------------------------------------------------------------------ state
    @property
    def next_run(self) -> datetime | None:
        """When this inspector runs the next pass (None: it does not)."""
        return self.scheduler.next_run_time() if self.scheduler is not None else None

    def line(self) -> str:
        """What the widget says now."""
        if self.running and self.step is not None:
            return progress_said(self.step)
        if self.problem is not None:
            return f"Nightly pass not scheduled: {self.problem}"
        if self.nothing_to_do:
            return "Nightly pass: no agent to consolidate (mem0 memories are never consolidated)"
        at = self.next_run
        last = self.last
        if at is not None:
            said = f"Next nightly pass {at.strftime('%H:%M')}, by this inspector (while open)"
            if self.busy is not None:
                said += f"; today's was run elsewhere: {self.busy.describe()}"
            return said + (f"; {last_said(last)}" if last is not None else "")
        if last is not None and last.trigger == "scheduled":
            return (
                f"Nightly pass {self.engine.settings.consolidation_time}: not by this "
                f"inspector (read-only); {last_said(last)}"
            )
        said = "Nightly pass not scheduled here (read-only)"
        if last is not None:
            said += f"; {last_said(last)}"
        return f"{said}. Run it: {RUN_COMMAND}; every night: {SCHEDULE_COMMAND}"

    def show_state(self) -> None:
        """Draw ``line``."""
        self.update(Text(self.line()))

    # -------------------------------------------------------------- the pass
    def check(self) -> None:
        """Start the pass if its time has come (a look at the clock; nothing else)."""
        self.checks += 1
        if self.scheduler is None or self.running or not self.scheduler.is_due():
            return
        self.running = True
        self.run_pass(self.scheduler)

    @work(thread=True, exclusive=True, exit_on_error=False, group="nightly")
    def run_pass(self, scheduler: ConsolidationScheduler) -> None:
        """Run the day's pass for every agent (nothing if it ran or runs elsewhere).

        Quitting cancels this worker: the pass then ends before its next agent (the
        app would otherwise wait for every agent), and is recorded as stopped, so the
        next ``--due`` pass runs the day again.
        """
        from amem_tui.engine import AmemError

        worker = get_current_worker()

        def progress(step: PassProgress) -> None:
            self.post_message(self.Progress(step))

        scheduler.last_result = None
        try:
            scheduler.run_due(progress=progress, stop=lambda: worker.is_cancelled)
        finally:
            self.post_message(self.Finished(scheduler.last_result, scheduler.last_busy))
        failure = scheduler.last_errors.get("")
        if failure is not None:  # the pass could not run at all: the one handler says it
            raise AmemError(f"the nightly pass did not run: {failure}")

    def on_nightly_watch_progress(self, message: NightlyWatch.Progress) -> None:
        message.stop()
        self.step = message.step
        self.show_state()

    def on_nightly_watch_finished(self, message: NightlyWatch.Finished) -> None:
        message.stop()
        self.running, self.step, self.busy = False, None, message.busy
        result = message.result
        if result is not None and result.record is not None:
            self.last = result.record
        self.nothing_to_do = result is not None and not (result.ran or result.skipped)
        self.show_state()
        self.post_message(self.Changed())
        if message.busy is not None:
            self.app.notify(
                f"The nightly pass runs elsewhere: {message.busy.describe()}.", markup=False
            )
        elif result is not None and result.skipped and result.record is not None:
            self.app.notify(
                f"The nightly pass of {result.day} already ran, by "
                f"{who_ran(result.record)}: nothing was done.",
                markup=False,
            )
        elif result is not None and result.ran:
            self.post_message(ActionDone(pass_said(result)))

    # ------------------------------------------------------------- the record
    @work(thread=True, exclusive=True, exit_on_error=False, group="nightly-record")
    def look(self) -> None:
        """Read the last pass the store records (an optional line: a failure says nothing)."""
        from amem_tui.engine import AmemError, NightlyPass

        try:
            records = NightlyPass(self.engine).records()
        except AmemError:
            return
        self.post_message(self.Known(records[0] if records else None))

    def on_nightly_watch_known(self, message: NightlyWatch.Known) -> None:
        message.stop()
        if message.last is not None and (self.last is None or not self.running):
            self.last = message.last
            self.show_state()
