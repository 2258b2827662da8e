"""The Leaks screen: the same report as ``amem-tui leaks``, one row per finding, grouped
by pair of agents and, within a pair, most severe first.

It is given how to build the report (the main screen passes ``engine.leaks``), builds
it in a worker while it says so, and never touches the store itself. Every value from
the store is shown literally.
Enter on a row closes the screen with a ``JumpTarget``: the note the finding names
first, as the agent who can read it (the main screen switches to that agent).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from amem_tui.tui.actions import LEAKS_ACTIONS, bindings
from amem_tui.tui.messages import JumpTarget
from amem_tui.wording import plural, severity_counts

if TYPE_CHECKING:
    from amem_tui.engine import LeakReport

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
#: (title, widest cells) of each column.
COLUMNS: tuple[tuple[str, int], ...] = (
    ("pair", 24),
    ("severity", 8),
    ("kind", 16),
    ("note", 36),
    ("path", 10),
    ("why", 90),
)


def _cell(value: object, width: int) -> Text:
    """One literal line: control characters shown as escapes, cut to ``width``."""
    raw = str(value)[: width * 4]
    flat = " ".join(_CONTROL.sub(lambda m: f"\\x{ord(m.group(0)):02x}", raw).split())
    if len(flat) > width:
        flat = flat[: width - 1] + "…"
    return Text(flat, no_wrap=True, overflow="ellipsis")


class LeaksScreen(Screen[JumpTarget | None]):
    """Every finding of the leak audit by pair and severity; Enter goes to the note as
    the agent who reads it, Escape closes."""

    DEFAULT_CSS = """
    LeaksScreen #leaks-summary { height: auto; padding: 0 1; background: $boost; }
    LeaksScreen DataTable { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings(LEAKS_ACTIONS)

    def __init__(self, build: Callable[[], LeakReport]) -> None:
        super().__init__()
        self.build = build
        #: The report shown (None while it is being built).
        self.report: LeakReport | None = None
        #: The note each row jumps to, in row order.
        self.targets: list[JumpTarget] = []

    def compose(self) -> ComposeResult:
        yield Static("Looking for leaks between agents…", id="leaks-summary", markup=False)
        yield DataTable(id="leaks-table", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        """Build the report off the UI thread; it is shown when it comes."""
        self._build_report()

    @dataclass
    class Built(Message):
        """The report is built."""

        report: LeakReport

    @work(thread=True, exclusive=True, exit_on_error=False, group="leaks")
    def _build_report(self) -> None:
        self.post_message(self.Built(self.build()))

    def _summary(self, report: LeakReport) -> Text:
        counts = severity_counts(report.counts())
        lines = [
            f"Leak audit: {plural(report.pairs_checked, 'pair')} of agents, "
            f"{plural(report.notes_checked, 'note')} checked: {counts}"
        ]
        lines += [
            f"sampled: {part.check}: {part.compared} of {part.total} ({part.how})"
            for part in report.sampled
        ]
        if not report.findings:
            lines.append("No findings: no agent reaches another's private memory.")
        return Text("\n".join(" ".join(_CONTROL.sub(" ", line).split()) for line in lines))

    def on_leaks_screen_built(self, message: Built) -> None:
        """Show the findings, by pair and severity, the table focused."""
        report = self.report = message.report
        self.query_one("#leaks-summary", Static).update(self._summary(report))
        table = self.query_one("#leaks-table", DataTable)
        for title, width in COLUMNS:
            table.add_column(title, width=width)
        for (source, reader), findings in report.by_pair().items():
            pair = f"{source or '(a setting)'} → {reader or '(anyone)'}"
            for finding in findings:
                row = (pair, finding.severity, finding.kind, finding.notes[0], finding.path)
                table.add_row(
                    *(_cell(value, width) for value, (_, width) in zip(row, COLUMNS, strict=False)),
                    _cell(finding.why, COLUMNS[-1][1]),
                )
                readers = (reader,) if reader else ()
                target = JumpTarget(finding.notes[0], readers, finding.collection, as_named=True)
                self.targets.append(target)
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a row: close, and show its note as the agent who reads it."""
        event.stop()
        self.action_open_note()

    def action_open_note(self) -> None:
        """Close, and show the highlighted finding's note as the agent who reads it."""
        table = self.query_one("#leaks-table", DataTable)
        if table.row_count and 0 <= table.cursor_row < len(self.targets):
            self.dismiss(self.targets[table.cursor_row])

    def action_close(self) -> None:
        """Back to the main screen."""
        self.dismiss(None)
