"""Proving isolation: ``leaks`` and ``check FILE`` print their report, then exit 1 when
it fails (see docs/isolation.md); ``--dry-run [--checks FILE]`` on the commands that
change who reads what says which checks would flip, and which recent queries' top 5
would move (``engine.what_if``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from amem_tui.cli.command import Command, Context, FailedWithReport, UsageError
from amem_tui.cli.options import flag, option
from amem_tui.cli.output import count_of, finding_lines, note_row
from amem_tui.engine import AmemError
from amem_tui.wording import first_of, plural, severity_counts

if TYPE_CHECKING:
    from amem_tui.engine import CheckRun, LeakReport, WhatIf
    from amem_tui.engine.for_apps import CheckVerdict, LeakFinding

#: The severities ``--fail-on`` takes, least severe last (as the engine ranks them).
FailOn = Literal["leak", "warning", "info"]


class LeaksFound(AmemError):
    """The leak audit found something at or above ``--fail-on`` (exit 1)."""


class ChecksFailed(AmemError):
    """A memory check does not hold (exit 1)."""


# --------------------------------------------------------------------- leaks
@dataclass(frozen=True)
class LeaksOptions:
    """``leaks``: the severity from which a finding fails the run."""

    fail_on: FailOn = option("--fail-on", default="leak", help="exit 1 from this severity")


#: Exposed note ids a finding lists in text (``--json`` lists every one).
EXPOSED_SHOWN = 10


def _finding_lines(finding: LeakFinding) -> list[str]:
    first, *exposed = finding.notes
    how = f"{finding.path}, {finding.certainty}" if finding.path != "none" else finding.certainty
    details = [finding.why]
    if exposed:
        more = " (--json lists every one)" if len(exposed) > EXPOSED_SHOWN else ""
        details.append(f"exposes {first_of(exposed, EXPOSED_SHOWN)}{more}")
    return finding_lines(finding.severity, f"{finding.kind:<16} {first}  ({how})", details)


def leaks_text(report: LeakReport) -> Iterator[str]:
    """What was checked, the findings by pair of agents, then what was only sampled."""
    counts = severity_counts(report.counts())
    collections = ", ".join(report.collections) or "no collection"
    yield (
        f"{plural(report.pairs_checked, 'pair')} of agents, "
        f"{plural(report.notes_checked, 'note')} checked in {collections}: {counts}"
    )
    for (source, reader), findings in report.by_pair().items():
        yield f"{source or '(a setting)'} -> {reader or '(nobody in particular)'}"
        for finding in findings:
            yield from _finding_lines(finding)
    if not report.findings:
        yield "no findings"
    for part in report.sampled:
        yield f"sampled: {part.check}: compared {part.compared:,} of {part.total:,} ({part.how})"


@Command("leaks", leaks_text, LeaksOptions, reads=True)
def leaks(ctx: Context, options: LeaksOptions) -> LeakReport:
    """Every pair of agents: what of one's private memory the other can reach."""
    report = ctx.engine.leaks()
    failing = report.failing(options.fail_on)
    if failing:
        found = severity_counts(report.counts(), zeros=False)
        said = f"{plural(len(failing), 'finding')} at or above '{options.fail_on}' ({found})"
        raise FailedWithReport(report, LeaksFound(said))
    return report


# --------------------------------------------------------------------- check
@dataclass(frozen=True)
class CheckOptions:
    """``check``: the checks file (TOML, ``[[check]]`` tables)."""

    file: str = option(metavar="FILE", help="a TOML file of [[check]] tables")


def verdict_lines(verdict: CheckVerdict) -> Iterator[str]:
    """One check: whether it holds, then why not and what its agent found."""
    state = "PASS" if verdict.passed else "FAIL"
    where = f"#{verdict.number} (line {verdict.line}) {verdict.name}"
    yield f"{state}  {where}: {verdict.agent} searches {verdict.query!r}"
    yield from (f"      - {failure}" for failure in verdict.failures)
    if not verdict.passed:
        yield from (
            f"      {hit.rank}. {note_row(hit.id, hit.content)}" for hit in verdict.hits[:5]
        )
    if verdict.notice:
        yield f"      note: {verdict.notice}"


def check_text(run: CheckRun) -> Iterator[str]:
    """A heading (how many checks hold), then each check."""
    failing = len(run.failing)
    state = "all hold" if not failing else f"{failing} failing"
    yield f"{run.source}: {plural(len(run.verdicts), 'check')}, {state}"
    for verdict in run.verdicts:
        yield from verdict_lines(verdict)


@Command("check", check_text, CheckOptions, reads=True)
def check(ctx: Context, options: CheckOptions) -> CheckRun:
    """Run memory checks (a TOML file): exit 0 when all hold, 1 when not, 2 bad file."""
    run = ctx.engine.check(options.file)
    if run.failing:
        names = ", ".join(f"#{v.number} {v.name!r}" for v in run.failing)
        said = f"{plural(len(run.failing), 'check')} of {len(run.verdicts)} failed: {names}"
        raise FailedWithReport(run, ChecksFailed(said))
    return run


# ------------------------------------------------------------------- dry runs
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


def what_if_text(result: WhatIf) -> Iterator[str]:
    """The change, the checks that would flip, the recent queries whose top 5 moves."""
    yield f"dry run: {result.change}; nothing was written"
    if (run := result.checks_before) is not None:
        yield f"checks in {run.source} that would flip: {len(result.flips)} of {len(run.verdicts)}"
        for flip in result.flips:
            turn = "holds -> fails" if flip.before else "fails -> holds"
            yield f"  #{flip.number} {flip.name}: {turn} ({flip.agent} searches {flip.query!r})"
            yield from (f"      - {failure}" for failure in flip.failures)
    moved = result.changed
    changed = count_of(len(moved), len(result.deltas), "query", "queries")
    yield f"recent queries whose top 5 would change: {changed}"
    for delta in moved:
        filters = f" ({delta.filters()})" if delta.filters() else ""
        yield f"  {delta.agent} searches {delta.query!r}{filters}"
        if delta.entered:
            yield f"      enters: {', '.join(delta.entered)}"
        if delta.left:
            yield f"      leaves: {', '.join(delta.left)}"
    yield from (f"  not re-run: {skipped}" for skipped in result.skipped)
