"""``schedule --print cron|systemd``: the nightly pass's schedule (``amem_tui.schedule``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from amem_tui.cli.command import Command, UsageError
from amem_tui.cli.options import option
from amem_tui.schedule import Schedule, Scheduler, instructions, nightly_schedule

if TYPE_CHECKING:
    from amem_tui.cli.context import Context


@dataclass(frozen=True)
class ScheduleOptions:
    """``schedule``: which scheduler to print for."""

    print_as: Scheduler = option("--print", default="cron", help="a crontab line, or systemd units")


def schedule(ctx: Context, options: ScheduleOptions) -> Schedule:
    """Print a crontab line or systemd units that run the nightly pass."""
    from amem_tui.engine import ReadOnlyStore

    if ctx.options.agent or ctx.options.session_key:
        raise UsageError("the nightly pass consolidates every agent: leave out --agent")
    if ctx.settings.read_only:
        raise ReadOnlyStore("a store opened read-only (--read-only) is never consolidated")
    return nightly_schedule(ctx.settings, options.print_as)


COMMANDS: tuple[Command[Any, Any], ...] = (
    Command("schedule", schedule, instructions, ScheduleOptions),
)
