"""A bordered pane that can also be drawn as one tab of several.

On a narrow terminal the main screen shows one pane at a time; the pane on show
then lists every pane in its border title, its own name highlighted, so the user
sees what the other tabs hold (their counts) and that Tab reaches them.
"""

from __future__ import annotations

from rich.text import Text
from textual.containers import Vertical
from textual.reactive import var

from amem_tui.tui.workers import ReportsWorkerFailures


class TabbedPane(ReportsWorkerFailures, Vertical):
    """A pane with a title and a subtitle of its own, or a strip of tabs instead."""

    DEFAULT_CSS = """
    TabbedPane { border: round $panel-lighten-2; height: 1fr; }
    TabbedPane:focus-within, TabbedPane:focus { border: round $accent; }
    """

    #: The pane's own title ("Private · main (8)").
    title_text: var[str] = var("", init=False)
    #: The pane's own subtitle ("200 of 458 loaded").
    subtitle_text: var[str] = var("", init=False)
    #: The strip of tabs drawn instead of the title (None: the pane's own title).
    tabs: var[Text | None] = var[Text | None](None, init=False)
    #: Said under the pane beside its subtitle while it is a tab ("Tab: next pane").
    tab_hint: var[str] = var("", init=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._drawn: tuple[Text, Text] | None = None

    @property
    def tab_label(self) -> str:
        """How the pane is named in a strip of tabs (its title, by default)."""
        return self.title_text

    def set_titles(self, title: str, subtitle: str = "") -> None:
        """Set the pane's own title and subtitle (drawn unless it is shown as a tab)."""
        self.title_text = title
        self.subtitle_text = subtitle

    def show_as_tab(self, tabs: Text | None, hint: str = "") -> None:
        """Draw ``tabs`` as the title (None: the pane's own title) and ``hint`` below."""
        self.tabs = tabs
        self.tab_hint = hint

    def watch_title_text(self) -> None:
        self._draw_titles()

    def watch_subtitle_text(self) -> None:
        self._draw_titles()

    def watch_tabs(self) -> None:
        self._draw_titles()

    def watch_tab_hint(self) -> None:
        self._draw_titles()

    def _draw_titles(self) -> None:
        title = self.tabs if self.tabs is not None else Text(self.title_text)
        parts = (self.subtitle_text, self.tab_hint)
        subtitle = Text(" · ".join(part for part in parts if part))
        # Setting a border title repaints the whole pane even when it is unchanged: only
        # a changed title is set.
        if (title, subtitle) != self._drawn:
            self._drawn = (title, subtitle)
            self.border_title = title
            self.border_subtitle = subtitle
