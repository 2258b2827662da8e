"""Consolidation: ``consolidate`` an agent's near-duplicate private notes, read the
``history`` of runs, and ``undo`` a run or one of its merges."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from amem_tui.cli.command import Command, NoOptions, UsageError
from amem_tui.cli.output import FLATTEN, shorten

if TYPE_CHECKING:
    from amem_tui.cli.context import Context
    from amem_tui.engine import AgentScope, ConsolidationRun

#: What a dry run says, in its messages and its text: it has no id to undo.
DRY_RUN_MESSAGE = (
    "dry run: nothing was stored, so there is no run to undo or find in history; "
    "run without --dry-run to merge"
)


# --------------------------------------------------------------- consolidate
def consolidate_arguments(parser: argparse.ArgumentParser) -> None:
    """``consolidate [--dry-run] [--threshold X]``."""
    parser.add_argument(
        "--dry-run", action="store_true", help="show the planned merges, change nothing"
    )
    parser.add_argument("--threshold", type=float, default=None, help="cosine similarity, 0-1")


@dataclass(frozen=True)
class ConsolidateOptions:
    """``consolidate``: plan only (``--dry-run``), and the similarity to merge at."""

    dry_run: bool
    threshold: float | None


@dataclass(frozen=True)
class Consolidated:
    """A consolidation run (or, for a dry run, the plan) and whether it was stored.

    A dry run is a plan that is never recorded: no ``id`` (``null``), and its
    messages say so first.
    """

    run: ConsolidationRun = field(metadata=FLATTEN)
    id: str | None
    messages: list[str]
    stored: bool


def consolidate(ctx: Context, options: ConsolidateOptions) -> Consolidated:
    """Merge the acting agent's near-duplicate private notes (or plan it with --dry-run)."""
    if options.threshold is not None and not 0.0 < options.threshold <= 1.0:
        raise UsageError("--threshold must be above 0 and at most 1")
    scope = ctx.reading_scope() if options.dry_run else ctx.writing_scope()
    view = ctx.engine.agent(scope)
    if options.dry_run:  # the plan, shown; its id names nothing undo or history could find
        run = view.plan_consolidation(threshold=options.threshold).run
        return Consolidated(run, None, [DRY_RUN_MESSAGE, *run.messages], stored=False)
    # Planned, then that plan applied (after finishing an interrupted run).
    run = view.consolidate(threshold=options.threshold)
    return Consolidated(run, run.id, run.messages, stored=True)


# ------------------------------------------------------------------- history
def history(ctx: Context, _: NoOptions) -> list[ConsolidationRun]:
    """Consolidation runs of one agent (--agent) or of every agent, newest first."""
    agent = ctx.options.agent
    if agent is not None:
        ctx.reading_scope()  # a mistyped --agent is named on stderr
    return ctx.engine.agent(agent).history() if agent is not None else ctx.engine.history()


# ---------------------------------------------------------------------- undo
def undo_arguments(parser: argparse.ArgumentParser) -> None:
    """``undo RUN_ID [--merge KEEPER_ID]``."""
    parser.add_argument("run_id", metavar="RUN_ID")
    parser.add_argument("--merge", metavar="KEEPER_ID", default=None, help="undo only this merge")


@dataclass(frozen=True)
class UndoOptions:
    """``undo``: the run, and (``--merge``) the one merge of it to undo."""

    run_id: str
    merge: str | None


def undo(ctx: Context, options: UndoOptions) -> ConsolidationRun:
    """Revert a consolidation run, or one of its merges with --merge KEEPER_ID."""
    engine = ctx.engine
    if ctx.names_an_agent():
        agent: str | AgentScope = ctx.writing_scope()
    else:  # no acting agent named: the run's own agent undoes it
        owners = [r.agent for r in engine.history() if r.id == options.run_id]
        agent = owners[0] if owners else ctx.acting_agent()
    return engine.agent(agent).undo(options.run_id, options.merge)


# ----------------------------------------------------------------- rendering
def _run_lines(run: ConsolidationRun, run_id: str | None, messages: list[str]) -> list[str]:
    state = "dry run, not stored" if run.dry_run else run.status
    head = (
        f"{run_id or 'plan'}  {run.started_at}  agent {run.agent}  {run.trigger}  "
        f"{state}  threshold {run.threshold:.2f}  {len(run.merges)} merge(s)"
    )
    if run.undoes:
        head += f"  undoes {run.undoes}"
    lines = [head]
    for merge in run.merges:
        flags = []
        if merge.undone:
            flags.append("undone")
        if merge.status != "done" and not run.dry_run:
            flags.append(str(merge.status))
        mark = f" [{', '.join(flags)}]" if flags else ""
        lines.append(
            f"  keep {merge.keeper}  drop {', '.join(merge.dropped)}  "
            f"similarity {merge.similarity:.3f}{mark}"
        )
        lines.append(f"    {shorten(merge.content_after, 70)}")
    lines += [f"  note: {message}" for message in messages]
    return lines


def consolidated_text(result: Consolidated) -> str:
    """The run (or plan): a heading line, then each merge (kept, dropped, merged content)."""
    return "\n".join(_run_lines(result.run, result.id, result.messages))


def run_text(run: ConsolidationRun) -> str:
    """One run: a heading line, then each merge (kept, dropped, merged content)."""
    return "\n".join(_run_lines(run, run.id, run.messages))


def history_text(runs: list[ConsolidationRun]) -> str:
    """Every run as :func:`run_text` shows it, newest first."""
    if not runs:
        return "no consolidation runs"
    return "\n".join(line for run in runs for line in _run_lines(run, run.id, run.messages))


COMMANDS: tuple[Command[Any, Any], ...] = (
    Command(
        "consolidate",
        "merge the agent's near-duplicate private notes",
        handler=consolidate,
        text=consolidated_text,
        arguments=consolidate_arguments,
        options=ConsolidateOptions,
    ),
    Command(
        "history",
        "consolidation runs, newest first (all agents unless --agent)",
        handler=history,
        text=history_text,
        options=NoOptions,
    ),
    Command(
        "undo",
        "revert a consolidation run or one merge",
        handler=undo,
        text=run_text,
        arguments=undo_arguments,
        options=UndoOptions,
    ),
)
