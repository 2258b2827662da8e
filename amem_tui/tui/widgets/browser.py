"""Browsing one agent's notes: the search box, the panes and the detail view.

The browser shows each load of the agent's panes, puts what the search box finds in
the panes (and the progress of a consolidation under them), and keeps the detail view
on the subject (``SubjectView``, what it is built on). A note chosen on another screen
is gone to from here too (``jump``): the agent it is shown as is asked for
(``AgentWanted``), and the note is the subject once that agent's panes show.

The browser holds the actions of the action table whose target is ``browser``: what
acts on the subject (the writes themselves are ``note_writes``, ``asked_writes`` and
``bulk_writes``),
the search box's and the history's. Its keys work wherever the focus is inside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual import events, getters, on
from textual.binding import BindingType
from textual.message import Message
from textual.reactive import var
from textual.widgets import DataTable, ProgressBar

from amem_tui.tui import asked_writes, bulk_writes, note_writes
from amem_tui.tui.actions import binding_state, bindings_of, said_off
from amem_tui.tui.early import EARLY_NOTE
from amem_tui.tui.widgets.detail import NoteDetail
from amem_tui.tui.widgets.history_pane import HistoryPane
from amem_tui.tui.widgets.note_pane import NotePane
from amem_tui.tui.widgets.panes import Panes
from amem_tui.tui.widgets.search_box import SearchBox
from amem_tui.tui.widgets.subject_view import SubjectView
from amem_tui.wording import EMPTY_STORE_HINT

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.app import ComposeResult
    from textual.widget import Widget

    from amem_tui.engine import AgentScope, MemoryEngine, MemoryNote, SearchResult
    from amem_tui.engine.for_apps import EarlyAnswer
    from amem_tui.tui.actions import FocusArea
    from amem_tui.tui.messages import ConsolidationProgress, JumpFound, ScopeData

#: Seconds the detail view waits after a search (or a cleared one) before it loads the
#: subject: the hits come first, and keys typed meanwhile are not slowed by drawing a
#: note that a newer search would replace at once.
DETAIL_AFTER_SEARCH = 0.12


def on_the_subject(
    write: Callable[[Widget, MemoryEngine, AgentScope, MemoryNote | None], None],
    bulk: str | None = None,
) -> Callable[[NoteBrowser], None]:
    """The browser's action for a note write: ``write`` on the subject, as the agent; or,
    for a ``bulk`` write while notes are marked in the pane worked in, on those notes."""

    def action(browser: NoteBrowser) -> None:
        pane, scope = browser.panes.pane(browser.panes.working), browser.scope
        if scope is None:
            return
        if bulk is not None and pane.marked:
            notes = pane.marked_notes()
            bulk_writes.ask_then_write(browser, browser.engine, scope, bulk, pane.which, notes)
        else:
            write(browser, browser.engine, scope, browser.subject())

    action.__doc__ = write.__doc__
    return action


class NoteBrowser(SubjectView):
    """The search box, the panes and the detail view of one agent; the subject, and what
    acts on it."""

    DEFAULT_CSS = """
    NoteBrowser { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings_of("browser")

    @dataclass
    class AgentWanted(Message):
        """Load ``scope`` with ``note_id`` selected: where a jump goes (see ``jump``)."""

        scope: AgentScope
        note_id: str

    #: Soft-deleted notes are listed (the screen's choice, bound to it).
    show_deleted: var[bool] = var(False)

    search_box = getters.child_by_id("search-box", SearchBox)
    #: How far an applied consolidation has come (shown only meanwhile).
    progress_bar = getters.child_by_id("progress", ProgressBar)

    def __init__(self, engine: MemoryEngine, *, id: str | None = None) -> None:
        super().__init__(engine, id=id)
        #: The note a jump goes to, until its agent's panes show; a jump waiting for the
        #: listings to come back (the query typed cleared first).
        self.jump_wanted: str | None = None
        self.jump_waiting: JumpFound | None = None

    def compose(self) -> ComposeResult:
        yield SearchBox(self.engine, id="search-box")
        with Panes(id="panes"):
            yield NotePane(self.engine, "private", "Private", show_owner=False, id="private")
            yield NotePane(self.engine, "shared", "Shared", show_owner=True, id="shared")
            yield HistoryPane(self.engine, id="history")
        yield NoteDetail(self.engine, id="detail")
        yield ProgressBar(id="progress", show_eta=False)

    def on_mount(self) -> None:
        self.progress_bar.display = False
        self.detail.show_message("Loading…")

    def on_key(self, event: events.Key) -> None:
        """Tab from the search box or the detail: into the pane on show when they are
        tabs; else the key goes on (the screen's Tab, the panes' own between them)."""
        step = {"tab": 1, "shift+tab": -1}.get(event.key)
        if step is not None and self.panes.enter_tabs(step):
            event.stop()
            event.prevent_default()

    def focus_area(self, focused: Widget | None) -> FocusArea | None:
        """Where ``focused`` is, as far as the footer cares: a pane, the search box or the
        detail view (``history`` while it shows a run)."""
        tab = self.panes.tab_of(focused)
        if tab is not None or focused is None:
            return tab
        if self.search_box in focused.ancestors_with_self:
            return "search"
        if self.detail in focused.ancestors_with_self:
            return "history" if self.detail.run is not None else "detail"
        return None

    # ------------------------------------------------------------ the agent
    def show_agent(self, data: ScopeData, include_inactive: bool, select: str | None) -> None:
        """Show an agent's panes as loaded, the query in the box searched as it, and the
        subject: ``select`` (a note just written) wherever it is now, else the subject
        before (gone: the row it was on keeps the cursor)."""
        scope, detail = data.scope, self.detail
        switched, self.scope = self.scope != scope, scope
        # Else searched again. An early answer on screen stays until its query's hits.
        kept = self.search_box.early is not None
        listings = (switched and not kept) or not self.search_box.query_text
        self.panes.show_scope(data, include_inactive, listings)
        if listings:
            self.search_box.status_line.show("")
        self.search_box.set_scope(scope)
        self.nothing_here = None
        if not data.collection_exists:
            said = (
                f"The collection {scope.collection} does not exist yet: "
                f"{scope.agent} has written nothing. Press a to add a note."
            )
            if data.empty_default_store:  # most likely the user's notes are elsewhere
                hint = EMPTY_STORE_HINT.format(store=self.engine.settings.store_label)
                said += f"\n\nThis is the default store: {hint}."
            self.nothing_here = said
            detail.show_message(self.nothing_here)
        elif switched:
            detail.show_message("Loading…")
        if switched:
            detail.forget_note()
        detail.note_data = None  # the note may have changed: load it again
        history = self.panes.history
        if self.panes.tab_of(self.screen.focused) == "history" and history.current_run:
            if not history.table.has_focus:  # it held the focus while it had no runs
                history.table.focus()
            self.show_run(history.current_run)  # a run just applied or undone
        else:
            self.reselect(select, detail.note_id)
        if self.jump_wanted is not None and self.jump_wanted == select:
            self.jump_wanted = None  # the jump to it ends here
            self.go_to(select)

    def forget(self) -> None:
        """Another agent is about to be shown: what was selected and found goes."""
        self.detail.forget_note()
        self.search_box.forget_result()
        self.hidden_shown = False

    def jump(self, found: JumpFound) -> None:
        """Go where a note chosen on another screen was found: the listings first (a
        query cleared), then its agent loaded with it selected."""
        place, note_id = found.place, found.note_id
        if place is None:
            said = f"No agent here may read note {note_id}: nothing to show."
            self.app.notify(said, severity="warning", markup=False)
        elif self.search_box.query_text:  # the listings first: go on once they are back
            self.jump_waiting = found
            self.search_box.clear_query()
        else:
            self.jump_wanted = note_id
            if place.scope != self.scope:
                self.forget()
                self.app.clear_notifications()  # what was said was about the other agent
            if not place.listed:
                said = f"{place.scope.agent} reads note {note_id} only by id: no pane lists it"
                self.app.notify(said + ", the detail shows it.", markup=False)
            self.post_message(self.AgentWanted(place.scope, note_id))

    def on_consolidation_progress(self, message: ConsolidationProgress) -> None:
        self.progress_bar.update(total=max(message.total, 1), progress=message.done)
        self.progress_bar.display = True

    def on_consolidation_finished(self) -> None:
        self.progress_bar.display = False

    # ------------------------------------------------------------ searching
    def show_early(self, answer: EarlyAnswer) -> None:
        """Show the answer the saved index gave while the store opened (its query is in
        the box) until the agent's own search answers it."""
        self.search_box.show_early(answer)
        self.panes.show_early(answer)
        self.detail.show_message(EARLY_NOTE)

    def on_search_box_typed(self) -> None:
        """A query is typed: a note waiting to load would be replaced by the hits' at once
        (and an early answer's hits, of the query before, go)."""
        self.detail.drop_waiting_load()
        if self.scope is None:
            self.panes.forget_early()

    def on_search_box_cleared(self) -> None:
        """The query is gone: the listings come back, the hit highlighted stays so; a
        jump waiting for them goes on."""
        subject = self.selected_id
        self.hidden_shown = False
        with self.app.batch_update():  # the count goes with the hits, in one frame
            self.panes.show_listings()
            self.search_box.status_line.show("")
        self.reselect(subject, after=DETAIL_AFTER_SEARCH)
        waiting, self.jump_waiting = self.jump_waiting, None
        if waiting is not None:
            self.jump(waiting)

    def on_search_box_results(self, message: SearchBox.Results) -> None:
        """Hits in the panes they belong to; a new query's best hit is the subject."""
        result, subject = message.result, self.selected_id
        self.hidden_shown = message.show_hidden
        with self.app.batch_update():  # the hits, the titles and the status in one frame
            self.search_box.status_line.show(message.status, result)
            best = self.panes.show_hits(result)
            if best is not None and message.fresh:
                self.panes.work_in(best)
                subject = result.hits[0].note.id
            self._after_search(message.focus, result if message.show_hidden else None, subject)

    def on_search_box_failed(self, message: SearchBox.Failed) -> None:
        """A failed search shows no hits (the failure itself is notified)."""
        self.hidden_shown = False
        self.panes.show_no_hits(message.query)
        self._after_search(message.focus, None, self.selected_id)

    def _after_search(self, focus: bool, hidden: SearchResult | None, subject: str | None) -> None:
        if focus:
            self.panes.focus_tab(self.panes.working)
        if hidden is None:
            self.detail.forget_note()
            self.reselect(subject, after=DETAIL_AFTER_SEARCH)
        else:
            self.detail.show_hidden(hidden)

    def on_search_box_hidden_matches(self, message: SearchBox.HiddenMatches) -> None:
        """Show the hidden matches in the detail view, or the subject again."""
        self.hidden_shown = message.shown
        if message.shown:
            self.detail.show_hidden(message.result)
        else:
            self.detail.forget_note()
            self.show_subject()

    def on_search_box_go_to_results(self) -> None:
        self.panes.focus_tab(self.panes.working)

    # ------------------------------------------------------------ actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return binding_state(self, action)

    @on(DataTable.RowSelected)
    def _open_row(self, event: DataTable.RowSelected) -> None:
        """Enter on a pane's row (or a click on the row under the cursor): the detail view
        takes the focus, to read the note (or the run) whole; Escape comes back."""
        if self.panes.tab_of(event.data_table) is None:
            return  # a table of the detail's own (versions)
        event.stop()
        self.detail.focus_shown()

    action_edit = on_the_subject(note_writes.edit)
    action_publish = on_the_subject(asked_writes.publish, bulk="publish")
    action_unpublish = on_the_subject(asked_writes.unpublish, bulk="unpublish")
    action_delete = on_the_subject(asked_writes.delete, bulk="delete")
    action_copy = on_the_subject(note_writes.copy)
    action_copy_id = on_the_subject(note_writes.copy_id)
    action_edit_in_editor = on_the_subject(note_writes.edit_in_editor)

    def action_restore(self) -> None:
        """Restore the soft-deleted subject, or every note marked."""
        shown = self.show_deleted
        restore = lambda *of: asked_writes.restore(*of, deleted_shown=shown)  # noqa: E731
        on_the_subject(restore, bulk="restore")(self)

    def action_add(self) -> None:
        """Write a new note (private by default)."""
        if self.scope is not None:
            note_writes.add(self, self.engine, self.scope)

    def action_toggle_versions(self) -> None:
        """Show the subject's versions in the detail view, or its fields again."""
        if problem := self.detail.toggle_versions(self.scope, self.selected_id):
            self.app.notify(problem, markup=False)

    def action_revert(self) -> None:
        """Revert to the version highlighted in the detail's Versions tab (Enter there)."""
        if self.scope is not None:
            asked_writes.revert(self, self.engine, self.scope, self.detail.shown_versions)

    on_note_versions_revert_chosen = action_revert

    def action_focus_search(self) -> None:
        """Put the cursor in the search box (at once: keys typed next go into it)."""
        self.screen.set_focus(self.search_box.query_input)

    def action_toggle_hidden(self) -> None:
        """Show or hide the close matches this agent cannot see."""
        self.search_box.toggle_hidden()

    def action_toggle_get_only(self) -> None:
        """List the notes the agent reads only by id in the Shared pane, or its shared
        scope again (from either pane: the help and the palette offer it everywhere)."""
        self.panes.toggle_get_only()

    def action_clear_search(self) -> None:
        """Clear the query (a pane clears its filter or its marks first): the listings
        come back. From the detail view, back to the row it shows first (the query stays)."""
        if self.detail.has_focus_within:
            self.panes.focus_tab("history" if self.detail.run is not None else self.panes.working)
            return
        self.search_box.clear_query()
        self.panes.focus_tab(self.panes.working)

    def action_consolidate(self) -> None:
        """Preview a consolidation of the agent (a dry run), then maybe apply it."""
        if self.scope is not None:
            self.panes.history.writer.consolidate(self.scope)

    def action_undo(self) -> None:
        """Undo the consolidation run under the cursor in the history pane."""
        if self.scope is not None:
            self.panes.history.writer.undo_run(self.scope, self.panes.history.current_run)

    def action_undo_merge(self) -> None:
        """Undo the merge chosen in the run the detail view shows."""
        run, keeper = self.detail.run, self.detail.chosen_merge
        if self.scope is not None:
            self.panes.history.writer.undo_chosen_merge(self.scope, run, keeper)

    @on(NoteDetail.MergeChosen)
    def _merge_chosen(self, message: NoteDetail.MergeChosen) -> None:
        if not said_off(self, "undo_merge") and self.scope is not None:
            self.panes.history.writer.undo_one_merge(self.scope, self.detail.run, message.keeper)
