"""The agent's recent queries (its query history), newest first: Enter puts one back
in the search box, Escape keeps the box as it is."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static

from amem_tui.tui.dialogs.base import Dialog
from amem_tui.tui.text import one_line


class QueryPicker(Dialog[str | None]):
    """A list of the agent's recent queries to search again."""

    DEFAULT_CSS = """
    QueryPicker { align: center middle; }
    QueryPicker > Vertical {
        width: 80; max-width: 100%; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    QueryPicker .title { text-style: bold; margin-bottom: 1; }
    QueryPicker OptionList { height: auto; max-height: 20; }
    QueryPicker .hint { color: $text-muted; margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="queries.cancel"),
    ]

    def __init__(self, agent: str, queries: Sequence[str]) -> None:
        super().__init__()
        self.agent = agent
        self.queries = list(queries)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(f"{self.agent}'s recent queries"), classes="title")
            if self.queries:
                yield OptionList(*(Text(one_line(q, 200)) for q in self.queries), id="queries")
                hint = "Enter searches it again; Escape keeps the box as it is."
            else:
                hint = (
                    f"{self.agent} has no recent queries yet: a query is kept once its hits "
                    "have stood on screen for a moment, or on Enter. Escape closes."
                )
            yield Static(Text(hint), classes="hint")

    def on_mount(self) -> None:
        """The newest query under the cursor."""
        super().on_mount()
        if self.queries:
            self.query_one("#queries", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Search the chosen query again."""
        event.stop()
        self.dismiss(self.queries[event.option_index])

    def action_cancel(self) -> None:
        """Keep the box as it is."""
        self.dismiss(None)
