"""Choose the agent to act as: configured agents and those found in the store."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from amem_tui.engine.scope import AgentScope
from amem_tui.tui.text import one_line


def agent_prompt(scope: AgentScope, current: str | None) -> Text:
    """One line per agent: marker, id, mode, collection, where it came from."""
    text = Text()
    text.append("● " if scope.agent == current else "  ", style="bold")
    text.append(f"{one_line(scope.agent, 24):<24}", style="bold")
    text.append(f" Mode {scope.mode} ", style="reverse" if scope.mode == "B" else "")
    text.append(f"  {one_line(scope.collection, 30)}", style="")
    text.append("  configured" if scope.configured else "  found in store", style="dim")
    return text


class AgentPicker(ModalScreen[str | None]):
    """A list of agents; Enter switches, Escape cancels."""

    DEFAULT_CSS = """
    AgentPicker { align: center middle; }
    AgentPicker > Vertical {
        width: 84; height: auto; max-height: 80%; border: thick $accent; background: $surface;
        padding: 1 2;
    }
    AgentPicker .title { text-style: bold; margin-bottom: 1; }
    AgentPicker OptionList { height: auto; max-height: 20; }
    AgentPicker .hint { color: $text-muted; margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="picker.cancel")
    ]

    def __init__(self, agents: Sequence[AgentScope], current: str | None) -> None:
        super().__init__()
        self.agents = list(agents)
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Act as agent"), classes="title")
            yield OptionList(
                *[Option(agent_prompt(s, self.current), id=s.agent) for s in self.agents],
                id="agents",
            )
            yield Static(
                Text(
                    "Mode A: one shared collection, private notes plus the shared scope.\n"
                    "Mode B: a collection of its own, no shared scope."
                ),
                classes="hint",
            )

    def on_mount(self) -> None:
        """Put the cursor on the current agent."""
        options = self.query_one(OptionList)
        options.focus()
        for index, scope in enumerate(self.agents):
            if scope.agent == self.current:
                options.highlighted = index

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Switch to the chosen agent."""
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        """Keep the current agent."""
        self.dismiss(None)
