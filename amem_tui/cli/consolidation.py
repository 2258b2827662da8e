"""Consolidation: ``consolidate`` an agent's near-duplicate private notes, read the
``history`` of runs, and ``undo`` a run or one of its merges."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from amem_tui.cli.command import Command, UsageError
from amem_tui.cli.output import shorten

if TYPE_CHECKING:
    from amem_tui.cli.context import Context
    from amem_tui.engine.scope import AgentScope

#: A consolidation run as JSON (``ConsolidationRun.to_json``).
RunJson = dict[str, Any]

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


def consolidate(ctx: Context, args: argparse.Namespace) -> RunJson:
    """Merge the acting agent's near-duplicate private notes (or plan it with --dry-run).

    A dry run is a plan that is never recorded: its answer has no ``id`` (``null``),
    ``"stored": false``, and says so in its messages.
    """
    if args.threshold is not None and not 0.0 < args.threshold <= 1.0:
        raise UsageError("--threshold must be above 0 and at most 1")
    scope = ctx.reading_scope() if args.dry_run else ctx.writing_scope()
    run = ctx.engine.consolidate(scope, dry_run=args.dry_run, threshold=args.threshold)
    data = run.to_json()
    data["stored"] = not run.dry_run
    if run.dry_run:
        data["id"] = None  # the plan's id names nothing undo or history could find
        data["messages"] = [DRY_RUN_MESSAGE, *data.get("messages", [])]
    return data


# ------------------------------------------------------------------- history
def history(ctx: Context, args: argparse.Namespace) -> list[RunJson]:
    """Consolidation runs of one agent (--agent) or of every agent, newest first."""
    agent = getattr(args, "agent", None)
    if agent is not None:
        ctx.reading_scope()  # a mistyped --agent is named on stderr
    return [run.to_json() for run in ctx.engine.history(agent)]


# ---------------------------------------------------------------------- undo
def undo_arguments(parser: argparse.ArgumentParser) -> None:
    """``undo RUN_ID [--merge KEEPER_ID]``."""
    parser.add_argument("run_id", metavar="RUN_ID")
    parser.add_argument("--merge", metavar="KEEPER_ID", default=None, help="undo only this merge")


def undo(ctx: Context, args: argparse.Namespace) -> RunJson:
    """Revert a consolidation run, or one of its merges with --merge KEEPER_ID."""
    engine = ctx.engine
    if ctx.names_an_agent():
        agent: str | AgentScope = ctx.writing_scope()
    else:  # no acting agent named: the run's own agent undoes it
        owners = [r.agent for r in engine.history() if r.id == args.run_id]
        agent = owners[0] if owners else ctx.acting_agent()
    return engine.undo(agent, args.run_id, args.merge).to_json()


# ----------------------------------------------------------------- rendering
def _run_lines(data: RunJson) -> list[str]:
    state = data["status"]
    if data.get("dry_run"):
        state = "dry run, not stored"
    run_id = data["id"] or "plan"
    head = (
        f"{run_id}  {data['started_at']}  agent {data['agent']}  {data['trigger']}  "
        f"{state}  threshold {data['threshold']:.2f}  {len(data['merges'])} merge(s)"
    )
    if data.get("undoes"):
        head += f"  undoes {data['undoes']}"
    lines = [head]
    for merge in data["merges"]:
        flags = []
        if merge.get("undone"):
            flags.append("undone")
        if merge.get("status") not in (None, "done") and not data.get("dry_run"):
            flags.append(str(merge["status"]))
        mark = f" [{', '.join(flags)}]" if flags else ""
        lines.append(
            f"  keep {merge['keeper']}  drop {', '.join(merge['dropped'])}  "
            f"similarity {merge['similarity']:.3f}{mark}"
        )
        lines.append(f"    {shorten(merge['content_after'], 70)}")
    lines += [f"  note: {m}" for m in data.get("messages", [])]
    return lines


def run_text(data: RunJson) -> str:
    """One run: a heading line, then each merge (kept, dropped, merged content)."""
    return "\n".join(_run_lines(data))


def history_text(data: list[RunJson]) -> str:
    """Every run as :func:`run_text` shows it, newest first."""
    if not data:
        return "no consolidation runs"
    return "\n".join(line for run in data for line in _run_lines(run))


COMMANDS: tuple[Command[Any], ...] = (
    Command(
        "consolidate",
        "merge the agent's near-duplicate private notes",
        handler=consolidate,
        text=run_text,
        arguments=consolidate_arguments,
    ),
    Command(
        "history",
        "consolidation runs, newest first (all agents unless --agent)",
        handler=history,
        text=history_text,
    ),
    Command(
        "undo",
        "revert a consolidation run or one merge",
        handler=undo,
        text=run_text,
        arguments=undo_arguments,
    ),
)
