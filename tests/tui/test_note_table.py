"""The note table draws its one-line cells exactly as Textual's DataTable draws them."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region
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
    """Each line as (character, style) pairs: the same picture, however it is cut.

    The lines are drawn as a frame draws them (all at once), with fresh caches.
    """
    table._clear_caches()
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
    return shots


async def test_cells_are_drawn_as_the_data_table_draws_them() -> None:
    expected = await pictures(DataTable[Text]())
    drawn = await pictures(NoteTable())
    assert [len(shot) for shot in drawn] == [len(ROWS) + 1] * 7
    for shot, want in zip(drawn, expected, strict=True):
        assert shot == want
