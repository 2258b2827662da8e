"""The screen shown while the store opens: the main screen's layout, empty.

It is the app's first frame, so it imports Textual and the light widgets alone: no
settings, no pydantic, no numpy, no store and no model. It draws with the main
screen's own header, search input, pane frames and footer at the same sizes, so
when the app swaps in the main screen (as soon as the engine is open) the layout
stays where it is and only fills.

A query typed here is answered from the saved note index once the app has found one
that can answer exactly (``OpeningScreen.answer_early``): its hits, by words, in
the panes they belong to, marked partial. They are only shown: no note can be acted on
until the main screen has the store open and has searched the query in full.
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from amem_tui.tui.early import EARLY_NOTE, early_lines, early_status, pane_hits, pane_title
from amem_tui.tui.query_syntax import parse_query
from amem_tui.tui.sizes import NARROW_WIDTH, SHORT_HEIGHT
from amem_tui.tui.widgets.footer import KeyFooter
from amem_tui.tui.widgets.header import HeaderBar
from amem_tui.tui.widgets.query_input import QueryInput
from amem_tui.tui.widgets.tabbed_pane import TabbedPane

if TYPE_CHECKING:
    from amem_tui.engine import SavedIndexSearch
    from amem_tui.engine.for_apps import EarlyAnswer

#: The panes, as the main screen names them.
PANE_TITLES = (("private", "Private"), ("shared", "Shared"), ("history", "Consolidation history"))
#: The history pane's width before it has runs to measure (its empty message's).
HISTORY_WIDTH = 33
#: While a person types here (a key within this many seconds), the store's load waits:
#: it holds the interpreter for seconds at a million notes, and the saved index answers
#: each query meanwhile. It waits ``TYPING_CAP`` at most.
TYPING_PAUSE = 0.4
TYPING_CAP = 4.0
#: Left for a drawn frame to reach the terminal before the load holds the interpreter.
FRAME_FLUSH = 0.05


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
    OpeningScreen > #search-box { height: auto; }
    OpeningScreen .opening-message { padding: 0 1; color: $text-muted; }
    OpeningScreen TabbedPane .opening-message { text-wrap: nowrap; text-overflow: ellipsis; }
    OpeningScreen > #opening-detail { border: round $panel-lighten-2; height: 1fr; min-height: 6; }
    """

    def __init__(self, agent: str | None, store_label: str) -> None:
        super().__init__()
        self.agent = agent
        self.store_label = store_label
        #: Answers typed queries from the saved index, once the app has found one.
        self.early: SavedIndexSearch | None = None
        #: Set while the query in the box has its answer on screen (or there is none to
        #: give); read by the thread that opens the store.
        self.answered = threading.Event()
        self.answered.set()
        #: When the box last changed (monotonic seconds): a person may still be typing.
        self.last_change = 0.0
        #: The early answer on screen (the main screen keeps it until its own answer).
        self.shown_answer: EarlyAnswer | None = None

    def compose(self) -> ComposeResult:
        width, height = self.app.size
        narrow = width < NARROW_WIDTH
        yield HeaderBar(self.store_label, False, id="header")
        with Vertical(id="search-box"):
            search = QueryInput(placeholder="Search as this agent…  ( / )", id="search")
            search.compact = height < SHORT_HEIGHT
            self.set_class(search.compact, "-short")  # a one-line box, as the main screen's
            yield search
            # Where the main screen keeps its status line (a short screen shows it only
            # when there is something to say).
            status = Static("", id="search-status", markup=False)
            status.display = height >= SHORT_HEIGHT
            yield status
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
            yield Static("", id="opening-early", classes="opening-message")
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

    # ------------------------------------------------------------ early answers
    def answer_early(self, searcher: SavedIndexSearch) -> None:
        """Answer the query in the box, and each one typed from now on, from ``searcher``
        (the saved index) until the main screen takes over."""
        self.early = searcher
        self._search_early()

    def wait_for_answer(self) -> None:
        """From the thread opening the store: return once the query in the box has its
        answer on screen and the typing has paused, ``TYPING_CAP`` seconds at most."""
        deadline = time.monotonic() + TYPING_CAP
        while (left := deadline - time.monotonic()) > 0:
            if not self.answered.wait(left):
                break
            quiet = TYPING_PAUSE - (time.monotonic() - self.last_change)
            if quiet <= 0:
                break
            time.sleep(min(quiet, max(0.0, deadline - time.monotonic())))
        if self.shown_answer is not None:
            time.sleep(FRAME_FLUSH)

    def retire(self) -> None:
        """The main screen has taken over (and stays on top of this one): let the saved
        index go, and the pages of it that answering mapped."""
        self.early = None

    @on(Input.Changed, "#search")
    def _query_changed(self) -> None:
        self.last_change = time.monotonic()
        if self.early is not None:
            self._search_early()

    def _search_early(self) -> None:
        query = self.draft[0].strip()
        if not query:
            self.shown_answer = None
            self._show_hits(None)
            self.query_one("#search-status", Static).update("")
            self.answered.set()
            return
        self.answered.clear()
        assert self.early is not None
        self._early_search(self.early, query)

    @work(thread=True, exclusive=True, exit_on_error=False, group="early")
    def _early_search(self, searcher: SavedIndexSearch, query: str) -> None:
        try:
            answer = searcher.search(query, parse_query(query).limit)
        except Exception:  # only a head start: the main screen searches it in full
            self.answered.set()
            return
        with contextlib.suppress(RuntimeError):  # the app closed meanwhile
            self.app.call_from_thread(self._show_answer, answer)

    def _show_answer(self, answer: EarlyAnswer) -> None:
        if self.early is None:
            return  # the main screen has taken over
        if answer.query != self.draft[0].strip():
            return  # typed over: the newer text's search follows
        self.shown_answer = answer
        self._show_hits(answer)
        status = self.query_one("#search-status", Static)
        status.display = True
        status.update(Text(early_status(answer), no_wrap=True, overflow="ellipsis"))
        self.call_after_refresh(self.answered.set)

    def _show_hits(self, answer: EarlyAnswer | None) -> None:
        """Each hit's first words in the pane it belongs to, best first."""
        titles: list[str] = []
        for name, title in PANE_TITLES:
            if name != "history":  # no hits of its own
                mine = pane_hits(answer, name == "shared") if answer is not None else []
                title = pane_title(title, len(mine)) if answer is not None else title
                pane = self.query_one(f"#opening-{name}", TabbedPane)
                pane.set_titles(title)
                pane.query_one(Static).update(early_lines(mine))
            titles.append(title)
        if self.app.size.width < NARROW_WIDTH:  # one pane shown: its tabs count them all
            first = self.query_one(f"#opening-{PANE_TITLES[0][0]}", TabbedPane)
            first.show_as_tab(Text(" │ ".join(titles)))
        self.query_one("#opening-early", Static).update(EARLY_NOTE if answer else "")
