"""The filter box of a note pane: one line under its rows, shown while the filter is typed.

It only says what was typed (``Input.Changed`` goes up to the pane, which narrows its
rows); Enter or Down goes back to the rows keeping the filter, Escape clears it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message

from amem_tui.tui.widgets.query_input import QueryInput


class PaneFilter(QueryInput):
    """A one-line box for the plain-text filter of a note pane."""

    DEFAULT_CSS = """
    PaneFilter { dock: bottom; height: 1; width: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "clear_filter", "Clear filter", show=False),
        Binding("down", "keep_filter", "Back to the rows", show=False),
    ]

    @dataclass
    class Closed(Message):
        """The box is done with: the rows take the focus (``cleared``: the filter went)."""

        box: PaneFilter
        cleared: bool

    def __init__(self) -> None:
        super().__init__(placeholder="filter: text in content, tags, owner", compact=True)

    def action_clear_filter(self) -> None:
        """Escape: the filter goes, every row comes back."""
        self.post_message(self.Closed(self, cleared=True))

    def action_keep_filter(self) -> None:
        """Down: back to the rows, the filter kept."""
        self.post_message(self.Closed(self, cleared=False))
