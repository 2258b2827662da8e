"""Consolidation: ``consolidate`` an agent's near-duplicate private notes, read the
``history`` of runs, and ``undo`` a run or one of its merges."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import model_serializer

from amem_tui.cli.command import Command, Context, NoOptions, UsageError
from amem_tui.cli.isolation import CHECKS_HELP, what_if_text
from amem_tui.cli.nightly import AllAgentsPass, all_agents, all_agents_text
from amem_tui.cli.options import flag, option
from amem_tui.cli.output import Omitted, Run, decision_words, flattened, shorten
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine import AgentScope, ConsolidationRun, WhatIf
else:
    WhatIf = Any  # a model dumped as itself: see output.emit

#: What a dry run says, in its messages and its text: it has no id to undo.
DRY_RUN_MESSAGE = (
    "dry run: nothing was stored, so there is no run to undo or find in history; "
    "run without --dry-run to merge"
)


# ----------------------------------------------------------------- rendering
def _merge_lines(run: ConsolidationRun) -> Iterator[str]:
    for merge in run.merges:
        flags = ["undone"] if merge.undone else []
        if merge.status != "done" and not run.dry_run:
            flags.append(str(merge.status))
        mark = f" [{', '.join(flags)}]" if flags else ""
        dropped = ", ".join(merge.dropped)
        yield f"  keep {merge.keeper}  drop {dropped}  similarity {merge.similarity:.3f}{mark}"
        yield f"    {shorten(merge.content_after, 70)}"


def _run_lines(run: ConsolidationRun, run_id: str | None, messages: list[str]) -> Iterator[str]:
    """A heading, then each merge or the conflict decision the run records, then notes."""
    state = "dry run, not stored" if run.dry_run else run.status
    decision = run.settles
    if decision is None:
        state += f"  threshold {run.threshold:.2f}  {plural(len(run.merges), 'merge')}"
    elif any(merge.undone for merge in run.merges):
        state += ", undone"
    head = f"{run_id or 'plan'}  {run.started_at}  agent {run.agent}  {run.trigger}  {state}"
    yield head + (f"  undoes {run.undoes}" if run.undoes else "")
    if decision is None:
        yield from _merge_lines(run)
    else:
        what = decision_words(decision.keep, decision.a, decision.b)
        yield f"  taken back: {what}" if run.undoes else f"  {what}"
        for label, why in (("flagged", decision.conflict_reason), ("decided", decision.reason)):
            if why:
                yield f"    {label}: {shorten(why, 70)}"
    yield from (f"  note: {message}" for message in messages)


def consolidated_text(result: Consolidated | AllAgentsPass) -> Iterator[str]:
    """The run (or plan): a heading line, then each merge, then its notes."""
    if isinstance(result, AllAgentsPass):
        yield from all_agents_text(result)
        return
    yield from _run_lines(result.run, result.id, result.messages)
    if result.what_if is not None:
        yield from what_if_text(result.what_if)


def history_text(runs: RunList) -> Iterator[str]:
    """Every run as ``consolidated_text`` shows it, newest first."""
    if not runs.runs:
        yield "no consolidation runs"
    for run in runs.runs:
        yield from _run_lines(run, run.id, run.messages)


# --------------------------------------------------------------- consolidate
@dataclass(frozen=True)
class ConsolidateOptions:
    """``consolidate``'s options."""

    dry_run: bool = flag("--dry-run", help="show the planned merges, change nothing")
    checks: str | None = option("--checks", metavar="FILE", help=CHECKS_HELP)
    threshold: float | None = option("--threshold", help="cosine similarity, 0-1")
    all_agents: bool = flag("--all-agents", help="the nightly pass: every agent")
    due: bool = flag("--due", help="with --all-agents: only if today's pass has not run")

    def __post_init__(self) -> None:
        if self.threshold is not None and not 0.0 < self.threshold <= 1.0:
            raise UsageError("--threshold must be above 0 and at most 1")
        if self.due and not self.all_agents:
            raise UsageError(
                "--due goes with --all-agents (it skips a day's pass that already ran)"
            )
        if self.due and self.dry_run:
            raise UsageError("--due decides whether to run; a --dry-run runs nothing: use one")
        if self.checks is not None and (not self.dry_run or self.all_agents):
            raise UsageError("--checks goes with --dry-run, for one agent's consolidation")


@dataclass(frozen=True)
class Consolidated:
    """A consolidation run (a dry run's plan, with no ``id``; an undo's run) and
    whether it was stored."""

    run: Run
    id: str | None
    messages: list[str]
    stored: Omitted[bool] = None
    what_if: Omitted[WhatIf] = None
    _json = flattened("run")


@dataclass(frozen=True)
class RunList:
    """Consolidation runs, newest first: a JSON array."""

    runs: list[Run]

    @model_serializer
    def _json(self) -> list[Run]:
        return self.runs


@Command("consolidate", consolidated_text, ConsolidateOptions)
def consolidate(ctx: Context, options: ConsolidateOptions) -> Consolidated | AllAgentsPass:
    """Merge the agent's near-duplicate private notes (every agent's: --all-agents)."""
    if options.all_agents:
        if ctx.options.agent or ctx.options.session_key:
            raise UsageError(
                "--all-agents consolidates every agent: leave out --agent/--session-key"
            )
        return all_agents(
            ctx, due=options.due, threshold=options.threshold, dry_run=options.dry_run
        )
    view = ctx.reader() if options.dry_run else ctx.writer()
    if options.dry_run:  # the plan, shown; its id names nothing undo or history could find
        from amem_tui.engine.for_apps import Consolidate

        plan = view.plan_consolidation(threshold=options.threshold)
        what_if = None
        if options.checks is not None or ctx.settings.checks_file is not None:
            what_if = ctx.engine.what_if(Consolidate(plan), checks=options.checks)
        messages = [DRY_RUN_MESSAGE, *plan.run.messages]
        return Consolidated(plan.run, None, messages, stored=False, what_if=what_if)
    # Planned, then that plan applied (after finishing an interrupted run).
    run = view.consolidate(threshold=options.threshold)
    return Consolidated(run, run.id, run.messages, stored=True)


# ------------------------------------------------------------------- history
@Command("history", history_text, reads=True)
def history(ctx: Context, _: NoOptions) -> RunList:
    """Consolidation runs, newest first (all agents unless --agent)."""
    agent = ctx.options.agent
    if agent is None:
        return RunList(ctx.engine.history())
    ctx.reading_scope()  # a mistyped --agent is named on stderr
    return RunList(ctx.engine.agent(agent).history())


# ---------------------------------------------------------------------- undo
@dataclass(frozen=True)
class UndoOptions:
    """``undo``: the run, and (``--merge``) the one merge of it to undo."""

    run_id: str = option(metavar="RUN_ID", help="the run's id, or the start of it")
    merge: str | None = option("--merge", metavar="KEEPER_ID", help="only the merge keeping it")


def _merge_named(run: ConsolidationRun, given: str) -> str:
    """The keeper id of ``run``'s merge that ``given`` names (or ``given`` itself, for
    the engine to refuse when no merge has it)."""
    from amem_tui.engine.for_apps import AmbiguousId

    found = run.keepers_named(given)
    if len(found) > 1:
        raise AmbiguousId(
            f"--merge '{given}' is the start of {len(found)} kept notes of run {run.id}: "
            f"{', '.join(found)}; give more of the id",
            found,
        )
    return found[0] if found else given


@Command("undo", consolidated_text, UndoOptions)
def undo(ctx: Context, options: UndoOptions) -> Consolidated:
    """Revert a consolidation run or one merge."""
    engine = ctx.engine
    if not options.run_id.strip():
        raise UsageError("undo needs a run id, or the start of one (see history)")
    run = engine.run_named(options.run_id)
    run_id = run.id if run is not None else options.run_id  # unknown: the engine says so
    merge = options.merge
    if run is not None and merge is not None:
        merge = _merge_named(run, merge)
    if ctx.settings.agent or ctx.settings.session_key:
        agent: str | AgentScope = ctx.writing_scope()
    else:  # no acting agent named: the run's own agent undoes it
        agent = run.agent if run is not None else engine.scope().agent
    done = engine.agent(agent).undo(run_id, merge)
    return Consolidated(done, done.id, done.messages)
