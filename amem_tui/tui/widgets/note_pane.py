"""A pane of notes (private or shared) and what the user does to its rows: mark them
for a bulk action, filter them by plain text (in a box under them), sort them, list the
get-only notes in the Shared pane, and clear what was set; and what follow mode merges
into its listing.

Nothing here writes or reads the store but a listing's pages: each control changes what
the pane shows (it re-lists what it has loaded) and says, in a notification, only what
the pane itself cannot show. What the pane shows is
``PaneRows``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual import getters, on, work
from textual.actions import SkipAction
from textual.binding import BindingType
from textual.message import Message
from textual.widgets import DataTable, Input

from amem_tui.tui.actions import binding_state, bindings_of
from amem_tui.tui.widgets.listing_view import SORT_MEANINGS
from amem_tui.tui.widgets.note_rows import newest_first
from amem_tui.tui.widgets.pane_filter import PaneFilter
from amem_tui.tui.widgets.pane_marks import MarkedNotes
from amem_tui.tui.widgets.pane_rows import PAGE_SIZE, PREFETCH_ROWS, PaneRows

if TYPE_CHECKING:
    from textual.app import ComposeResult

    from amem_tui.engine import AgentScope, MemoryNote, NotePage, SearchHit
    from amem_tui.engine.for_apps import ListScope
    from amem_tui.tui.widgets.listing_view import Order


#: Seconds a row follow mode marked (new, changed) stays highlighted.
HIGHLIGHT_SECONDS = 30.0


class NotePane(PaneRows):
    """A pane of notes: loads more rows on demand, never holds a store; the user's
    controls of its rows."""

    @dataclass
    class Highlighted(Message):
        """The cursor moved to a note (found by the search when ``hit`` is given)."""

        pane: NotePane
        note_id: str | None
        hit: SearchHit | None = None

    @dataclass
    class Sorted(Message):
        """The user sorted the pane (the order is remembered for the next start)."""

        pane: NotePane
        order: Order

    @dataclass
    class PageLoaded(Message):
        """One more page of the pane's listing (from its worker)."""

        generation: int
        page: NotePage

    BINDINGS: ClassVar[list[BindingType]] = bindings_of("pane")

    #: The box the filter is typed in (shown while it is typed).
    filter_box = getters.query_one(PaneFilter)

    def compose(self) -> ComposeResult:
        yield from super().compose()
        box = PaneFilter()
        box.display = False  # until the filter is typed (see open_filter)
        yield box

    # ---------------------------------------------------------------- listing
    def keep_listing(
        self,
        scope: AgentScope,
        notes: Sequence[MemoryNote],
        total: int,
        include_inactive: bool,
        deleted: int = 0,
        kind: ListScope | None = None,
    ) -> None:
        """Remember an agent's first page (newest first); pages loading for another are dropped.

        ``total`` counts the notes listed (soft-deleted ones too while they are shown),
        ``deleted`` how many of them are soft-deleted; ``kind`` is the listing the
        pages come from (default: the pane's own, ``private`` or ``shared``).
        """
        self._generation += 1
        self._listing_stale = True
        if scope != self.scope:  # another agent's notes: a new start
            self.marked = MarkedNotes()
            if self.filter_text:  # without a relist: the rows are replaced next
                self.set_reactive(NotePane.filter_text, "")
                self.view.text = ""
                self.filter_box.display = False
        elif self.marked:  # the same notes, as read now
            by_id = {note.id: note for note in notes}
            # Else a marked note may be on a page not read yet.
            self.marked.read_again(by_id, whole=len(by_id) >= total)
            self.mutate_reactive(NotePane.marked)
        self.view.forget()
        self.scope = scope
        self.kind = kind or self.which
        self._include_inactive = include_inactive
        self.listing = newest_first(notes)
        self.listing_total = total
        self.listing_deleted = deleted

    def list_kind(self, kind: ListScope) -> None:
        """List ``kind`` instead (the Shared pane: ``shared`` or ``get_only``), from its
        first page, loaded in a worker."""
        if self.scope is None:
            return
        self.keep_listing(self.scope, [], 0, self._include_inactive, kind=kind)
        self.show_listing([], 0)
        self.message = "Loading…"
        self.load_page(self.scope, 0, self._include_inactive, self._generation)

    @work(thread=True, exit_on_error=False, group="page")
    def load_page(
        self, scope: AgentScope, offset: int, include_inactive: bool, generation: int
    ) -> None:
        """The next page of the listing."""
        page = self.engine.agent(scope).list_notes(
            self.kind, limit=PAGE_SIZE, offset=offset, include_inactive=include_inactive
        )
        self.post_message(self.PageLoaded(generation, page))

    def on_note_pane_page_loaded(self, message: NotePane.PageLoaded) -> None:
        """Add a page to the listing; show it unless search hits are shown."""
        message.stop()
        if message.generation != self._generation:
            return
        page = newest_first(message.page.notes)
        self.listing.extend(page)
        self.listing_total = message.page.total
        if self.searching:
            self._listing_stale = True
        else:
            self.total = message.page.total
            first = self.loaded == 0
            self.append_page(page)
            if first:  # the first page of a listing asked for anew (list_kind)
                self.message = "" if self.total else "No notes here."

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Tell the screen which note is under the cursor; load more rows near the end."""
        event.stop()
        if event.data_table is not self.table:
            return  # the table not shown (its cursor set as its rows were replaced)
        key = event.row_key.value if event.row_key is not None else None
        note_id = str(key) if key is not None else None
        self.post_message(self.Highlighted(self, note_id, self.hits.get(note_id or "")))
        # A filter narrows what is loaded: reaching its last row loads nothing more.
        near_end = event.cursor_row >= self.table.row_count - PREFETCH_ROWS
        if (
            not self.searching
            and not self.view.filtering
            and near_end
            and self.loaded < self.total
            and self._asked_at != self.loaded
            and self.scope is not None
        ):
            self._asked_at = self.loaded
            self.load_page(self.scope, self.loaded, self._include_inactive, self._generation)

    # ---------------------------------------------------------------- actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return binding_state(self, action)

    def _say(self, text: str, timeout: float | None = None) -> None:
        self.app.notify(text, markup=False, timeout=timeout)  # None: the app's default

    def action_toggle_mark(self) -> None:
        """Mark the highlighted note, or unmark it (p, u, d and r then act on every marked
        note); the cursor moves on to the next row."""
        note_id = self.current_id
        note = self._shown_note(note_id) if note_id is not None else None
        if note is None:
            return
        self.marked.toggle(note)
        self._remark([note.id])
        table = self.table
        if table.cursor_row < table.row_count - 1:
            table.move_cursor(row=table.cursor_row + 1)

    def action_mark_shown(self) -> None:
        """Mark every row the pane shows (what a filter kept), or unmark them all."""
        ids = [str(key.value) for key in self.table.rows]
        shown = (self._shown_note(note_id) for note_id in ids)
        self.marked.toggle_all([note for note in shown if note is not None])
        self._remark(ids)

    def action_filter(self) -> None:
        """Type a plain-text filter for the rows (Enter keeps it, Escape clears it)."""
        if self.disabled_view:
            self._say("This pane has no rows to filter.")
            return
        self.open_filter()

    def action_sort(self) -> None:
        """Sort the rows by the next column (created, updated, owner, recalls, last
        recalled)."""
        self._sort(self.order.following())

    def action_invert_sort(self) -> None:
        """Reverse the sort order of the rows."""
        self._sort(self.order.inverted())

    def _sort(self, order: Order) -> None:
        # The column header says the order; only what it cannot say is notified.
        if self.disabled_view:
            self._say("This pane has no rows to sort.")
            return
        self.order = order
        self.post_message(self.Sorted(self, order))
        if self.searching:
            self._say(
                f"{self.own_title} is sorted by {SORT_MEANINGS[order.key]} ({order.label}) "
                "once the search is cleared: search hits keep the agent's ranking.",
                timeout=4,
            )

    def toggle_get_only(self) -> bool:
        """List the notes the agent reads only by id (its readers name it), or the shared
        scope again: the two are never mixed. False, said, when there is no shared scope."""
        if self.disabled_view:
            self._say("This agent has no shared scope: nothing is read by id apart.")
            return False
        self.list_kind("shared" if self.kind == "get_only" else "get_only")
        return True

    def action_clear_search(self) -> None:
        """Escape: the filter goes, else the marks; else the key goes on to clear the
        query."""
        if self.view.filtering:
            self.clear_filter()
        elif self.marked:
            self.drop_marks()
        else:
            raise SkipAction()

    # ---------------------------------------------------------------- filter and sort
    def open_filter(self) -> None:
        """Show the filter box under the rows, with the filter as it is, and type in it."""
        box = self.filter_box
        box.value = self.filter_text
        box.display = True
        self.screen.set_focus(box)  # at once: keys typed next go into it

    def set_filter(self, text: str) -> None:
        """Narrow the rows to the notes holding ``text`` (content, tags, owner; any case)."""
        self.filter_text = text

    def sort_by(self, order: Order) -> None:
        """Order the listing by ``order`` (search hits keep the agent's ranking)."""
        self.order = order

    @on(Input.Changed, "PaneFilter")
    def _filter_typed(self, event: Input.Changed) -> None:
        event.stop()
        if event.value == event.input.value:  # else more keys of a burst are in the box
            self.set_filter(event.value)

    def close_filter(self, cleared: bool) -> None:
        """Hide the filter box, the filter kept or cleared; the rows take the focus if the
        box had it. (The box's Enter and Escape go up to the panes, which call this.)"""
        if cleared:
            self.set_filter("")
        box = self.filter_box
        if box.has_focus and self.table.display:
            self.screen.set_focus(self.table)
        box.display = False

    def clear_filter(self) -> None:
        """Every row again (Escape in the rows or in the filter box)."""
        self.close_filter(cleared=True)

    # ---------------------------------------------------------------- marks
    def _shown_note(self, note_id: str) -> MemoryNote | None:
        hit = self.hits.get(note_id)
        if hit is not None:
            return hit.note
        return next((note for note in self.listing if note.id == note_id), None)

    def drop_marks(self, ids: Iterable[str] | None = None) -> None:
        """Unmark ``ids`` (all marks when None)."""
        gone = self.marked.drop(ids)
        if gone:
            self._remark(gone)

    def marked_notes(self) -> list[MemoryNote]:
        """The marked notes, in the order they were marked (as last read)."""
        return self.marked.notes()

    def _remark(self, ids: Sequence[str]) -> None:
        """Draw the marks of ``ids`` again: the mark column comes or goes with the first
        mark and the last."""
        self.mutate_reactive(NotePane.marked)  # the titles count them
        if not self.tables.redraw_marks(ids):
            self._relist(columns=True)
            return
        if self.searching:
            self._listing_stale = True  # its rows show the marks as they were

    # ------------------------------------------------------------- following
    def shown_notes(self) -> dict[str, MemoryNote]:
        """The agent's listing as loaded, by id (what follow mode compares with)."""
        return {note.id: note for note in self.listing}

    def ids_in_view(self, margin: int = 1) -> list[str]:
        """Ids of the rows on screen, and of ``margin`` screens of rows above and below
        (what follow mode watches: a row scrolled into view is looked at next)."""
        return self.tables.ids_in_view(margin)

    def merge_notes(
        self,
        changed: Sequence[MemoryNote],
        removed: Iterable[str],
        total: int,
        marks: Mapping[str, str] | None = None,
    ) -> None:
        """Put changed and new notes into the listing and take ``removed`` out, keeping
        the cursor on the note it is on (a new note goes to the top).

        ``marks`` highlights rows (id -> kind of change) for ``HIGHLIGHT_SECONDS``.
        While search hits are shown only the kept listing changes.
        """
        if marks:
            self.marks.update(marks)
            marked = list(marks)
            self.set_timer(HIGHLIGHT_SECONDS, lambda: self.unmark(marked))
        by_id = {note.id: note for note in changed}
        self.marked.read_again(by_id)  # marks hold the notes as read
        gone = set(removed)
        kept = [by_id.pop(note.id, note) for note in self.listing if note.id not in gone]
        fresh = newest_first(by_id.values())
        self.listing = fresh + kept
        self.listing_total = total
        if self.searching:
            self._listing_stale = True
            return
        if self.disabled_view:
            return
        self.total = total
        table = self.table
        if not fresh and not (gone & set(table.rows)) and self.view.plain:
            for note in changed:
                self.tables.redraw_row(note)
            return
        self._rebuild(self.listing)

    def unmark(self, ids: Iterable[str]) -> None:
        """Stop highlighting these rows."""
        for note_id in ids:
            if self.marks.pop(note_id, None) is None:
                continue
            for note in self.listing:
                if note.id != note_id:
                    continue
                if self.searching:
                    self._listing_stale = True
                else:
                    self.tables.redraw_row(note)
