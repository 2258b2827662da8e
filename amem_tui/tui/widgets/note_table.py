"""The table of a note pane: Textual's DataTable, with one-line cells drawn directly.

A DataTable draws each cell through Rich's console (padding, wrapping, measuring),
which costs about as much as the rest of a frame when two panes of hits change on
every query's answer. Every cell a note pane shows is one line of literal text, cut
with an ellipsis (``no_wrap``, ``overflow="ellipsis"``): such a cell is cut to the
column's width and styled here as the table would style it (its cell, cursor and
hover styles, applied in the same order), and kept in the table's own cell cache.
Header cells, and any other cell, are left to the table.

A line of a plain row (no row labels, no fixed rows or columns, a row cursor, no
zebra stripes) is assembled here too: the table would look up the widget's styles
(which walk every ancestor) once or twice per line, where one look-up per frame does.

A table hidden (a note pane shows its listing's table or its hits', one at a time) has
no size until it is laid out again, so scrolling its cursor into view waits for that.

This overrides DataTable's cell-drawing hook (``_render_cell``) and its cursor scrolling
(``_scroll_cursor_into_view``) of the Textual version pinned in pyproject.toml.
tests/tui/test_note_table.py compares every character's style with DataTable's own
drawing of the same rows.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.color import Color
from textual.coordinate import Coordinate
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import DataTable
from textual.widgets._data_table import CellCacheKey, RowCacheKey, RowKey

#: The widget's styles as one frame sees them (they cannot change while it is drawn).
_FrameStyles = tuple[Style, tuple[Color, Color]]


class NoteTable(DataTable[Text]):
    """A DataTable whose one-line text cells are cut and styled without Rich's layout."""

    _frame: _FrameStyles | None = None

    def render_lines(self, crop: Region) -> list[Strip]:
        self._frame = (super().rich_style, super().background_colors)
        try:
            return super().render_lines(crop)
        finally:
            self._frame = None

    @property
    def rich_style(self) -> Style:
        """The widget's style (looked up once per frame while a frame is drawn)."""
        return self._frame[0] if self._frame is not None else super().rich_style

    @property
    def background_colors(self) -> tuple[Color, Color]:
        """The background behind the widget and its own (once per frame, as above)."""
        return self._frame[1] if self._frame is not None else super().background_colors

    def _scroll_cursor_into_view(self, animate: bool = False) -> None:
        if not self.size.area:  # shown again, not laid out yet: scrolled against no height
            self.call_after_refresh(super()._scroll_cursor_into_view, animate=animate)
            return
        super()._scroll_cursor_into_view(animate=animate)

    def _render_line_in_row(
        self,
        row_key: RowKey,
        line_no: int,
        base_style: Style,
        cursor_location: Coordinate,
        hover_location: Coordinate,
    ) -> tuple[list[list[Segment]], list[list[Segment]]]:
        row_index = self._row_locations.get(row_key)
        if (
            row_index is None  # the header
            or self.cursor_type != "row"
            or self.zebra_stripes
            or self.fixed_rows
            or self.fixed_columns
            or (self._labelled_row_exists and self.show_row_labels)
        ):
            return super()._render_line_in_row(
                row_key, line_no, base_style, cursor_location, hover_location
            )
        show_cursor, show_hover = self.show_cursor, self._show_hover_cursor
        cache_key: RowCacheKey = (
            row_key,
            line_no,
            base_style,
            cursor_location,
            hover_location,
            self.cursor_type,
            show_cursor,
            show_hover,
            self._update_count,
            self._pseudo_class_state,
        )
        cached = self._row_render_cache.get(cache_key)
        if cached is not None:
            return cached
        cursor = cursor_location.row == row_index
        hover = hover_location.row == row_index
        widths = [column.get_render_width(self) for column in self.ordered_columns]
        cells = [
            self._render_cell(row_index, number, base_style, width, cursor=cursor, hover=hover)[
                line_no
            ]
            for number, width in enumerate(widths)
        ]
        # The row's style runs on past the last column, to the widget's edge.
        extend, _ = self._get_styles_to_render_cell(
            False, False, False, hover, cursor, show_cursor, show_hover, False, False
        )
        extend = (
            base_style
            + extend
            + Style.from_meta({"row": row_index, "column": 0, "out_of_bounds": True})
        )
        remaining = max(0, self.size.width - sum(widths) - self._row_label_column_width)
        cells.append([Segment(" " * remaining, extend)])
        line: tuple[list[list[Segment]], list[list[Segment]]] = ([], cells)
        self._row_render_cache[cache_key] = line
        return line

    def _render_cell(
        self,
        row_index: int,
        column_index: int,
        base_style: Style,
        width: int,
        cursor: bool = False,
        hover: bool = False,
    ) -> list[list[Segment]]:
        if row_index < 0 or column_index < 0:
            return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
        row_key = self._row_locations.get_key(row_index)
        column_key = self._column_locations.get_key(column_index)
        row = self.rows.get(row_key) if row_key is not None else None
        cells = self._get_row_renderables(row_index).cells
        cell = cells[column_index] if column_index < len(cells) else None
        if (
            row is None
            or row.height != 1
            or not isinstance(cell, Text)
            or not cell.no_wrap
            or cell.overflow != "ellipsis"
            or cell.justify not in (None, "default", "left")
            or "\n" in cell.plain
            or row_key is None
            or column_key is None
        ):
            return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
        cache_key: CellCacheKey = (
            row_key,
            column_key,
            base_style,
            cursor,
            hover,
            self._show_hover_cursor,
            self._update_count,
            self._pseudo_class_state,
        )
        cached = self._cell_render_cache.get(cache_key)
        if cached is not None:
            return cached
        fixed = row_index < self.fixed_rows or column_index < self.fixed_columns
        component_style, post_style = self._get_styles_to_render_cell(
            False,
            False,
            fixed,
            hover,
            cursor,
            self.show_cursor,
            self._show_hover_cursor,
            self.cursor_foreground_priority == "css",
            self.cursor_background_priority == "css",
        )
        padding = self.cell_padding
        # Appended, the cell's own style becomes a span under its others, as Rich's
        # layout does it (Text.render alone would drop a style without spans).
        text = Text(end="")
        text.append_text(cell)
        text.truncate(max(0, width - 2 * padding), overflow="ellipsis", pad=True)
        space = Segment(" " * padding) if padding else None
        segments = [
            *([space] if space else []),
            *text.render(self.app.console),
            *([space] if space else []),
        ]
        pre_style = base_style + Style.from_meta({"row": row_index, "column": column_index})
        line = list(Segment.apply_style(segments, pre_style + component_style, post_style))
        lines = [line]
        self._cell_render_cache[cache_key] = lines
        return lines
