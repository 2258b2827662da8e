"""``health``: whether memory is being written and kept well; exit 1 on a problem at
``--fail-on`` or worse, the report printed either way."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from amem_tui.cli.command import Command, Context, FailedWithReport
from amem_tui.cli.options import option
from amem_tui.cli.output import finding_lines, section, shorten
from amem_tui.engine import AmemError
from amem_tui.wording import first_of, plural

if TYPE_CHECKING:
    from amem_tui.engine import HealthReport
    from amem_tui.engine.for_apps import AgentHealth, Problem

#: The engine's ``Severity``, spelled here: parsing loads no engine module.
FailOn = Literal["info", "warning", "error"]
#: Note ids a problem's line shows (``--json`` has up to 200, and the count).
IDS_SHOWN = 3


@dataclass(frozen=True)
class HealthOptions:
    """``health``: the severity from which the command fails."""

    fail_on: FailOn = option("--fail-on", default="warning", help="exit 1 from this severity")


class HealthProblems(AmemError):
    """Problems at or above ``--fail-on`` (exit 1): the report was printed."""


def _agent_line(agent: AgentHealth, days: int) -> str:
    last = agent.last_write.replace("T", " ")[:16] if agent.last_write else "never"
    recent = sum(agent.writes_per_day)
    return (
        f"{agent.agent:<12} last write {last:<16}  "
        f"{plural(recent, 'write')} in {days} days  {agent.silence}"
    )


def _problem_lines(problem: Problem) -> list[str]:
    who = problem.agent or problem.collection or "store"
    details = (
        [f"notes: {first_of(problem.notes, IDS_SHOWN, problem.count)}"] if problem.notes else []
    )
    details += [f"file: {problem.path}"] if problem.path else []
    return finding_lines(problem.severity, f"{problem.kind:<20} {who}: {problem.why}", details)


def health_text(report: HealthReport) -> Iterator[str]:
    """The agents, the problems worst first, what was not checked, the side files."""
    yield f"health at {report.at}"
    yield from section("agents", [_agent_line(a, len(report.days)) for a in report.agents.values()])
    yield f"problems ({len(report.problems)})" if report.problems else "problems: none"
    for problem in report.problems:
        yield from _problem_lines(problem)
    unchecked = {kind: check for kind, check in report.checks.items() if check.state in UNCHECKED}
    if unchecked:
        yield "not checked"
        for kind, check in unchecked.items():
            yield f"  {kind}: {check.state}: {shorten(check.detail, 120)}"
    yield "side files"
    for side in report.side_files:
        detail = f": {shorten(side.detail, 100)}" if side.detail else ""
        yield f"  {side.name}: {side.state} ({side.path}){detail}"


@Command("health", health_text, HealthOptions, reads=True)
def health(ctx: Context, options: HealthOptions) -> HealthReport:
    """Is memory being written and kept well: silent agents, backlogs, failed nights."""
    report = ctx.engine.health()
    failing = report.failing(options.fail_on)
    if failing:
        problems = f"{plural(len(failing), 'problem')} at {options.fail_on} or worse"
        said = f"health: {problems} (the worst: {report.worst or options.fail_on})"
        raise FailedWithReport(report, HealthProblems(said))
    return report


#: The check states that mean a kind was not looked for.
UNCHECKED = ("not checked", "not supported")
