"""A pane's table: its rows are notes or runs, and Enter opens the row under the cursor.

Enter is the table's own key (the action table's ``open``), so it acts after the keys
typed before it have moved the cursor; the table says the row was selected
(``DataTable.RowSelected``) and the note browser opens it in the detail view.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import BindingType
from textual.widgets import DataTable

from amem_tui.tui.actions import bindings_of


class RowsTable(DataTable[Text]):
    """A DataTable whose keys come from the action table (``table``)."""

    BINDINGS: ClassVar[list[BindingType]] = bindings_of("table")

    #: The vertical scrollbar has been styled (see ``watch_show_vertical_scrollbar``).
    scrollbar_styled = False

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        """Style the scrollbar as it first shows. Textual makes it unstyled and styles it
        at the table's next restyle (the first time the table loses or gets the focus),
        where setting its sizes for the first time lays the whole screen out again: the
        first "/" after start, and the query typed with it, waited for that layout."""
        if shown and not self.scrollbar_styled:
            self.scrollbar_styled = True
            self.app.update_styles(self)
