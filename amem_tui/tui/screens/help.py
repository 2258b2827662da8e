"""F1: what the app shows, the scope rules in plain words, and every key binding."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from amem_tui.paths import config_dir

INTRO = """\
amem-tui shows what each agent remembers, exactly as that agent may see it.

Private      the current agent's own notes (Mode B: its whole collection).
Shared       notes published to the shared scope, with their owner. Mode B agents
             have no shared scope. A search also lists notes whose readers name
             the agent here ('reader').
History      consolidation runs of the current agent and what each merged.
Detail       every field of the selected note, its evolution history, conflicts
             and links. Links hidden by the read rule show as 'not visible'.

Search       type in the box: hits appear best first with their score and why
             they are visible (private / shared / reader; match or link).
Rules        only the owner or a listed writer may change a note; only the owner
             may publish or unpublish it. Refusals name the rule.
"""


class HelpScreen(ModalScreen[None]):
    """A scrollable help page; F1 or Escape closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 96; height: 90%; border: thick $accent; background: $surface; padding: 1 2;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q", "close", "Close", id="help.close"),
    ]

    def __init__(self, bindings: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self.bindings = bindings

    def compose(self) -> ComposeResult:
        table = Table(title="Keys", expand=True, show_edge=False)
        table.add_column("key", style="bold", no_wrap=True)
        table.add_column("does")
        table.add_column("binding id (for keymap.toml)", style="dim")
        for key, description, binding_id in self.bindings:
            table.add_row(Text(key), Text(description), Text(binding_id))
        keymap = config_dir() / "keymap.toml"
        with VerticalScroll():
            yield Static(Text(INTRO))
            yield Static(table)
            yield Static(
                Text(
                    f'\nRebind keys in {keymap}, e.g.  publish = "P"\n'
                    f"Themes: put Textual theme files (.toml) in {config_dir() / 'themes'}; "
                    "pick one from the command palette (Ctrl+P)."
                )
            )

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
