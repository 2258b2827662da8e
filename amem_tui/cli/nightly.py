"""The nightly pass: ``consolidate --all-agents [--due]`` runs it, its progress on stderr
(one line rewritten on a terminal, else a line per agent), and says what it did;
``schedule --print cron|systemd`` prints its schedule (``amem_tui.schedule``)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import model_serializer

from amem_tui.cli.command import Command, Context, FailedWithReport, UsageError
from amem_tui.cli.options import option
from amem_tui.cli.output import LiveLine, sanitize, tell
from amem_tui.engine import AmemError
from amem_tui.schedule import Schedule, Scheduler, instructions, nightly_schedule
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine.for_apps import PassProgress, PassResult
else:
    PassResult = Any  # dumped by the answer's own serializer


@dataclass(frozen=True)
class AllAgentsPass:
    """The pass as the engine answers it, the trigger it recorded, and what to tell."""

    result: PassResult
    trigger: str
    messages: list[str]

    @model_serializer
    def _json(self) -> dict[str, Any]:
        done = self.result
        return {"day": done.day, "slot": done.slot.isoformat(), "ran": done.ran} | {
            "skipped": done.skipped,
            "dry_run": done.dry_run,
            "trigger": self.trigger,
            "agents": done.outcomes(),
            "merges": done.merges,
            "record": done.record,
            "messages": self.messages,
        }


class PassProgressLine(LiveLine):
    """The pass's progress on stderr."""

    def __init__(self, as_json: bool) -> None:
        super().__init__("consolidate", shown=not as_json)
        self.as_json = as_json

    def __call__(self, step: PassProgress) -> None:
        now = time.perf_counter()
        where = f"agent {step.index} of {step.agents}, {step.agent}"
        if self.shown:
            final = step.phase != "merging" or step.done == step.total
            self.show(f"{sanitize(where)}: {step.doing()}", final=final)
            return
        if step.phase not in ("done", "failed"):
            return  # a log gets one line per agent
        facts = {"agent": step.agent, "index": step.index, "agents": step.agents}
        facts |= {"phase": step.phase, "merges": step.total}
        text = f"consolidate: {sanitize(where)}: {step.doing()} [{now - self.started:.0f} s]"
        tell("progress", facts | {"seconds": round(now - self.started, 3)}, text, self.as_json)


def all_agents(ctx: Context, *, due: bool, threshold: float | None, dry_run: bool) -> AllAgentsPass:
    """Consolidate every agent (the nightly pass); refused (exit 75) while another runs it."""
    from amem_tui.engine import NightlyPass

    engine = ctx.engine
    if not dry_run:
        engine.check_writable()
    # --due is what a scheduler (cron, a systemd timer) runs; without it, a person.
    trigger: Literal["scheduled", "manual"] = "scheduled" if due else "manual"
    # What the pass records as having run it.
    nightly = NightlyPass(engine, runner="consolidate --all-agents" + (" --due" if due else ""))
    progress = PassProgressLine(ctx.as_json)
    try:
        result = nightly.run(
            due=due,
            trigger=trigger,
            threshold=threshold,
            dry_run=dry_run,
            progress=progress,
        )
    finally:
        progress.close()
    messages = nightly.said(result)
    recorded = result.record.trigger if result.record is not None else trigger
    found = AllAgentsPass(result, recorded, messages)
    if result.errors:
        failed = (
            f"{plural(len(result.errors), 'agent')} failed ({', '.join(sorted(result.errors))})"
        )
        said = f"the nightly pass finished, but {failed}: see the report on stdout"
        raise FailedWithReport(found, AmemError(said))
    return found


def all_agents_text(answer: AllAgentsPass) -> Iterator[str]:
    """A heading line, one line per agent, then the notes."""
    result = answer.result
    if result.skipped or not (result.ran or result.dry_run):
        yield from answer.messages
        return
    kind = "dry run of the nightly pass" if result.dry_run else "nightly pass"
    agents = result.outcomes()
    yield (
        f"{kind} of {result.day} (the day from {result.slot.isoformat()}): "
        f"{plural(len(agents), 'agent')}, {plural(result.merges, 'merge')}, "
        f"trigger {answer.trigger}"
    )
    for agent in agents:
        if agent.error is not None:
            yield f"  {agent.agent}: failed: {agent.error}"
            continue
        run = "plan" if result.dry_run else f"run {agent.run_id}"
        merges = f"{plural(agent.merges, 'merge')} of {plural(agent.candidates, 'candidate')}"
        yield f"  {agent.agent} ({agent.collection}): {run}, {merges}"
    yield from (f"  note: {message}" for message in answer.messages)


# ------------------------------------------------------------------ schedule
@dataclass(frozen=True)
class ScheduleOptions:
    """``schedule``: which scheduler to print for."""

    print_as: Scheduler = option("--print", default="cron", help="a crontab line, or systemd units")


@Command("schedule", instructions, ScheduleOptions)
def schedule(ctx: Context, options: ScheduleOptions) -> Schedule:
    """Print a crontab line or systemd units that run the nightly pass."""
    from amem_tui.engine import ReadOnlyStore

    if ctx.options.agent or ctx.options.session_key:
        raise UsageError("the nightly pass consolidates every agent: leave out --agent")
    if ctx.settings.read_only:
        raise ReadOnlyStore("a store opened read-only (--read-only) is never consolidated")
    return nightly_schedule(ctx.settings, options.print_as)
