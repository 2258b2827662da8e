"""Subcommands ``consolidate``, ``history`` and ``undo`` (registered on import)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from amem_tui import cli
from amem_tui.cli import Context, UsageError, command
from amem_tui.engine.models import ConsolidationRun


def _short(text: str, width: int = 70) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _run_lines(data: dict[str, Any]) -> list[str]:
    state = data["status"]
    if data.get("dry_run"):
        state = "dry run"
    when = data["started_at"]
    head = (
        f"{data['id']}  {when}  agent {data['agent']}  {data['trigger']}  {state}  "
        f"threshold {data['threshold']:.2f}  {len(data['merges'])} merge(s)"
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
        lines.append(f"    {_short(merge['content_after'])}")
    lines += [f"  note: {m}" for m in data.get("messages", [])]
    return lines


def _one_run_text(data: dict[str, Any]) -> str:
    return "\n".join(_run_lines(data))


def _history_text(data: list[dict[str, Any]]) -> str:
    if not data:
        return "no consolidation runs"
    return "\n".join(line for run in data for line in _run_lines(run))


def _as_json(run: ConsolidationRun) -> dict[str, Any]:
    return run.to_json()


@command("consolidate", _one_run_text)
def cmd_consolidate(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """Merge the acting agent's near-duplicate private notes (or plan it with --dry-run)."""
    if args.threshold is not None and not 0.0 < args.threshold <= 1.0:
        raise UsageError("--threshold must be above 0 and at most 1")
    agent = ctx.engine.scope().agent
    run = ctx.engine.consolidate(agent, dry_run=args.dry_run, threshold=args.threshold)
    return _as_json(run)


@command("history", _history_text)
def cmd_history(ctx: Context, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Consolidation runs of one agent (--agent) or of every agent, newest first."""
    agent = getattr(args, "agent", None)
    return [_as_json(run) for run in ctx.engine.history(agent)]


@command("undo", _one_run_text)
def cmd_undo(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """Revert a consolidation run, or one of its merges with --merge KEEPER_ID."""
    engine = ctx.engine
    if ctx.settings.agent or ctx.settings.session_key:
        agent = engine.scope().agent
    else:  # no acting agent named: the run's own agent undoes it
        owners = [r.agent for r in engine.history() if r.id == args.run_id]
        agent = owners[0] if owners else engine.scope().agent
    return _as_json(engine.undo(agent, args.run_id, args.merge))


def _extend(sub: Any, add: Callable[[str, str], argparse.ArgumentParser]) -> None:
    p = add("consolidate", "merge the agent's near-duplicate private notes")
    p.add_argument("--dry-run", action="store_true", help="show the planned merges, change nothing")
    p.add_argument("--threshold", type=float, default=None, help="cosine similarity, 0-1")
    add("history", "consolidation runs, newest first (all agents unless --agent)")
    p = add("undo", "revert a consolidation run or one merge")
    p.add_argument("run_id", metavar="RUN_ID")
    p.add_argument("--merge", metavar="KEEPER_ID", default=None, help="undo only this merge")


cli.EXTENSIONS.append(_extend)
