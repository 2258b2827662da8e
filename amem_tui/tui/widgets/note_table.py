"""The table of a note pane: Textual's DataTable, with its plain rows drawn here.

A DataTable draws each cell through Rich's console (padding, wrapping, measuring),
which costs about as much as the rest of a frame when two panes of hits change on
every query's answer. A note pane's rows are plain: one line each, a row cursor, no
row labels, no fixed rows or columns, no zebra stripes, and every cell one line of
literal text cut with an ellipsis (``no_wrap``, ``overflow="ellipsis"``). Such a row
is drawn here, through the widget's public line API (``NoteTable.render_line``):
each cell cut to its column's width and styled as the table styles it (its cursor
and hover styles, applied in the same order), the row's style run on to the edge.
The header, and any row that is not plain, is left to the table.

The table shows its hover row only while the mouse moves over it, not once a key of
its own moved the cursor; ``NoteTable.hover_shown`` follows the same events.

A table hidden (a note pane shows its listing's table or its hits', one at a time) has
no size until it is laid out again, so scrolling to its cursor waits for that.

tests/tui/test_note_table.py compares every character's style with DataTable's own
drawing of the same rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.color import Color
from textual.geometry import Offset, Region
from textual.strip import Strip
from textual.widgets.data_table import Row

from amem_tui.tui.widgets.rows_table import RowsTable


@dataclass
class _Frame:
    """What every line of one frame reads: looked up once, as nothing changes meanwhile."""

    style: Style
    background: tuple[Color, Color]
    #: The rows in order, when every one is plain (None: the table draws them all).
    rows: list[Row] | None = None
    widths: list[int] | None = None
    cursor: Style | None = None
    hover: Style | None = None


class NoteTable(RowsTable):
    """A DataTable whose plain rows are cut and styled without Rich's layout."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        #: The hover row is drawn (the mouse moved over the table since its last key).
        self.hover_shown = False
        #: A scroll asked for while the table had no size (hidden): done once it has one.
        self.scroll_waiting = False
        self._frame: _Frame | None = None

    # ---------------------------------------------------------------- hover
    def on_mouse_move(self, event: events.MouseMove) -> None:
        """The hover row shows while the mouse is over a row."""
        self.hover_shown = bool(event.style.meta)

    def on_click(self) -> None:
        """A click shows the hover row too."""
        self.hover_shown = True

    def on_leave(self) -> None:
        """The mouse left: no hover row."""
        self.hover_shown = False

    def on_key(self, event: events.Key) -> None:
        """A key of the table's own (the cursor's) hides the hover row."""
        active = self.screen.active_bindings.get(event.key)
        if active is not None and active.node is self:
            self.hover_shown = False

    # ---------------------------------------------------------------- scroll
    def scroll_to_region(self, region: Region, **options: Any) -> Offset:
        """Scroll ``region`` into view; with no size yet, once the table has one."""
        if not self.size.area:  # shown again, not laid out yet: no height to scroll in
            self.scroll_waiting = True
            return Offset()
        return super().scroll_to_region(region, **options)

    def on_resize(self) -> None:
        """Laid out again: bring the cursor into view if a scroll waited for it."""
        if self.scroll_waiting and self.size.area:
            self.scroll_waiting = False
            self.move_cursor(row=self.cursor_row, animate=False)

    # ---------------------------------------------------------------- drawing
    def render_lines(self, crop: Region) -> list[Strip]:
        self._frame = _Frame(super().rich_style, super().background_colors)
        try:
            return super().render_lines(crop)
        finally:
            self._frame = None

    @property
    def rich_style(self) -> Style:
        """The widget's style (looked up once per frame while a frame is drawn)."""
        return self._frame.style if self._frame is not None else super().rich_style

    @property
    def background_colors(self) -> tuple[Color, Color]:
        """The background behind the widget and its own (once per frame, as above)."""
        return self._frame.background if self._frame is not None else super().background_colors

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the widget: a plain row drawn here, anything else by the table."""
        frame = self._frame
        header = self.header_height if self.show_header else 0
        if frame is None or y < header or (frame.rows is None and not self._plain(frame)):
            return super().render_line(y)
        assert frame.rows is not None
        index = y - header + int(self.scroll_y)
        if not 0 <= index < len(frame.rows):
            return super().render_line(y)
        cells = self.get_row_at(index)
        if not all(map(_one_line, cells)):
            return super().render_line(y)
        return self._row_line(frame, index, cells)

    def _plain(self, frame: _Frame) -> bool:
        """True (and the frame's rows read) when every row is drawn here."""
        if self.cursor_type != "row" or self.zebra_stripes or self.fixed_rows or self.fixed_columns:
            return False
        rows = self.ordered_rows
        if any(row.height != 1 or row.label is not None for row in rows):
            return False
        frame.rows = rows
        frame.widths = [column.get_render_width(self) for column in self.ordered_columns]
        component = self.get_component_rich_style
        frame.cursor = component("datatable--cursor")
        frame.hover = component("datatable--hover")
        return True

    def _row_line(self, frame: _Frame, index: int, cells: list[Text]) -> Strip:
        assert frame.widths is not None and frame.cursor is not None and frame.hover is not None
        base = frame.style
        cursor = self.show_cursor and index == self.cursor_row
        hover = self.show_cursor and self.hover_shown and index == self.hover_row
        # The cursor's style over the hover's, as the table adds them.
        component = Style()
        if hover:
            component += frame.hover
        if cursor:
            component += frame.cursor
        post = Style.null()
        if self.cursor_foreground_priority == "css":
            post += Style.from_color(color=component.color)
        if self.cursor_background_priority == "css":
            post += Style.from_color(bgcolor=component.bgcolor)
        padding = self.cell_padding
        space = [Segment(" " * padding)] if padding else []
        segments: list[Segment] = []
        for column, (cell, width) in enumerate(zip(cells, frame.widths, strict=False)):
            # Appended, the cell's own style becomes a span under its others, as Rich's
            # layout does it (Text.render alone would drop a style without spans).
            text = Text(end="")
            text.append_text(cell)
            text.truncate(max(0, width - 2 * padding), overflow="ellipsis", pad=True)
            drawn = [*space, *text.render(self.app.console), *space]
            pre = base + Style.from_meta({"row": index, "column": column}) + component
            segments += Segment.apply_style(drawn, pre, post)
        # The row's style runs on past the last column, to the widget's edge.
        width = self.size.width
        remaining = max(0, width - sum(frame.widths))
        extend = (
            base + component + Style.from_meta({"row": index, "column": 0, "out_of_bounds": True})
        )
        segments.append(Segment(" " * remaining, extend))
        scroll_x = int(self.scroll_x)
        strip = Strip(segments).crop(scroll_x, scroll_x + width)
        return strip.adjust_cell_length(width, base).simplify()


def _one_line(cell: object) -> bool:
    """A cell of literal text on one line, cut with an ellipsis at its column's edge."""
    return (
        isinstance(cell, Text)
        and bool(cell.no_wrap)
        and cell.overflow == "ellipsis"
        and cell.justify in (None, "default", "left")
        and "\n" not in cell.plain
    )
