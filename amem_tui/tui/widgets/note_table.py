"""The table of a note pane: Textual's DataTable, with one-line cells drawn directly.

A DataTable draws each cell through Rich's console (padding, wrapping, measuring),
which costs about as much as the rest of a frame when two panes of hits change on
every query's answer. Every cell a note pane shows is one line of literal text, cut
with an ellipsis (``no_wrap``, ``overflow="ellipsis"``): such a cell is cut to the
column's width and styled here as the table would style it (its cell, cursor and
hover styles, applied in the same order), and kept in the table's own cell cache.
Header cells, and any other cell, are left to the table.

This overrides DataTable's cell-drawing hook (``_render_cell``) of the Textual version
pinned in pyproject.toml. tests/tui/test_note_table.py compares every character's
style with DataTable's own drawing of the same rows.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.widgets import DataTable
from textual.widgets._data_table import CellCacheKey


class NoteTable(DataTable[Text]):
    """A DataTable whose one-line text cells are cut and styled without Rich's layout."""

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
