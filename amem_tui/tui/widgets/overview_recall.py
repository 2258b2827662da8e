"""The overview's recall picture: per agent, a bar of the notes it sees that searches
have returned, and under it its most recalled notes, one line each."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.widget import Widget

from amem_tui.tui.text import one_line
from amem_tui.tui.widgets.overview_charts import LABEL_WIDTH

#: The widest the bar gets.
BAR_WIDTH = 24


@dataclass(frozen=True)
class RecalledRow:
    """One of an agent's most recalled notes: how often, when last, where, what."""

    count: int
    last: str
    where: str
    content: str


@dataclass(frozen=True)
class AgentRecalls:
    """One agent's recall figures (``never`` None: its notes keep no recall counts)."""

    label: str
    visible: int
    never: int | None
    rows: list[RecalledRow] = field(default_factory=list)
    #: Why there are no counts, when ``never`` is None.
    why_none: str = ""


class RecallRows(Widget):
    """Each agent's recalled share as a bar, with its most recalled notes below it."""

    DEFAULT_CSS = """
    RecallRows { height: auto; }
    RecallRows > .bar--filled { color: $accent; }
    RecallRows > .bar--empty { color: $panel-lighten-2; }
    RecallRows > .recall--muted { color: $text-muted; }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"bar--filled", "bar--empty", "recall--muted"}

    def __init__(self, agents: list[AgentRecalls], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.agents = agents

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        """A line per agent, and one per note it lists."""
        return max(1, sum(1 + len(agent.rows) for agent in self.agents))

    def render(self) -> Text:
        """The bars and the notes, as wide as the widget allows."""
        if not self.agents:
            return Text("No agents.", style="dim")
        width = self.size.width or 80
        label_width = min(
            LABEL_WIDTH, max(cell_len(one_line(a.label, LABEL_WIDTH)) for a in self.agents)
        )
        bar_width = max(8, min(BAR_WIDTH, width - label_width - 40))
        filled = self.get_component_rich_style("bar--filled")
        empty = self.get_component_rich_style("bar--empty")
        muted = self.get_component_rich_style("recall--muted")
        out = Text(no_wrap=True, overflow="ellipsis")
        for index, agent in enumerate(self.agents):
            if index:
                out.append("\n")
            out.append(one_line(agent.label, LABEL_WIDTH).ljust(label_width) + "  ")
            if agent.never is None:
                out.append(agent.why_none or "no recall counts", style=muted)
                continue
            recalled = agent.visible - agent.never
            cells = round(recalled / agent.visible * bar_width) if agent.visible else 0
            if recalled > 0 and cells == 0:
                cells = 1  # something is never drawn as nothing
            out.append("█" * cells, style=filled)
            out.append("░" * (bar_width - cells), style=empty)
            out.append(f"  {recalled} of {agent.visible} recalled · {agent.never} never")
            for row in agent.rows:
                lead = " " * (label_width + 2) + f"{row.count:>6}×  "
                facts = f"{row.last or '?':<10}  {row.where:<7}  "
                room = max(10, width - cell_len(lead) - len(facts))
                out.append("\n" + lead)
                out.append(facts, style=muted)
                out.append(one_line(row.content, room))
        return out
