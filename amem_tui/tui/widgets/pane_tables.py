"""A note pane's two tables: the listing's and the hits', one shown at a time in the
same place (clearing a search shows the listing's table as it was left: rows, cursor,
scroll and drawn lines). Here: which one is shown, their columns, the cells of each
row, and the cursor.

The content column always takes what the other columns leave: those are as narrow as
what they show (an owner column as wide as the longest owner, no state column; states
are markers before the content). A search hit's columns are one cell (see
``search_row``). The listing gets a column for its
sort order when it is not newest first, and a mark column while a note is marked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

from rich.cells import cell_len
from rich.text import Text
from textual.widgets.data_table import ColumnKey

from amem_tui.tui.text import cell, one_line
from amem_tui.tui.widgets.listing_view import sort_cell
from amem_tui.tui.widgets.note_rows import OWNER_MAX, content_cell, search_header, search_row
from amem_tui.tui.widgets.note_table import NoteTable

if TYPE_CHECKING:
    from textual.geometry import Size
    from textual.widgets import DataTable

    from amem_tui.engine import MemoryNote, SearchHit
    from amem_tui.tui.widgets.listing_view import Order
    from amem_tui.tui.widgets.pane_marks import MarkedNotes

#: Content column width before the pane has a size, and the narrowest it gets.
CONTENT_FALLBACK = 60
CONTENT_MIN = 12
#: What the mark column shows for a marked note (space marks and unmarks it).
MARK = "●"
MARK_STYLE = "bold cyan"
#: Rows measured for the width of a sort column (a page of the listing).
SORT_MEASURED = 200


class TablesHost(Protocol):
    """What the tables read of their pane."""

    #: Rows follow mode highlights: note id -> kind of change.
    marks: dict[str, str]

    #: Search hits are shown (in the hits' table), not the listing.
    @property
    def searching(self) -> bool: ...
    #: The sort order of the listing's rows.
    @property
    def order(self) -> Order: ...
    #: The marked notes, by id.
    @property
    def marked(self) -> MarkedNotes: ...

    @property
    def size(self) -> Size: ...


class PaneTables:
    """The tables of the pane ``host``: the shown one, their columns, rows and cursor."""

    def __init__(self, host: TablesHost, show_owner: bool) -> None:
        self.host, self.show_owner = host, show_owner
        self.listing = NoteTable(cursor_type="row", zebra_stripes=False)
        self.hits = NoteTable(cursor_type="row", zebra_stripes=False)
        self.both = (self.listing, self.hits)
        #: The width of the search rows' owner column (None: no owner column).
        self.owner_width: int | None = None
        self.sort_width = 0
        #: Words in the query searched (a hit's match label counts them).
        self.query_words = 0

    @property
    def shown(self) -> DataTable[Text]:
        """The table of what the pane shows: the hits' while searching, else the listing's."""
        return self.hits if self.host.searching else self.listing

    def show(self) -> None:
        """Show the table of what the pane shows and hide the other, the focus following."""
        shown = self.shown
        hidden = self.listing if shown is self.hits else self.hits
        if hidden.display:
            focused = hidden.has_focus
            hidden.display = False
            shown.display = True
            if focused:
                shown.focus()
        elif not shown.display:
            shown.display = True

    # ---------------------------------------------------------------- columns
    def lay_out(self, search: bool, notes: Sequence[MemoryNote]) -> None:
        """Clear the shown table and give it the columns for ``notes`` (hits if ``search``)."""
        host = self.host
        table = self.shown
        table.clear(columns=True)
        if host.marked:  # the mark column, while some note is marked
            table.add_column(" ", key="mark", width=1)
        owner_width = None
        if self.show_owner:
            owners = [cell_len(one_line(n.effective_owner or "?", OWNER_MAX)) for n in notes]
            owner_width = max([5, *owners])
        if search:  # one cell per hit holds its columns (see note_rows.search_row)
            self.owner_width = owner_width
            label = search_header(owner_width)
        else:
            order = host.order
            if owner_width is not None:
                header = order.label if order.key == "owner" else "owner"
                table.add_column(header, key="owner", width=max(owner_width, len(header)))
            if self.has_sort_column:
                cells = [cell_len(sort_cell(note, order.key)) for note in notes[:SORT_MEASURED]]
                self.sort_width = max([len(order.label), *cells])
                table.add_column(order.label, key="sort", width=self.sort_width)
            label = Text("content")
        # A fixed width from the pane's size: an auto width is re-measured as rows are
        # replaced and could shrink the column to a few characters.
        table.add_column(label, key="content", width=self.content_width(rows=len(notes)))

    def content_width(self, table: DataTable[Text] | None = None, rows: int | None = None) -> int:
        """Cells left in ``table`` (the one shown) for the content column once its other
        columns are drawn, and its scrollbar when its ``rows`` (default: the rows it
        has) are more than it shows: a column under the scrollbar would hide the
        ellipsis of every row cut."""
        table = table or self.shown
        # The tables span the pane: its width is current when the pane has just been
        # resized, where a table (the hidden one above all) may still have its last size.
        laid_out = max(t.outer_size.width for t in self.both)
        available = self.host.size.width or laid_out or CONTENT_FALLBACK
        height = max(t.outer_size.height for t in self.both) or self.host.size.height
        header = table.header_height if table.show_header else 0
        count = table.row_count if rows is None else rows
        if count > height - header:
            available -= table.styles.scrollbar_size_vertical
        fixed = sum(
            column.get_render_width(table)
            for column in table.columns.values()
            if column.key != ColumnKey("content")
        )
        return max(CONTENT_MIN, available - fixed - 2 * table.cell_padding)

    def fit(self, table: DataTable[Text]) -> None:
        """Make ``table``'s content column as wide as what the others leave."""
        column = table.columns.get(ColumnKey("content"))
        if column is None:
            return
        width = self.content_width(table)
        if width != column.width:
            column.width = width
            table.refresh()

    def fit_both(self) -> None:
        """Keep the content column as wide as the pane, in both tables."""
        for table in self.both:
            self.fit(table)

    @property
    def has_sort_column(self) -> bool:
        """The listing has a column for its sort order (not newest first; an owner column
        says it in its own header)."""
        order = self.host.order
        return not order.is_default and not (order.key == "owner" and self.show_owner)

    def mark_cell(self, note_id: str) -> Text:
        """The mark column's cell of a note."""
        return cell(MARK if note_id in self.host.marked else " ", 1, MARK_STYLE)

    def row(self, note: MemoryNote, hit: SearchHit | None = None) -> list[Text]:
        """The cells of a note's row (of a search hit's, if ``hit`` is given)."""
        host = self.host
        row: list[Text] = [self.mark_cell(note.id)] if host.marked else []
        if hit is not None:
            weak = hit.weak and hit.via != "link"
            return [*row, search_row(hit, self.query_words, self.owner_width, weak)]
        if self.show_owner:
            row.append(cell(note.effective_owner or "?", OWNER_MAX))
        if self.has_sort_column:
            key = host.order.key
            value = sort_cell(note, key)
            if key == "recalls":  # counts line up on the right
                value = f"{value:>{self.sort_width}}"
            row.append(cell(value, self.sort_width, "dim" if value == "never" else ""))
        row.append(content_cell(note, mark=host.marks.get(note.id)))
        return row

    def redraw_marks(self, ids: Iterable[str]) -> bool:
        """Draw the mark cells of ``ids`` again; False when the mark column must come (the
        first mark) or go (the last) first, with the columns laid out again."""
        table = self.shown
        has_column = ColumnKey("mark") in table.columns
        if has_column != bool(self.host.marked):
            return False
        if has_column:
            for note_id in ids:
                if note_id in table.rows:
                    table.update_cell(note_id, "mark", self.mark_cell(note_id))
        return True

    def redraw_row(self, note: MemoryNote) -> None:
        """Draw a note's row of the shown table again, if it has one."""
        table = self.shown
        if note.id not in table.rows:
            return
        for column, value in zip(list(table.columns), self.row(note), strict=True):
            table.update_cell(note.id, column, value)

    # ---------------------------------------------------------------- cursor
    @property
    def current_id(self) -> str | None:
        """The id of the note under the shown table's cursor, if any."""
        table = self.shown
        if not table.display or table.row_count == 0:
            return None
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        except Exception:  # no valid cursor yet
            return None
        return str(key.value) if key.value is not None else None

    def select(self, note_id: str) -> bool:
        """Move the cursor to a note if it is loaded."""
        table = self.shown
        if note_id not in table.rows:
            return False
        table.move_cursor(row=table.get_row_index(note_id))
        return True

    def keep_row(self, row: int) -> None:
        """Put the cursor on ``row`` (the last row when there are fewer)."""
        table = self.shown
        if table.row_count:
            table.move_cursor(row=min(max(row, 0), table.row_count - 1), animate=False)

    def ids_in_view(self, margin: int = 1) -> list[str]:
        """Ids of the rows on screen, and of ``margin`` screens of rows above and below."""
        table = self.shown
        if not table.display:
            return []
        height = max(1, table.scrollable_content_region.height)
        top = int(table.scroll_y)
        rows = table.ordered_rows[max(0, top - margin * height) : top + (margin + 1) * height]
        return [str(row.key.value) for row in rows if row.key.value is not None]
