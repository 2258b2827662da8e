"""The overview's pictures: notes over time per agent, and labelled bars.

Notes over time use Textual's own ``Sparkline``: one row per
agent, all on the same weeks, so a glance down the column compares agents. It needs
no extra dependency, draws at any width (80 columns included) and in the theme's
colours, and its snapshots are stable. Each sparkline scales to its own agent's
busiest week, so the row says that number next to it. Bars (who shares what,
consolidation savings) are plain text blocks sized to the widget's width.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Label, Sparkline

from amem_tui.tui.text import one_line
from amem_tui.wording import plural

#: The most weeks drawn; older notes are counted in a line below.
MAX_WEEKS = 52
#: The widest a label column gets.
LABEL_WIDTH = 16


def week_axis(weeks: list[str]) -> list[str]:
    """Every week from the first to the last of ``weeks`` (ISO Mondays), the last
    ``MAX_WEEKS`` of them at most."""
    if not weeks:
        return []
    first, last = date.fromisoformat(weeks[0]), date.fromisoformat(weeks[-1])
    count = (last - first).days // 7 + 1
    start = max(0, count - MAX_WEEKS)
    return [(first + timedelta(weeks=i)).isoformat() for i in range(start, count)]


@dataclass(frozen=True)
class SeriesRow:
    """One agent's notes per week on the shared axis."""

    label: str
    counts: list[int]
    older: int


class WeeklyNotes(Vertical):
    """One sparkline per agent, on the same weeks, with totals and each row's peak."""

    DEFAULT_CSS = """
    WeeklyNotes { height: auto; }
    WeeklyNotes > Horizontal { height: 1; }
    WeeklyNotes .series-label { width: 17; color: $text; }
    WeeklyNotes Sparkline { width: 1fr; height: 1; }
    WeeklyNotes .series-total { width: 21; padding-left: 1; color: $text-muted; }
    WeeklyNotes .axis { height: 1; color: $text-muted; }
    """

    def __init__(self, rows: list[SeriesRow], axis: list[str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows = rows
        self.axis = axis

    def compose(self) -> ComposeResult:
        for row in self.rows:
            total = sum(row.counts)
            peak = max(row.counts, default=0)
            with Horizontal():
                yield Label(one_line(row.label, LABEL_WIDTH), classes="series-label", markup=False)
                yield Sparkline([float(c) for c in row.counts] or [0.0], summary_function=max)
                yield Label(f"{total:>5} · peak {peak}/week", classes="series-total")
        if self.axis:
            older = sum(row.older for row in self.rows)
            span = f"weeks of {self.axis[0]} … {self.axis[-1]} ({plural(len(self.axis), 'week')})"
            if older:
                span += f"; {plural(older, 'older note')} not drawn"
            yield Label(span, classes="axis", markup=False)


@dataclass(frozen=True)
class Bar:
    """One labelled bar: ``value`` of ``whole`` (0: nothing to measure), with a note."""

    label: str
    value: int
    whole: int
    note: str


class BarRows(Widget):
    """Labelled horizontal bars, drawn to the widget's width."""

    DEFAULT_CSS = """
    BarRows { height: auto; }
    BarRows > .bar--filled { color: $accent; }
    BarRows > .bar--empty { color: $panel-lighten-2; }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"bar--filled", "bar--empty"}

    def __init__(self, bars: list[Bar], empty: str = "", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.bars = bars
        self.empty = empty

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        """One row per bar (or one for the empty message)."""
        return max(len(self.bars), 1)

    def render(self) -> Text:
        """The bars, as wide as the widget allows."""
        if not self.bars:
            return Text(self.empty, style="dim")
        width = self.size.width or 80
        label_width = min(LABEL_WIDTH, max(len(one_line(b.label, LABEL_WIDTH)) for b in self.bars))
        notes = [one_line(b.note, 60) for b in self.bars]
        bar_width = max(8, min(40, width - label_width - max(map(len, notes)) - 4))
        if all(bar.whole <= 0 for bar in self.bars):
            bar_width = 0  # nothing to measure in any row: the words alone
        filled = self.get_component_rich_style("bar--filled")
        empty = self.get_component_rich_style("bar--empty")
        out = Text(no_wrap=True, overflow="ellipsis")
        for index, (bar, note) in enumerate(zip(self.bars, notes, strict=True)):
            if index:
                out.append("\n")
            share = bar.value / bar.whole if bar.whole > 0 else 0.0
            cells = round(share * bar_width)
            if bar.value > 0 and cells == 0:
                cells = 1  # something is never drawn as nothing
            out.append(one_line(bar.label, LABEL_WIDTH).ljust(label_width))
            if bar_width == 0:
                out.append("  " + note)
                continue
            out.append("  ")
            if bar.whole <= 0:  # nothing to measure: no bar, only the words
                out.append(" " * bar_width)
            else:
                out.append("█" * cells, style=filled)
                out.append("░" * (bar_width - cells), style=empty)
            out.append("  " + note)
        return out
