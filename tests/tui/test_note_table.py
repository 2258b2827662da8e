"""The note table draws its one-line cells exactly as Textual's DataTable draws them."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import DataTable

from amem_tui.tui.widgets.note_table import NoteTable


def one_line(text: Text) -> Text:
    text.no_wrap = True
    text.overflow = "ellipsis"
    return text


ROWS = [
    ("main", one_line(Text("plain content, much longer than its column, cut with an ellipsis"))),
    ("dev", one_line(Text.assemble(("new", "bold black on yellow"), " · ", ("deploy", "u")))),
    ("a-very-long-owner", one_line(Text("wide 漢字 and emoji 🎉 cut at a cell boundary", "dim"))),
    ("x", one_line(Text("short"))),
    ("[b]markup[/b]", one_line(Text("[red]literal[/red] text"))),
    ("wraps", Text("a cell that may wrap is left to the table, drawn as it draws it")),
]


class OneTable(App[None]):
    def __init__(self, table: DataTable[Text]) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        self.table.cursor_type = "row"
        self.table.styles.height = len(ROWS) + 1
        self.table.styles.width = 44
        yield self.table

    def on_mount(self) -> None:
        self.table.add_column("owner", key="owner", width=8)
        self.table.add_column(Text("content"), key="content", width=30)
        for owner, content in ROWS:
            self.table.add_row(one_line(Text(owner)), content.copy())


def picture(table: DataTable[Text]) -> list[list[tuple[str, object]]]:
    """Each line as (character, style) pairs, as the last frame drew them: the same
    picture, however it is cut."""
    width, height = table.size
    return [
        [(char, segment.style) for segment in strip for char in segment.text]
        for strip in table.render_lines(Region(0, 0, width, height))
    ]


async def pictures(table: DataTable[Text]) -> list[list[list[tuple[str, object]]]]:
    app = OneTable(table)
    shots = []
    async with app.run_test(size=(60, 12)) as pilot:
        for focused in (True, False):
            app.set_focus(table if focused else None)
            for row in (0, 2, 4):  # the cursor row is styled apart
                table.move_cursor(row=row)
                await pilot.pause()
                shots.append(picture(table))
        await pilot.hover(table, offset=(3, 4))  # the mouse on the fourth row (below the header)
        await pilot.pause()
        assert table.hover_row == 3
        shots.append(picture(table))
        app.set_focus(table)
        await pilot.press("x")  # not the table's key: the hover row stays
        await pilot.pause()
        shots.append(picture(table))
        await pilot.press("down")  # the cursor's key: the hover row goes
        await pilot.pause()
        shots.append(picture(table))
        await pilot.hover(table, offset=(3, 2))  # and comes back with the mouse
        await pilot.pause()
        shots.append(picture(table))
        table.move_cursor(row=2)
        await pilot.hover(table, offset=(3, 3))  # over the cursor's row
        await pilot.pause()
        assert table.hover_row == table.cursor_row == 2
        shots.append(picture(table))
    return shots


async def test_cells_are_drawn_as_the_data_table_draws_them() -> None:
    expected = await pictures(DataTable[Text]())
    drawn = await pictures(NoteTable())
    assert [len(shot) for shot in drawn] == [len(ROWS) + 1] * 11
    for shot, want in zip(drawn, expected, strict=True):
        assert shot == want


async def test_plain_rows_are_drawn_by_the_note_table(monkeypatch: pytest.MonkeyPatch) -> None:
    # Only the header and the row that may wrap are left to DataTable's own drawing.
    left: list[int] = []
    draw = DataTable.render_line

    def counted(table: DataTable[Text], y: int) -> Strip:
        left.append(y)
        return draw(table, y)

    monkeypatch.setattr(DataTable, "render_line", counted)
    app = OneTable(NoteTable())
    async with app.run_test(size=(60, 12)) as pilot:
        await pilot.pause()
    assert left and set(left) == {0, len(ROWS)}


class TableAndBox(App[None]):
    """A table whose rows outgrow it, and a box to move the focus to."""

    def compose(self) -> ComposeResult:
        from textual.widgets import Input

        table = NoteTable(cursor_type="row")
        table.styles.height = 5
        yield table
        yield Input()

    def on_mount(self) -> None:
        table = self.query_one(NoteTable)
        table.add_column("content", key="content", width=30)
        for number in range(20):
            table.add_row(one_line(Text(f"note {number}")))
        table.focus()


async def test_a_scrollbar_is_styled_as_it_shows_so_the_first_focus_change_lays_out_nothing() -> (
    None
):
    # Textual styles a table's scrollbar only at the table's next restyle (its focus
    # lost), where its sizes, set for the first time, lay the whole screen out again.
    app = TableAndBox()
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        table = app.query_one(NoteTable)
        assert table.show_vertical_scrollbar
        styles = table.vertical_scrollbar.styles
        assert styles.has_rule("scrollbar_size_vertical")
