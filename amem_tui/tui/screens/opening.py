"""The screen shown while the store opens: the main screen's layout, empty.

It is the app's first frame, so it imports Textual and the light widgets alone: no
settings, no pydantic, no numpy, no store and no model. It draws with the main
screen's own header, search input, pane frames and footer at the same sizes, so
when the app swaps in the main screen (as soon as the engine is open) the layout
stays where it is and only fills.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from amem_tui.tui.sizes import NARROW_WIDTH, SHORT_HEIGHT
from amem_tui.tui.widgets.footer import KeyFooter
from amem_tui.tui.widgets.header import HeaderBar
from amem_tui.tui.widgets.query_input import QueryInput
from amem_tui.tui.widgets.tabbed_pane import TabbedPane

#: The panes, as the main screen names them.
PANE_TITLES = (("private", "Private"), ("shared", "Shared"), ("history", "Consolidation history"))
#: The history pane's width before it has runs to measure (its empty message's).
HISTORY_WIDTH = 33


class OpeningScreen(Screen[None]):
    """Header, search box, panes and detail, empty until the engine is open.

    A query typed meanwhile is kept: the main screen starts with it in its search box.
    """

    # Nothing has the focus until '/' (so 'q' still quits); priority, so the rest of a
    # burst typed after '/' lands in the box.
    AUTO_FOCUS = ""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_search", "Search", key_display="/", priority=True)
    ]

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
            search = QueryInput(placeholder="Search as this agent…  ( / )", id="search")
            search.compact = height < SHORT_HEIGHT
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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """In the search box, '/' is typed."""
        return not (action == "focus_search" and isinstance(self.focused, Input))

    def action_focus_search(self) -> None:
        """Put the cursor in the search box."""
        self.set_focus(self.query_one("#search", Input))

    @property
    def draft(self) -> tuple[str, bool]:
        """The query typed so far, and whether the search box has the focus."""
        search = self.query_one("#search", Input)
        return search.value, self.focused is search
