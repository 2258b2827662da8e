"""Choose the agent to act as: configured agents and those found in the store.

In a mem0 collection the choice is a user and agent pair (one ``user_id``
namespace each, as the OpenClaw mem0 plugin keeps them): the dialog answers with
that exact scope, so the switch reads exactly that namespace.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from amem_tui.engine import AgentScope
from amem_tui.tui.text import cell
from amem_tui.tui.widgets.header import VIEW_LABELS

AMEM_HINT = (
    "Mode A: one shared collection, private notes plus the shared scope. "
    "Mode B: a collection of its own, no shared scope. "
    "Enter acts as the agent under the cursor; Escape keeps the current one."
)
MEM0_HINT = (
    "mem0: one user_id per user and agent, as the OpenClaw mem0 plugin reads them; "
    "main's memories are the plain user id. Enter reads exactly that namespace. "
    "A subagent's auto-recall view: type its session key in the command palette (Ctrl+P)."
)


def agent_row(scope: AgentScope, current: AgentScope | None, mem0: bool) -> list[Text]:
    """One row of the list: marker, (user,) agent, mode or view, collection, where from."""
    mark = Text("●" if scope == current else " ", style="bold")
    if mem0:
        view = VIEW_LABELS.get(scope.view or "search", scope.view or "")
        return [
            mark,
            cell(scope.user or "?", 20, style="bold"),
            cell(scope.agent, 24, style="bold"),
            cell(view, 22),
            cell(scope.namespace or "", 40),
        ]
    mode = Text(f" Mode {scope.mode} ", style="reverse" if scope.mode == "B" else "")
    source = Text("configured" if scope.configured else "found in store", style="dim")
    return [mark, cell(scope.agent, 24, style="bold"), mode, cell(scope.collection, 30), source]


class AgentPicker(ModalScreen[AgentScope | None]):
    """A table of agents; Enter switches, Escape cancels; the cursor stops at both ends."""

    DEFAULT_CSS = """
    AgentPicker { align: center middle; }
    AgentPicker > Vertical {
        width: 96; max-width: 100%; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    AgentPicker .title { text-style: bold; margin-bottom: 1; }
    AgentPicker DataTable { height: auto; max-height: 20; }
    AgentPicker .hint { color: $text-muted; margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="picker.cancel")
    ]

    def __init__(
        self, agents: Sequence[AgentScope], current: AgentScope | None, *, mem0: bool = False
    ) -> None:
        super().__init__()
        self.agents = list(agents)
        self.current = current
        self.mem0 = mem0

    def compose(self) -> ComposeResult:
        title = "Act as a user and agent" if self.mem0 else "Act as agent"
        with Vertical():
            yield Static(Text(title), classes="title")
            table: DataTable[Text] = DataTable(cursor_type="row", id="agents")
            if self.mem0:
                table.add_columns("", "user", "agent", "view", "user_id")
            else:
                table.add_columns("", "agent", "mode", "collection", "source")
            for index, scope in enumerate(self.agents):
                table.add_row(*agent_row(scope, self.current, self.mem0), key=str(index))
            yield table
            yield Static(Text(MEM0_HINT if self.mem0 else AMEM_HINT), classes="hint")

    @property
    def table(self) -> DataTable[Text]:
        """The list of agents."""
        return self.query_one("#agents", DataTable)

    @property
    def highlighted(self) -> AgentScope | None:
        """The agent under the cursor."""
        row = self.table.cursor_row
        return self.agents[row] if 0 <= row < len(self.agents) else None

    def on_mount(self) -> None:
        """Put the cursor on the current agent."""
        self.app.clear_notifications()  # a toast must not cover the list
        table = self.table
        table.focus()
        for index, scope in enumerate(self.agents):
            if scope == self.current:
                table.move_cursor(row=index, animate=False)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Switch to the chosen agent."""
        event.stop()
        self.dismiss(self.highlighted)

    def action_cancel(self) -> None:
        """Keep the current agent."""
        self.dismiss(None)
