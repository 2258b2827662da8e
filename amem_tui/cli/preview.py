"""``--dry-run [--checks FILE]`` on the commands that change who reads what: which
checks would flip, and which recent queries' top 5 would move (``engine.what_if``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from amem_tui.cli.command import Context, UsageError
from amem_tui.cli.options import flag, option
from amem_tui.cli.output import count_of

if TYPE_CHECKING:
    from amem_tui.engine import WhatIf
    from amem_tui.engine.for_apps import Change

DRY_RUN_HELP = "write nothing: say what the change would move"
CHECKS_HELP = "with --dry-run: memory checks the change may flip"


@dataclass(frozen=True, kw_only=True)
class PreviewOptions:
    """``--dry-run`` and ``--checks`` (keyword-only: positional arguments may follow)."""

    dry_run: bool = flag("--dry-run", help=DRY_RUN_HELP)
    checks: str | None = option("--checks", metavar="FILE", help=CHECKS_HELP)

    def __post_init__(self) -> None:
        if self.checks is not None and not self.dry_run:
            raise UsageError("--checks goes with --dry-run: a change that is made runs no checks")


def preview(ctx: Context, change: Change, checks: str | None) -> WhatIf:
    """What ``change`` would do, nothing written."""
    queries = ctx.engine.query_history().everyone()
    return ctx.engine.what_if(change, checks=checks, queries=queries)


def what_if_text(result: WhatIf) -> str:
    """The change, the checks that would flip, the recent queries whose top 5 moves."""
    lines = [f"dry run: {result.change}; nothing was written"]
    if (run := result.checks_before) is not None:
        lines.append(
            f"checks in {run.source} that would flip: {len(result.flips)} of {len(run.verdicts)}"
        )
        for flip in result.flips:
            turn = "holds -> fails" if flip.before else "fails -> holds"
            lines.append(
                f"  #{flip.number} {flip.name}: {turn} ({flip.agent} searches {flip.query!r})"
            )
            lines += [f"      - {failure}" for failure in flip.failures]
    moved = result.changed
    changed = count_of(len(moved), len(result.deltas), "query", "queries")
    lines.append(f"recent queries whose top 5 would change: {changed}")
    for delta in moved:
        filters = f" ({delta.filters()})" if delta.filters() else ""
        lines.append(f"  {delta.agent} searches {delta.query!r}{filters}")
        if delta.entered:
            lines.append(f"      enters: {', '.join(delta.entered)}")
        if delta.left:
            lines.append(f"      leaves: {', '.join(delta.left)}")
    lines += [f"  not re-run: {skipped}" for skipped in result.skipped]
    return "\n".join(lines)
