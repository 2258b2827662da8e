"""How the main screen fits its terminal, from 80×24 to 240×70 and beyond.

- Narrow (under :data:`NARROW_WIDTH` columns): the three panes are tabs, one shown
  at the full width; its border title lists them all, and Tab moves between them.
- Medium: the note panes side by side, the history pane as wide as its rows need;
  while search hits are shown the history pane steps aside, so the hits' content
  keeps its columns.
- Wide (from :data:`WIDE_WIDTH`): the history pane stays beside the hits.
- Short (under :data:`SHORT_HEIGHT` rows): a one-line search box.

Sizes only set classes and widths; ``app.tcss`` says what each class looks like.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from rich.text import Text
from textual import getters
from textual.widget import Widget
from textual.widgets import DataTable

from amem_tui.tui.actions import FocusArea, footer_entries
from amem_tui.tui.screens.write_actions import WriteActionsScreen
from amem_tui.tui.sizes import NARROW_WIDTH, SHORT_HEIGHT, WIDE_WIDTH
from amem_tui.tui.widgets.note_pane import NotePane
from amem_tui.tui.widgets.search_box import SearchBox
from amem_tui.tui.widgets.tabbed_pane import TabbedPane

if TYPE_CHECKING:
    from textual.binding import Binding
    from textual.events import Resize

    from amem_tui.engine import MemoryEngine

TabName = Literal["private", "shared", "history"]
TAB_ORDER: tuple[TabName, ...] = ("private", "shared", "history")
TAB_HINT = "Tab: next pane"


class AdaptiveLayout(WriteActionsScreen):
    """The main screen's layout for its size: classes, tabs, widths and the footer keys."""

    private_pane = getters.query_one("#private", NotePane)
    shared_pane = getters.query_one("#shared", NotePane)
    search_box = getters.query_one(SearchBox)

    def __init__(self, engine: MemoryEngine) -> None:
        super().__init__(engine)
        #: True while the panes are tabs (a narrow terminal).
        self.narrow = False
        #: True from :data:`WIDE_WIDTH` columns.
        self.wide = False
        #: True while the search box is one line (a short terminal).
        self.short = False
        #: The pane shown while the panes are tabs.
        self.current_tab: TabName = "private"

    # ------------------------------------------------------------------ size
    def on_resize(self, event: Resize) -> None:
        """Fit the layout to the new size."""
        self.fit_to(event.size.width, event.size.height)

    def fit_to(self, width: int, height: int) -> None:
        """Set the size classes for ``width`` × ``height`` and arrange the panes."""
        self.narrow = width < NARROW_WIDTH
        self.wide = width >= WIDE_WIDTH
        self.short = height < SHORT_HEIGHT
        self.set_class(self.narrow, "-narrow")
        self.set_class(self.short, "-short")
        self.search_box.set_compact(self.short)
        self.arrange_panes()

    def tab_pane(self, name: TabName) -> TabbedPane:
        """The pane behind a tab."""
        if name == "private":
            return self.private_pane
        if name == "shared":
            return self.shared_pane
        return self.history_pane

    def arrange_panes(self) -> None:
        """Show the panes the size allows, as tabs or side by side, at their widths."""
        searching = self.private_pane.searching
        no_shared = self.scope is not None and not self.shares
        self.shared_pane.set_class(no_shared, "-no-shared-scope")
        history = self.history_pane
        history.set_class(searching and not self.narrow and not self.wide, "-searching-aside")
        history.styles.width = "1fr" if self.narrow else history.natural_width()
        tabs = self._tab_strip() if self.narrow else None
        for name in TAB_ORDER:
            pane = self.tab_pane(name)
            pane.set_class(self.narrow and name != self.current_tab, "-tab-hidden")
            pane.show_as_tab(tabs, TAB_HINT if self.narrow else "")

    @property
    def shares(self) -> bool:
        """True when the agent has a shared scope to show (Mode A, not mem0)."""
        return self.scope is not None and self.scope.has_shared_scope and not self.mem0

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

    def show_tab(self, name: TabName) -> None:
        """Make ``name`` the pane on show while the panes are tabs."""
        if name != self.current_tab:
            self.current_tab = name
            self.arrange_panes()

    def focus_tab(self, name: TabName) -> None:
        """Show a pane (as the current tab when narrow) and put the focus in it."""
        self.show_tab(name)
        pane = self.tab_pane(name)
        # A note pane's table is the one it shows (its listing's or its hits').
        table = pane.table if isinstance(pane, NotePane) else pane.query_one(DataTable)
        # At once, not after this message: keys typed in the same burst follow the focus.
        self.set_focus(table if table.display else pane)

    # ----------------------------------------------------------------- focus
    def tab_of(self, widget: Widget | None) -> TabName | None:
        """The tab whose pane holds ``widget``, if one does."""
        for name in TAB_ORDER:
            pane = self.tab_pane(name)
            if widget is pane or (widget is not None and pane in widget.ancestors):
                return name
        return None

    def focus_next(self, selector: str | type[Widget] = "*") -> Widget | None:
        """Tab: while the panes are tabs, from one pane to the next, then on as usual."""
        if self._step_tab(+1):
            return self.focused
        return super().focus_next(selector)

    def focus_previous(self, selector: str | type[Widget] = "*") -> Widget | None:
        """Shift+Tab: the previous pane while the panes are tabs, then on as usual."""
        if self._step_tab(-1):
            return self.focused
        return super().focus_previous(selector)

    def _step_tab(self, step: int) -> bool:
        if not self.narrow:
            return False
        current = self.tab_of(self.focused)
        if current is None:
            return False
        index = TAB_ORDER.index(current) + step
        if not 0 <= index < len(TAB_ORDER):
            return False
        self.focus_tab(TAB_ORDER[index])
        return True

    def focus_area(self) -> FocusArea | None:
        """Where the focus is: a pane, the search box or the detail view."""
        focused = self.focused
        tab = self.tab_of(focused)
        if tab is not None:
            return tab
        if focused is not None and self.search_box in focused.ancestors_with_self:
            return "search"
        if focused is not None and self.detail_view in focused.ancestors_with_self:
            return "history" if self.detail_view.run is not None else "detail"
        return None

    def footer_bindings(self, width: int) -> list[tuple[Binding, bool, str]]:
        """The footer's keys for the focus and the width (see :class:`KeyFooter`)."""
        return footer_entries(
            self.active_bindings, self.app.get_key_display, self.focus_area(), width
        )
