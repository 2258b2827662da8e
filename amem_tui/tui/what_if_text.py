"""What a change would do (``engine.what_if``), as a confirm dialog says it: the checks
that would flip, and the recent queries whose top 5 would move (the CLI's ``--dry-run``
says the same)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from amem_tui.tui.text import one_line

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from amem_tui.engine import MemoryEngine, WhatIf
    from amem_tui.engine.for_apps import Change

COMPUTING = "What it would do: computing…"


def work_out(engine: MemoryEngine, change: Change, checks: Path | None) -> Callable[[], Text]:
    """What ``change`` would do to the checks in ``checks`` and every agent's recent
    queries, said as ``what_if_text`` says it: for a dialog's worker to run."""

    def run() -> Text:
        return what_if_text(engine.what_if(change, checks=checks))

    return run


def what_if_text(result: WhatIf) -> Text:
    """The flips and the moves, one line each (nothing moved: it says so)."""
    out = Text("What it would do", style="bold")
    if result.checks_before is not None:
        total = len(result.checks_before.verdicts)
        source = result.checks_before.source
        out.append(f"\nchecks in {source} that would flip: {len(result.flips)} of {total}")
        for flip in result.flips:
            turn = "holds → fails" if flip.before else "fails → holds"
            style = "red" if flip.before else "green"
            out.append(f"\n  #{flip.number} {one_line(flip.name, 50)}: ")
            out.append(turn, style=style)
    moved = result.changed
    out.append(f"\nrecent queries whose top 5 would change: {len(moved)} of {len(result.deltas)}")
    for delta in moved:
        out.append(f"\n  {delta.agent} searches {one_line(delta.query, 40)!r}")
        if delta.filters():
            out.append(f" ({one_line(delta.filters(), 40)})")
        if delta.entered:
            out.append(f"\n    enters: {', '.join(delta.entered)}", style="yellow")
        if delta.left:
            out.append(f"\n    leaves: {', '.join(delta.left)}", style="yellow")
    if not result.deltas and result.checks_before is None:
        out.append("\n  (no recent queries yet: searches are kept as you make them)", style="dim")
    return out
