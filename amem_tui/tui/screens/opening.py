"""The screen shown while the store opens: the main screen's layout, empty.

It is the app's first frame, so it imports Textual and the light widgets alone: no
settings, no pydantic, no numpy, no store and no model. It draws with the main
screen's own header, search input, pane frames and footer at the same sizes, so
when the app swaps in the main screen (as soon as the engine is open) the layout
stays where it is and only fills.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from amem_tui.tui.sizes import NARROW_WIDTH, SHORT_HEIGHT
from amem_tui.tui.widgets.footer import KeyFooter
from amem_tui.tui.widgets.header import HeaderBar
from amem_tui.tui.widgets.tabbed_pane import TabbedPane

#: The panes, as the main screen names them.
PANE_TITLES = (("private", "Private"), ("shared", "Shared"), ("history", "Consolidation history"))
#: The history pane's width before it has runs to measure (its empty message's).
HISTORY_WIDTH = 33


class OpeningScreen(Screen[None]):
    """Header, search box, panes and detail, empty until the engine is open."""

    DEFAULT_CSS = """
    OpeningScreen > #panes > TabbedPane { width: 1fr; }
    OpeningScreen > #panes > TabbedPane.-tab-hidden { display: none; }
    OpeningScreen .opening-message { padding: 0 1; color: $text-muted; }
    OpeningScreen > #opening-detail { border: round $panel-lighten-2; height: 1fr; min-height: 6; }
    """

    def __init__(self, agent: str | None, store_label: str) -> None:
        super().__init__()
        self.agent = agent
        self.store_label = store_label

    def compose(self) -> ComposeResult:
        width, height = self.app.size
        narrow = width < NARROW_WIDTH
        yield HeaderBar(self.store_label, False, id="header")
        with Vertical(id="search-box"):
            search = Input(placeholder="Search as this agent…  ( / )", id="search")
            search.compact = height < SHORT_HEIGHT
            search.disabled = True
            yield search
        with Horizontal(id="panes"):
            for index, (name, title) in enumerate(PANE_TITLES):
                pane = TabbedPane(id=f"opening-{name}")
                pane.set_titles(title)
                if name == "history" and not narrow:
                    pane.styles.width = HISTORY_WIDTH
                if narrow:
                    tabs = Text(" │ ".join(t for _, t in PANE_TITLES))
                    pane.show_as_tab(tabs)
                    pane.set_class(index > 0, "-tab-hidden")
                with pane:
                    yield Static("", classes="opening-message")
        with Vertical(id="opening-detail"):
            agent = f"agent {self.agent}: " if self.agent else ""
            yield Static(f"Opening {agent}{self.store_label}…", classes="opening-message")
        yield KeyFooter()

    def on_mount(self) -> None:
        """The header says the agent is loading, as the main screen's does."""
        self.query_one(HeaderBar).show(None, None)
