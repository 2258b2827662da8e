"""The line under the search box: what the search found, or what the box does.

The line is always there (in a tall box): showing or hiding it would move
everything under it, and a moved pane is drawn again whole, which a keystroke must
not cost. In a short box it takes a row only while there is a search to report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from amem_tui.tui.text import one_line
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine import SearchResult


class SearchStatus(Static):
    """The search box's status line: a search's report, else the resting hint."""

    #: A short screen: no row for the resting hint. Short until the screen's size says.
    compact: reactive[bool] = reactive(True, init=False, always_update=True)
    #: The box has the focus, so typed keys search; else they are the panes' keys
    #: (``d`` deletes), and the hint must say that ``/`` comes first.
    box_focused: reactive[bool] = reactive(False, init=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        #: The agent searched as, named by the resting hint.
        self.agent = "the agent"
        #: The line shows the resting hint (no search to report).
        self.resting = True
        #: The search result the line counts the hits of, if it does.
        self.counted: SearchResult | None = None

    def on_mount(self) -> None:
        """Hidden until the screen's size says whether a short screen leaves it out."""
        self.display = False
        self.show("")

    def show(self, text: str, counted: SearchResult | None = None) -> None:
        """Put ``text`` on the line (the report of ``counted``, if given); an empty text
        puts back what the box does."""
        line = Text(text, no_wrap=True, overflow="ellipsis") if text else self._resting_hint()
        self.update(line, layout=False)
        self.resting = not text
        self.counted = counted
        self._fit()

    def watch_compact(self) -> None:
        self._fit()

    def watch_box_focused(self) -> None:
        if self.resting:
            self.show("")

    def _fit(self) -> None:
        shown = not (self.compact and self.resting)
        if self.display != shown:
            self.display = shown

    def _resting_hint(self) -> Text:
        seen = f"what {self.agent} can see (by meaning and by words)"
        return Text(
            f"Type to search {seen}; Enter goes to the hits"
            if self.box_focused
            else f"Press / to search {seen}",
            style="dim",
            no_wrap=True,
            overflow="ellipsis",
        )


def result_status(
    result: SearchResult, *, filters: str, hidden_key: str, show_hidden: bool, limit_typed: bool
) -> str:
    """What the status line says of ``result``, what matters first (the end of the
    line is cut on a narrow terminal): its hits, the hidden matches and the key that
    shows them, whether the agent's own search stops at these matches (and how to ask
    for more), the query and agent (the box and the header show them too), the
    ranking and filters, whether it is partial, its notice."""
    weak = sum(1 for hit in result.hits if hit.weak and hit.via != "link")
    parts = [plural(len(result.hits), "hit") + (f" ({weak} weak)" if weak else "")]
    if result.hidden:
        verb = "hide" if show_hidden else "show"
        found = plural(len(result.hidden), "hidden match", "hidden matches")
        parts.append(f"{found} ({hidden_key} to {verb})")
    matches = len(result.hits) - sum(1 for hit in result.hits if hit.via == "link")
    if not limit_typed and result.limit is not None and matches >= result.limit:
        parts.append(f"the top {result.limit} the agent gets (limit:N for more)")
    parts += [f"for {one_line(result.query, 50)!r} as {result.agent}", result.ranking_name]
    if filters:
        parts.append(filters)
    if result.partial:
        parts.append(f"partial: {result.partial}")
    if result.notice:
        parts.append(result.notice)
    parts.append("Esc clears")
    return " · ".join(parts)
