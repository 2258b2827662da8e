"""What a note pane shows: an agent's listing, loaded page by page, or search hits.

The pane keeps the agent's listing while it shows search hits, so clearing a search
brings the listing back without asking the store, and it loads further pages itself.
The listing and the hits have a table each, one shown at a time: clearing a search
shows the listing's table as it was left (rows, cursor, scroll and drawn lines), where
re-adding and drawing a page of rows would keep the next query's keys waiting. A listing that
changed while hits were shown is rebuilt instead. The tables themselves (which is
shown, their columns, the cells of each row, the cursor) are
``PaneTables``.

What the pane draws is reactive: its counts, search, filter, sort and marks, from which
its titles are computed (``PaneRows.compute_titles``), and the line it says under
its rows. What the user does to the rows (marks, the filter box, the sort keys) and what
follow mode merges in are ``NotePane``'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual import getters
from textual.app import ComposeResult
from textual.reactive import var
from textual.widgets import DataTable, Static

from amem_tui.tui.early import early_lines, pane_title
from amem_tui.tui.messages import PaneName
from amem_tui.tui.widgets import pane_titles
from amem_tui.tui.widgets.listing_view import ListingView, Order
from amem_tui.tui.widgets.note_rows import query_word_count
from amem_tui.tui.widgets.pane_marks import MarkedNotes
from amem_tui.tui.widgets.pane_tables import PaneTables
from amem_tui.tui.widgets.tabbed_pane import TabbedPane

if TYPE_CHECKING:
    from amem_tui.engine import AgentScope, MemoryEngine, MemoryNote, SearchHit
    from amem_tui.engine.for_apps import EarlyHit, ListScope

#: Notes per page of a listing.
PAGE_SIZE = 200
#: The Shared pane's title while it lists the notes the agent reads only by id.
GET_ONLY_TITLE = "Get only (read by id, never in its searches)"
#: Ask for the next page when the cursor is this close to the last loaded row.
PREFETCH_ROWS = 20


class PaneRows(TabbedPane):
    """A titled table of notes; loads more rows on demand, never holds a store."""

    DEFAULT_CSS = """
    PaneRows > DataTable { height: 1fr; background: transparent; scrollbar-size-horizontal: 0; }
    PaneRows > .pane-message { padding: 0 1; color: $text-muted; height: auto; }
    PaneRows > .pane-message.-early { text-wrap: nowrap; text-overflow: ellipsis; }
    """

    #: What the pane says instead of (or under) its rows.
    message_line = getters.query_one(".pane-message", Static)

    # What the pane draws: its titles are computed from these (see compute_titles).
    #: The pane's name for the agent shown ("Private · main").
    label: var[str] = var("", init=False)
    #: The listing the pane shows: its own, or (the Shared pane) ``get_only``.
    kind: var[ListScope] = var("private", init=False)
    #: Notes the listing holds in all (the hits, while searching), how many of them are
    #: loaded, and how many are soft-deleted (counted only while they are shown).
    total: var[int] = var(0, init=False)
    loaded: var[int] = var(0, init=False)
    deleted: var[int] = var(0, init=False)
    #: Rows the table shows (what a filter kept).
    rows_shown: var[int] = var(0, init=False)
    #: Search hits are shown (for ``hits_query``), not the listing.
    searching: var[bool] = var(False, init=False)
    hits_query: var[str] = var("", init=False)
    #: The plain-text filter of the rows, and their sort order (search hits keep the
    #: agent's ranking).
    filter_text: var[str] = var("", init=False)
    order: var[Order] = var(Order(), init=False)
    #: The marked notes (a multi-selection).
    marked: var[MarkedNotes] = var(MarkedNotes, init=False)
    #: Neither table is shown: the pane only explains (see show_disabled).
    disabled_view: var[bool] = var(False, init=False)
    #: What the pane says instead of (or under) its rows.
    message: var[str | Text] = var[str | Text]("", init=False)
    #: An early answer's hits, shown as text (see show_early); None when none are.
    early: var[Text | None] = var[Text | None](None, init=False)
    early_count: var[int] = var(0, init=False)
    #: The title and subtitle (the border's, unless the pane is shown as a tab).
    titles: var[tuple[str, str]] = var(("", ""))

    def __init__(
        self,
        engine: MemoryEngine,
        which: PaneName,
        title: str,
        show_owner: bool,
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.engine = engine
        self.which: PaneName = which
        #: The pane's own name (the Shared pane shows another while it lists get-only notes).
        self.own_title = title
        self.set_reactive(PaneRows.label, title)
        self.set_reactive(PaneRows.kind, which)
        self._asked_at = -1
        self.hits: dict[str, SearchHit] = {}
        #: The agent's listing as loaded so far (kept while search hits are shown).
        self.listing: list[MemoryNote] = []
        self.listing_total = 0
        self.listing_deleted = 0
        #: The agent whose listing is kept.
        self.scope: AgentScope | None = None
        self._include_inactive = False
        self._generation = 0
        self._shown_for: AgentScope | None = None
        #: Rows follow mode highlights for a while: note id -> kind of change.
        self.marks: dict[str, str] = {}
        #: The listing's table and the hits' (one shown): columns, cells, cursor.
        self.tables = PaneTables(self, show_owner)
        #: The listing's table no longer matches the kept listing (see show_kept_listing).
        self._listing_stale = True
        #: What the filter and the sort make of the rows (kept with filter_text and order).
        self.view = ListingView()
        #: Every hit of the search shown, the filter's or not (``hits`` holds them too).
        self.all_hits: list[SearchHit] = []

    def compose(self) -> ComposeResult:
        for table in self.tables.both:
            table.can_focus = True
            yield table
        self.tables.hits.display = False
        message = Static("", classes="pane-message", markup=False)
        message.display = False  # until there is something to say
        yield message

    @property
    def table(self) -> DataTable[Text]:
        """The table of what the pane shows: the hits' while searching, else the listing's."""
        return self.tables.shown

    @property
    def base_title(self) -> str:
        """The pane's name in its titles: its label, or what the Shared pane lists instead."""
        return GET_ONLY_TITLE if self.kind == "get_only" else self.label

    # ---------------------------------------------------------------- drawing
    def compute_titles(self) -> tuple[str, str]:
        """The title and subtitle of what the pane shows."""
        if self.early is not None:
            return pane_title(self.base_title, self.early_count), ""
        if self.disabled_view:
            return f"{self.base_title}: none", ""
        if self.scope is None:  # nothing loaded yet: the name alone, as the opening screen
            return self.base_title, ""
        return pane_titles.titles(self, self.hits_query if self.searching else None)

    def watch_titles(self, titles: tuple[str, str]) -> None:
        self.set_titles(*titles)

    def watch_message(self) -> None:
        self._draw_message()

    def watch_early(self, early: Text | None) -> None:
        self.message_line.set_class(early is not None, "-early")
        self._draw_message()

    def _draw_message(self) -> None:
        text = self.early if self.early is not None else self.message
        line = self.message_line
        line.update(text)
        line.display = bool(text)

    def watch_filter_text(self, text: str) -> None:
        self.view.text = text
        self._relist(columns=False)

    def watch_order(self, order: Order) -> None:
        self.view.order = order
        if self.searching:
            self._listing_stale = True  # sorted when the listing shows again
            return
        self._relist(columns=True)

    def _show_rows(self, message: str | Text = "") -> None:
        """The table of what the pane shows (and ``message`` under it) replace what was
        there: an explanation or an early answer's hits."""
        self.disabled_view = False
        self.tables.show()
        self.can_focus = False
        self.early = None
        self.message = message

    def on_resize(self) -> None:
        """Keep the content column as wide as the pane (in both tables)."""
        self.tables.fit_both()

    # ---------------------------------------------------------------- listing
    def show_kept_listing(self) -> None:
        """Show the listing as loaded so far (e.g. when a search is cleared): its table
        as it was left, or rebuilt when the listing changed meanwhile."""
        if self._listing_stale or self.disabled_view:
            self.show_listing(self.listing, self.listing_total, self.listing_deleted)
            return
        self.searching = False
        self.hits = {}
        self.total = self.listing_total
        self.deleted = self.listing_deleted
        self._count_rows()
        self.tables.fit(self.tables.listing)  # the pane may have changed size meanwhile
        self._show_rows("" if self.total else "No notes here.")

    def show_listing(self, notes: Sequence[MemoryNote], total: int, deleted: int = 0) -> None:
        """Replace the rows with the first page of a listing.

        The cursor keeps its row for the same agent (a note deleted under it leaves
        the next one selected), and starts at the top for another.
        """
        same_agent = self._shown_for == self.scope
        self._shown_for = self.scope
        listing = self.tables.listing
        row = listing.cursor_row if listing.row_count and same_agent else 0
        self._listing_stale = False
        self.searching = False
        self.hits = {}
        self.tables.lay_out(search=False, notes=notes)
        self.total = total
        self.deleted = deleted
        self._asked_at = -1
        self._add_rows(self.view.listing(notes))
        self._count_rows()
        self.tables.fit(self.table)
        self._show_rows("" if total else "No notes here.")
        self.keep_row(row)

    def keep_row(self, row: int) -> None:
        """Put the cursor on ``row`` (the last row when there are fewer)."""
        self.tables.keep_row(row)

    def append_page(self, notes: Sequence[MemoryNote]) -> None:
        """Add one more page of rows (sorted by a column, every loaded row is placed again)."""
        if not self.order.is_default:
            self._rebuild(self.listing)
            return
        self._add_rows(self.view.filtered(notes))
        self._count_rows()
        self.tables.fit(self.table)  # the rows may now need the scrollbar
        self._show_rows(self.message)

    def _add_rows(self, notes: Iterable[MemoryNote]) -> None:
        table = self.table
        for note in notes:
            if note.id not in table.rows:
                table.add_row(*self.tables.row(note), key=note.id)

    def _count_rows(self) -> None:
        """The rows shown, and how many notes the listing holds (a filter shows fewer
        rows than that)."""
        rows = self.table.row_count
        self.rows_shown = rows
        if not self.searching:
            self.loaded = rows if self.view.plain else max(rows, len(self.listing))

    def show_hits(self, hits: Sequence[SearchHit], query: str) -> None:
        """Replace the rows with search hits, in the agent's order (best first)."""
        self.searching = True
        self.hits = {h.note.id: h for h in hits}
        self.all_hits = list(hits)
        self.tables.query_words = query_word_count(query)
        self.tables.lay_out(search=True, notes=[h.note for h in hits])
        self._add_hit_rows()
        self.total = len(hits)
        self.hits_query = query
        self._show_rows("" if hits else "No match this agent can see.")

    def show_early(self, hits: Sequence[EarlyHit]) -> None:
        """The first words of an early answer's hits (the saved index's, the store still
        opening), as text, never rows: nothing can be chosen and acted on until the
        agent's own search replaces them."""
        self.early_count = len(hits)
        self.early = early_lines(hits)

    def forget_early(self) -> None:
        """Stop showing an early answer's hits (if shown)."""
        self.early = None

    def _add_hit_rows(self) -> None:
        table = self.table
        for hit in self.all_hits:
            if hit.note.id not in table.rows and self.view.matches(hit.note):
                table.add_row(*self.tables.row(hit.note, hit), key=hit.note.id)
        self.loaded = self.rows_shown = table.row_count

    def show_disabled(self, text: str) -> None:
        """No rows at all, and a plain explanation instead (e.g. a Mode B agent)."""
        self.searching = False
        self.hits = {}
        self._listing_stale = True
        for table in self.tables.both:
            table.clear(columns=True)
            table.display = False
        self.disabled_view = True
        self.can_focus = True  # Tab still reaches the explanation
        self.total = self.loaded = self.rows_shown = 0
        self.early = None
        self.message = Text(text)

    @property
    def tab_label(self) -> str:
        """``Shared (6)`` in a strip of tabs: the pane's name and what it shows."""
        return pane_titles.tab_label(self)

    def _relist(self, columns: bool) -> None:
        """Draw the rows again through the filter and the sort, from what is loaded; the
        cursor stays on its note while the note is still shown."""
        if self.disabled_view:
            return
        keep, row = self.current_id, self.table.cursor_row
        table = self.table
        if self.searching:
            self._listing_stale = True
            if columns:
                self.tables.lay_out(search=True, notes=[hit.note for hit in self.all_hits])
            else:
                table.clear()
            self._add_hit_rows()
        else:
            if columns:
                self.tables.lay_out(search=False, notes=self.listing)
            else:
                table.clear()
            self._add_rows(self.view.listing(self.listing))
            self._count_rows()
            self._asked_at = -1
        self.tables.fit(table)
        if keep is not None and keep in table.rows:
            row = table.get_row_index(keep)
        elif self.view.filtering:
            row = 0  # the best place to look at what the filter kept
        self.keep_row(row)

    def _rebuild(self, notes: Sequence[MemoryNote]) -> None:
        """Redraw every row, the cursor's note kept under the cursor, where it was seen."""
        table = self.table
        keep = self.current_id
        old_row, old_scroll = table.cursor_row, table.scroll_y
        table.clear()
        self._add_rows(self.view.listing(notes))
        self._count_rows()
        self.tables.fit(table)
        self._asked_at = -1
        self._show_rows("" if self.total else "No notes here.")
        if table.row_count == 0:
            return
        if keep is not None and keep in table.rows:
            row = table.get_row_index(keep)
        else:  # the cursor's note left: the cursor stays on its line
            row = min(old_row, table.row_count - 1)
        table.move_cursor(row=row, scroll=False)
        # At the top, new rows come into view above the cursor; elsewhere the cursor's
        # note stays on the same line of the screen.
        visible = old_scroll == 0 and row < table.scrollable_content_region.height - 1
        scroll = old_scroll if visible else max(0, old_scroll + row - old_row)
        table.call_after_refresh(table.scroll_to, y=scroll, animate=False)

    # ---------------------------------------------------------------- cursor
    @property
    def current_id(self) -> str | None:
        """The id of the note under the cursor, if any."""
        return self.tables.current_id

    def select(self, note_id: str) -> bool:
        """Move the cursor to a note if it is loaded."""
        return self.tables.select(note_id)
