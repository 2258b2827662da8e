"""A pane of notes (private or shared): its listing, loaded page by page, or search hits.

The pane keeps the agent's listing while it shows search hits, so clearing a search
brings the listing back without asking the store, and it loads further pages itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static
from textual.widgets.data_table import ColumnKey

from amem_tui.tui.messages import PageLoaded, PaneName
from amem_tui.tui.text import cell
from amem_tui.tui.workers import ReportsWorkerFailures

if TYPE_CHECKING:
    from amem_tui.engine.engine import MemoryEngine
    from amem_tui.engine.models import MemoryNote, SearchHit
    from amem_tui.engine.scope import AgentScope

#: Notes per page of a listing.
PAGE_SIZE = 200
#: Ask for the next page when the cursor is this close to the last loaded row.
PREFETCH_ROWS = 20
#: Content column width before the pane has a size, and the narrowest it gets.
CONTENT_FALLBACK = 60
CONTENT_MIN = 12


def newest_first(notes: Iterable[MemoryNote]) -> list[MemoryNote]:
    """Notes by creation time, newest first; notes without a readable time go last.

    The engine lists in store order and has no order option, so each loaded page is
    sorted here: pages after the first are sorted among themselves, not globally.
    """

    def when(note: MemoryNote) -> tuple[bool, float]:
        created = note.created_at()
        return (created is not None, created.timestamp() if created is not None else 0.0)

    return sorted(notes, key=when, reverse=True)


def hit_reason(hit: SearchHit) -> str:
    """Why a hit is shown, in two words: visibility and how it was reached."""
    return f"{hit.because}·{hit.via}"


#: What a row highlighted by follow mode says in its state column, by kind of change.
MARK_LABELS: Mapping[str, str] = {
    "added": "new",
    "published": "shared",
    "unpublished": "private",
    "restored": "restored",
    "edited": "edited",
    "merged": "merged",
    "evolved": "evolved",
    "changed": "changed",
}
MARK_STYLE = "bold black on yellow"


def state_of(note: MemoryNote) -> Text:
    """A short marker column: deleted, conflict, ephemeral."""
    if not note.active:
        return Text("deleted", style="red")
    if note.conflict:
        return Text("conflict", style="yellow")
    if note.pending_merge:
        return Text("pending", style="yellow")
    return Text("")


class NotePane(ReportsWorkerFailures, Vertical):
    """A titled table of notes; loads more rows on demand, never holds a store."""

    DEFAULT_CSS = """
    NotePane { border: round $panel-lighten-2; height: 1fr; }
    NotePane:focus-within { border: round $accent; }
    NotePane > DataTable { height: 1fr; background: transparent; scrollbar-size-horizontal: 0; }
    NotePane > .pane-message { padding: 0 1; color: $text-muted; height: auto; }
    """

    @dataclass
    class Highlighted(Message):
        """The cursor moved to a note."""

        pane: NotePane
        note_id: str | None

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
        self.base_title = title
        self.show_owner = show_owner
        self.total = 0
        self.loaded = 0
        self.searching = False
        self._asked_at = -1
        self.hits: dict[str, SearchHit] = {}
        #: The agent's listing as loaded so far (kept while search hits are shown).
        self.listing: list[MemoryNote] = []
        self.listing_total = 0
        self._scope: AgentScope | None = None
        self._include_inactive = False
        self._generation = 0
        #: Rows follow mode highlights for a while: note id -> kind of change.
        self.marks: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        table: DataTable[Text] = DataTable(cursor_type="row", zebra_stripes=False)
        table.can_focus = True
        yield table
        yield Static("", classes="pane-message", markup=False)

    @property
    def table(self) -> DataTable[Text]:
        """The table inside."""
        return self.query_one(DataTable)

    def _message(self, text: str | Text) -> None:
        message = self.query_one(".pane-message", Static)
        message.update(text)
        message.display = bool(text)

    def _columns(self, search: bool) -> None:
        table = self.table
        table.clear(columns=True)
        if search:
            table.add_column("score", key="score", width=6)
            table.add_column("why", key="why", width=14)
        else:
            table.add_column("state", key="state", width=8)
        if self.show_owner:
            table.add_column("owner", key="owner", width=8)
        # A fixed width from the pane's size: an auto width is re-measured as rows are
        # replaced and could shrink the column to a few characters.
        table.add_column("content", key="content", width=self._content_width())

    def _content_width(self) -> int:
        """Cells left for the content column once the fixed columns are drawn."""
        table = self.table
        available = table.size.width or self.size.width or CONTENT_FALLBACK
        fixed = sum(
            column.get_render_width(table)
            for column in table.columns.values()
            if column.key != ColumnKey("content")
        )
        # The table's size already leaves out its scrollbar; take the column's padding off.
        return max(CONTENT_MIN, available - fixed - 2 * table.cell_padding)

    def on_resize(self) -> None:
        """Keep the content column as wide as the pane."""
        table = self.table
        column = table.columns.get(ColumnKey("content"))
        if column is None:
            return
        width = self._content_width()
        if width != column.width:
            column.width = width
            table.refresh()

    def _row(self, note: MemoryNote, hit: SearchHit | None = None) -> list[Text]:
        style = "dim strike" if not note.active else ""
        row: list[Text] = []
        if hit is not None:
            row += [Text(f"{hit.score:.3f}"), Text(hit_reason(hit), style="italic")]
        elif note.id in self.marks and note.active:
            row.append(Text(MARK_LABELS.get(self.marks[note.id], "changed"), style=MARK_STYLE))
        else:
            row.append(state_of(note))
        if self.show_owner:
            row.append(cell(note.effective_owner or "?", 8))
        row.append(cell(note.content, 200, style=style))
        return row

    # ---------------------------------------------------------------- listing
    def keep_listing(
        self, scope: AgentScope, notes: Sequence[MemoryNote], total: int, include_inactive: bool
    ) -> None:
        """Remember an agent's first page (newest first); pages loading for another are dropped."""
        self._generation += 1
        self._scope = scope
        self._include_inactive = include_inactive
        self.listing = newest_first(notes)
        self.listing_total = total

    def show_kept_listing(self) -> None:
        """Show the listing as loaded so far (e.g. when a search is cleared)."""
        self.show_listing(self.listing, self.listing_total)

    @work(thread=True, exit_on_error=False, group="page")
    def load_page(
        self, scope: AgentScope, offset: int, include_inactive: bool, generation: int
    ) -> None:
        """The next page of the listing."""
        page = self.engine.list_notes(
            scope, self.which, limit=PAGE_SIZE, offset=offset, include_inactive=include_inactive
        )
        self.post_message(PageLoaded(generation, page))

    def on_page_loaded(self, message: PageLoaded) -> None:
        """Add a page to the listing; show it unless search hits are shown."""
        message.stop()
        if message.generation != self._generation:
            return
        page = newest_first(message.page.notes)
        self.listing.extend(page)
        self.listing_total = message.page.total
        if not self.searching:
            self.total = message.page.total
            self.append_page(page)

    def show_listing(self, notes: Sequence[MemoryNote], total: int) -> None:
        """Replace the rows with the first page of a listing."""
        self.searching = False
        self.hits = {}
        self._columns(search=False)
        self.total = total
        self.loaded = 0
        self._asked_at = -1
        self.append_page(notes)
        self._message("" if total else "No notes here.")

    def append_page(self, notes: Sequence[MemoryNote]) -> None:
        """Add one more page of rows."""
        table = self.table
        for note in notes:
            if note.id in table.rows:
                continue
            table.add_row(*self._row(note), key=note.id)
        self.loaded = table.row_count
        self._retitle()

    def show_hits(self, hits: Sequence[SearchHit], query: str) -> None:
        """Replace the rows with search hits, best first."""
        self.searching = True
        self.hits = {h.note.id: h for h in hits}
        self._columns(search=True)
        for hit in hits:
            if hit.note.id not in self.table.rows:
                self.table.add_row(*self._row(hit.note, hit), key=hit.note.id)
        self.loaded = self.table.row_count
        self.total = len(hits)
        self._retitle(query)
        self._message("" if hits else "No match this agent can see.")

    def show_disabled(self, text: str) -> None:
        """No rows at all, and a plain explanation instead (e.g. a Mode B agent)."""
        self.searching = False
        self.hits = {}
        self.table.clear(columns=True)
        self.table.display = False
        self.total = self.loaded = 0
        self.border_title = f"{self.base_title}: none"
        self.border_subtitle = ""
        self._message(Text(text))

    def _retitle(self, query: str | None = None) -> None:
        self.table.display = True
        if query is not None:
            self.border_title = f"{self.base_title}: {self.total} hits"
            self.border_subtitle = ""
        else:
            self.border_title = f"{self.base_title} ({self.total})"
            self.border_subtitle = (
                f"{self.loaded} of {self.total} loaded" if self.loaded < self.total else ""
            )

    # ------------------------------------------------------------- following
    def shown_notes(self) -> dict[str, MemoryNote]:
        """The agent's listing as loaded, by id (what follow mode compares with)."""
        return {note.id: note for note in self.listing}

    def ids_in_view(self, margin: int = 1) -> list[str]:
        """Ids of the rows on screen, and of ``margin`` screens of rows above and below
        (what follow mode watches: a row scrolled into view is looked at next)."""
        table = self.table
        if not table.display:
            return []
        height = max(1, table.scrollable_content_region.height)
        top = int(table.scroll_y)
        rows = table.ordered_rows[max(0, top - margin * height) : top + (margin + 1) * height]
        return [str(row.key.value) for row in rows if row.key.value is not None]

    def merge_notes(
        self,
        changed: Sequence[MemoryNote],
        removed: Iterable[str],
        total: int,
        marks: Mapping[str, str] | None = None,
    ) -> None:
        """Put changed and new notes into the listing and take ``removed`` out, keeping
        the cursor on the note it is on (a new note goes to the top).

        ``marks`` highlights rows (id -> kind of change) until :meth:`unmark`. While
        search hits are shown only the kept listing changes.
        """
        self.marks.update(marks or {})
        by_id = {note.id: note for note in changed}
        gone = set(removed)
        kept = [by_id.pop(note.id, note) for note in self.listing if note.id not in gone]
        fresh = newest_first(by_id.values())
        self.listing = fresh + kept
        self.listing_total = total
        if self.searching or not self.table.display:
            return
        self.total = total
        table = self.table
        if not fresh and not (gone & set(table.rows)):
            for note in changed:
                self._redraw_row(note)
            self._retitle()
            return
        self._rebuild(self.listing)

    def _redraw_row(self, note: MemoryNote) -> None:
        table = self.table
        if note.id not in table.rows:
            return
        for column, value in zip(list(table.columns), self._row(note), strict=True):
            table.update_cell(note.id, column, value)

    def _rebuild(self, notes: Sequence[MemoryNote]) -> None:
        """Redraw every row, the cursor's note kept under the cursor, where it was seen."""
        table = self.table
        keep = self.current_id
        old_row, old_scroll = table.cursor_row, table.scroll_y
        table.clear()
        for note in notes:
            if note.id not in table.rows:
                table.add_row(*self._row(note), key=note.id)
        self.loaded = table.row_count
        self._asked_at = -1
        self._retitle()
        self._message("" if self.total else "No notes here.")
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

    def unmark(self, ids: Iterable[str]) -> None:
        """Stop highlighting these rows."""
        for note_id in ids:
            if self.marks.pop(note_id, None) is None:
                continue
            for note in self.listing:
                if note.id == note_id and not self.searching:
                    self._redraw_row(note)

    # ---------------------------------------------------------------- cursor
    @property
    def current_id(self) -> str | None:
        """The id of the note under the cursor, if any."""
        table = self.table
        if not table.display or table.row_count == 0:
            return None
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        except Exception:  # no valid cursor yet
            return None
        return str(key.value) if key.value is not None else None

    def select(self, note_id: str) -> bool:
        """Move the cursor to a note if it is loaded."""
        table = self.table
        if note_id not in table.rows:
            return False
        table.move_cursor(row=table.get_row_index(note_id))
        return True

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Tell the screen which note is under the cursor; load more rows near the end."""
        event.stop()
        key = event.row_key.value if event.row_key is not None else None
        self.post_message(self.Highlighted(self, str(key) if key is not None else None))
        near_end = event.cursor_row >= self.loaded - PREFETCH_ROWS
        if (
            not self.searching
            and near_end
            and self.loaded < self.total
            and self._asked_at != self.loaded
            and self._scope is not None
        ):
            self._asked_at = self.loaded
            self.load_page(self._scope, self.loaded, self._include_inactive, self._generation)
