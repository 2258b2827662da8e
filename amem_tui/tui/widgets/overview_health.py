"""The overview's health: the problems of ``amem-tui health`` grouped by severity, each
opening (Enter) to its whole why and the notes behind it, and the writes per agent per day.

The writes are one sparkline per agent over the same days (Textual's ``Sparkline``, as
the weekly notes above them), each row saying its total, its last write and, for an
agent the report calls silent, ``SILENT`` in words, so a silent agent shows at a glance
without colour too. Both widgets are given the report; they never touch the store.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import DataTable, Label, Sparkline, Static

from amem_tui.engine.for_apps import SEVERITIES
from amem_tui.tui.text import cell, one_line, table_widths
from amem_tui.tui.widgets.overview_charts import LABEL_WIDTH
from amem_tui.wording import plural, severity_counts

if TYPE_CHECKING:
    from amem_tui.engine import HealthReport
    from amem_tui.engine.for_apps import Problem

#: (title, widest cells) of the problems' columns (cut to fit the screen).
COLUMNS: tuple[tuple[str, int], ...] = (
    ("severity", 8),
    ("kind", 19),
    ("agent", 12),
    ("notes", 5),
    ("why", 160),
)
SEVERITY_STYLES = {"error": "bold red", "warning": "yellow", "info": "dim"}


def by_severity(report: HealthReport) -> list[Problem]:
    """The problems, the most severe first (the report's order within a severity)."""
    order = {severity: -i for i, severity in enumerate(SEVERITIES)}
    return sorted(report.problems, key=lambda p: order[p.severity])


def not_checked(report: HealthReport) -> list[str]:
    """What the report could not check, and why (a missing side file is not 'all well')."""
    return [
        f"{name}: {result.detail or result.state}"
        for name, result in report.checks.items()
        if result.state not in ("ok", "problems")
    ]


class HealthPanel(Vertical):
    """The health problems, most severe first; Enter opens one (the screen lists the
    notes behind it)."""

    DEFAULT_CSS = """
    HealthPanel { height: auto; }
    HealthPanel #health-summary { height: auto; }
    HealthPanel DataTable { height: auto; max-height: 12; }
    HealthPanel #health-unchecked { height: auto; color: $text-muted; }
    """

    @dataclass
    class Chosen(Message):
        """A problem to open: its why in full, and the notes behind it."""

        problem: Problem

    def __init__(self, report: HealthReport, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.report = report
        self.problems = by_severity(report)

    def compose(self) -> ComposeResult:
        counts: dict[str, int] = {
            s: sum(1 for p in self.problems if p.severity == s) for s in SEVERITIES[::-1]
        }
        worst = severity_counts(counts, sep=" · ")
        summary = f"{plural(len(self.problems), 'problem')}: {worst}."
        if self.problems:
            summary += " Enter on one lists the notes behind it."
        yield Static(Text(summary), id="health-summary")
        if self.problems:
            yield DataTable(id="health-problems", cursor_type="row", zebra_stripes=True)
        unchecked = not_checked(self.report)
        if unchecked:
            lines = "\n".join(one_line(line, 300) for line in unchecked)
            yield Static(Text(lines), id="health-unchecked")

    def on_mount(self) -> None:
        """Fill the table, most severe first."""
        if self.problems:
            self._fill()

    def on_resize(self) -> None:
        """Fit the columns to the new width, the cursor kept."""
        if self.problems:
            self._fill()

    def _fill(self) -> None:
        """The rows, their columns fitted to the screen (beside the screen's scrollbar
        and the table's): the why cut first, with an ellipsis."""
        table = self.query_one("#health-problems", DataTable)
        row_at = table.cursor_row
        rows = [
            (p.severity, p.kind, p.agent or "(store)", p.count or len(p.notes) or "", p.why)
            for p in self.problems
        ]
        titles = [title for title, _ in COLUMNS]
        room = self.app.size.width - 4 - 2 * table.cell_padding * len(COLUMNS)
        widths = table_widths(titles, rows, room, [most for _, most in COLUMNS])
        table.clear(columns=True)
        for title, width in zip(titles, widths, strict=True):
            table.add_column(title, width=width)
        for problem, row in zip(self.problems, rows, strict=True):
            style = SEVERITY_STYLES.get(problem.severity, "")
            table.add_row(
                cell(row[0], widths[0], style),
                *(cell(v, w) for v, w in zip(row[1:], widths[1:], strict=True)),
            )
        table.move_cursor(row=min(max(row_at, 0), len(rows) - 1))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter: open the problem (its whole why, the notes behind it)."""
        event.stop()
        if 0 <= event.cursor_row < len(self.problems):
            self.post_message(self.Chosen(self.problems[event.cursor_row]))


class WritesPerDay(Vertical):
    """One sparkline per agent over the report's days: a silent agent's row runs flat
    to its end, and says so."""

    DEFAULT_CSS = """
    WritesPerDay { height: auto; }
    WritesPerDay > Horizontal { height: 1; }
    WritesPerDay .series-label { width: 17; color: $text; }
    WritesPerDay Sparkline { width: 1fr; height: 1; }
    WritesPerDay .series-total { width: 36; padding-left: 1; color: $text-muted; }
    WritesPerDay .silent { color: $error; text-style: bold; }
    WritesPerDay .axis { height: 1; color: $text-muted; }
    """

    def __init__(self, report: HealthReport, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.report = report

    def compose(self) -> ComposeResult:
        report = self.report
        silent = {p.agent for p in report.of_kind("silent-agent")}
        for name, agent in report.agents.items():
            counts = agent.writes_per_day or [0] * len(report.days)
            last = (agent.last_write or "never")[:10]
            words = f"{sum(counts):>4} · last {last}"
            label = one_line(name, LABEL_WIDTH)
            with Horizontal():
                yield Label(label, classes="series-label", markup=False)
                yield Sparkline([float(c) for c in counts] or [0.0], summary_function=max)
                if name in silent:
                    yield Label(f"{words} · SILENT", classes="series-total silent", markup=False)
                else:
                    yield Label(words, classes="series-total", markup=False)
        if report.days:
            span = f"days {report.days[0]} … {report.days[-1]} (UTC), writes per day"
            yield Label(span, classes="axis", markup=False)
