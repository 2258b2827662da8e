"""The header line: agent, mode, collection, store and counts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from amem_tui.tui.text import one_line

if TYPE_CHECKING:
    from amem_tui.engine.scope import AgentScope


class HeaderBar(Static):
    """One line saying who we act as, where, and how much there is."""

    DEFAULT_CSS = """
    HeaderBar { height: 1; background: $panel; color: $foreground; padding: 0 1; }
    """

    def __init__(self, store_label: str, read_only: bool, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.store_label = store_label
        self.read_only = read_only
        self.model_note = ""

    def show(
        self, scope: AgentScope | None, counts: dict[str, int] | None, model_note: str = ""
    ) -> None:
        """Redraw from an agent scope and its note counts."""
        if model_note:
            self.model_note = model_note
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append("amem-tui ", style="bold")
        if scope is None:
            line.append(" loading…", style="italic")
        else:
            line.append(" agent ", style="dim")
            line.append(scope.agent, style="bold")
            line.append(f"  Mode {scope.mode}", style="bold reverse" if scope.mode == "B" else "")
            line.append("  collection ", style="dim")
            line.append(one_line(scope.collection, 40))
        if counts is not None:
            line.append("  │ ", style="dim")
            line.append(f"private {counts.get('private', 0)}")
            if scope is not None and scope.has_shared_scope:
                line.append(f" · shared {counts.get('shared', 0)}")
            line.append(f" · visible {counts.get('visible', 0)}")
        if self.read_only:
            line.append("  │ ", style="dim")
            line.append("READ-ONLY: writes are off", style="bold reverse")
        if self.model_note:
            line.append("  │ ", style="dim")
            line.append(self.model_note, style="italic")
        line.append("  │ store ", style="dim")
        line.append(one_line(self.store_label, 60))
        self.update(line)
