"""The main screen's three panes (Private, Shared, the consolidation history) laid out
side by side or, on a narrow terminal, as tabs.

- Side by side, the note panes share the width and the history pane is as wide as
  its rows need; while search hits are shown it steps aside on a medium terminal
  (``app.tcss``), so the hits keep their columns.
- Narrow: one pane at a time, as tabs. The pane on show lists every pane in its border
  title. Tab into the panes (from the search box; Shift+Tab from below) goes to the
  pane on show, and Tab and Shift+Tab then go round the others, in order, from that
  one: every pane is reached before the focus goes on as usual (``enter_tabs``,
  ``action_step_tab``).

What the panes show, and the note the user works on, is ``Panes`` (widgets/panes.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from rich.text import Text
from textual import getters
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.reactive import reactive

from amem_tui.tui.sizes import MEDIUM
from amem_tui.tui.widgets.history_pane import HistoryPane
from amem_tui.tui.widgets.note_pane import NotePane

if TYPE_CHECKING:
    from textual.widget import Widget

    from amem_tui.tui.messages import PaneName
    from amem_tui.tui.widgets.tabbed_pane import TabbedPane

TabName = Literal["private", "shared", "history"]
TAB_ORDER: tuple[TabName, ...] = ("private", "shared", "history")
TAB_HINT = "Tab: next pane"


class PaneTabs(Horizontal):
    """The three panes, side by side or as tabs, and Tab's round of them."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "step_tab(1)", "Next pane", show=False),
        Binding("shift+tab", "step_tab(-1)", "Previous pane", show=False),
    ]

    private = getters.child_by_id("private", NotePane)
    shared = getters.child_by_id("shared", NotePane)
    history = getters.child_by_id("history", HistoryPane)

    #: One pane at a time, as tabs (a narrow terminal).
    narrow: reactive[bool] = reactive(False, init=False)
    #: The pane on show while the panes are tabs.
    current_tab: reactive[TabName] = reactive[TabName]("private", init=False)
    #: The agent has a shared scope to show (Mode A, not mem0); set with each agent.
    shares: reactive[bool | None] = reactive[bool | None](None, init=False)

    def __init__(self, *children: Widget, id: str | None = None) -> None:
        super().__init__(*children, id=id)
        #: As tabs, the round Tab makes of the panes: from the pane the focus came in at.
        self.tab_round: tuple[TabName, ...] = TAB_ORDER

    def on_mount(self) -> None:
        # The panes are arranged again as their titles change (a strip of tabs shows
        # them all; the history's width follows its runs) and as hits come and go.
        for pane in (self.private, self.shared, self.history):
            self.watch(pane, "title_text", self.arrange_panes, init=False)
        self.watch(self.history, "subtitle_text", self.arrange_panes, init=False)
        self.watch(self.private, "searching", self.arrange_panes, init=False)
        self.watch(self.screen, "focused", self._focus_moved, init=False)

    def watch_narrow(self) -> None:
        self.arrange_panes()

    def watch_current_tab(self) -> None:
        self.arrange_panes()

    def watch_shares(self) -> None:
        self.arrange_panes()

    def pane(self, which: PaneName) -> NotePane:
        """A note pane by name."""
        return self.private if which == "private" else self.shared

    def tab_pane(self, name: TabName) -> TabbedPane:
        """The pane behind a tab."""
        if name == "history":
            return self.history
        return self.pane(name)

    def tab_of(self, widget: Widget | None) -> TabName | None:
        """The tab whose pane holds ``widget``, if one does."""
        for name in TAB_ORDER:
            pane = self.tab_pane(name)
            if widget is pane or (widget is not None and pane in widget.ancestors):
                return name
        return None

    def _focus_tab(self, name: TabName) -> None:
        self.current_tab = name
        pane = self.tab_pane(name)
        table = self.history.table if name == "history" else self.pane(name).table
        # At once, not after this message: keys typed in the same burst follow the focus.
        self.screen.set_focus(table if table.display else pane)

    def _focus_moved(self, before: Widget | None, now: Widget | None) -> None:
        """The focus came into the panes (a click, a search's hits, a key): Tab's round
        starts from the pane it came in at."""
        came_in = self.tab_of(now)
        if came_in is not None and self.tab_of(before) is None:
            self.tab_round = self._round_from(came_in)

    @staticmethod
    def _round_from(first: TabName) -> tuple[TabName, ...]:
        at = TAB_ORDER.index(first)
        return TAB_ORDER[at:] + TAB_ORDER[:at]

    def action_step_tab(self, step: int) -> None:
        """Tab: while the panes are tabs, on to the next pane of the round, then on as
        usual once every pane was reached."""
        current = self.tab_of(self.screen.focused)
        if not self.narrow or current is None:
            raise SkipAction()  # the screen's own Tab moves the focus on
        index = self.tab_round.index(current) + step
        if not 0 <= index < len(self.tab_round):
            raise SkipAction()
        self._focus_tab(self.tab_round[index])  # the user's move: the subject changes

    def enter_tabs(self, step: int) -> bool:
        """Tab from outside the panes while they are tabs: into the pane on show, the
        first of Tab's round (Shift+Tab: the last of it, the round going back). False
        when the focus goes on as usual (the panes side by side, or not next in the
        chain)."""
        focused = self.screen.focused
        chain = self.screen.focus_chain
        if not self.narrow or focused not in chain or self.tab_of(focused) is not None:
            return False
        after = chain[(chain.index(focused) + step) % len(chain)]
        if self.tab_of(after) is None:
            return False
        shown = self.current_tab
        self._focus_tab(shown)  # the user's move
        round_ = self._round_from(shown)
        self.tab_round = round_ if step > 0 else (*round_[1:], shown)
        return True

    def arrange_panes(self) -> None:
        """Show the panes as tabs or side by side, at their widths (again as titles and
        counts change: the strip of tabs shows them)."""
        narrow = self.narrow
        history = self.history
        # On the history pane, not on the panes: a class that changes restyles the
        # node's whole subtree, and this one changes with every query and every clear.
        # So only at the medium width, the one where it hides the pane (app.tcss).
        stepping_aside = self.screen.has_class(MEDIUM)
        history.set_class(stepping_aside and self.private.searching, "-searching")
        self.shared.set_class(self.shares is False, "-no-shared-scope")
        history.styles.width = "1fr" if narrow else history.natural_width()
        tabs = self._tab_strip() if narrow else None
        for name in TAB_ORDER:
            pane = self.tab_pane(name)
            pane.set_class(narrow and name != self.current_tab, "-tab-hidden")
            pane.show_as_tab(tabs, TAB_HINT if narrow else "")

    def _tab_strip(self) -> Text:
        strip = Text()
        for index, name in enumerate(TAB_ORDER):
            if index:
                strip.append(" │ ", style="dim")
            pane = self.tab_pane(name)
            if name == self.current_tab:
                strip.append(f" {pane.title_text} ", style="bold reverse")
            else:
                strip.append(pane.tab_label, style="dim")
        return strip
