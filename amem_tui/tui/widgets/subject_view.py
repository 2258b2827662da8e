"""The subject, and what the detail view shows of it, in the panes and the detail of
one agent.

**The subject** is the highlighted row of the note pane the user works in (see
``amem_tui.tui.widgets.panes``), or a linked note in no pane that the user chose to
follow; the detail view shows it, and every note action acts on it. The detail view
shows a consolidation run instead while the history pane has the focus (with the keys
that undo it), and the hidden matches of a search while they are asked for.
``NoteBrowser`` is this view with the search box, the agent's loads and the actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import getters, on
from textual.containers import Vertical
from textual.reactive import reactive

from amem_tui.tui.actions import key_for
from amem_tui.tui.widgets.detail import NoteDetail
from amem_tui.tui.widgets.history_pane import HistoryPane
from amem_tui.tui.widgets.panes import Panes
from amem_tui.tui.workers import ReportsWorkerFailures

if TYPE_CHECKING:
    from textual.events import DescendantFocus

    from amem_tui.engine import AgentScope, ConsolidationRun, MemoryEngine, MemoryNote, SearchHit
    from amem_tui.tui.messages import FollowUpdate, NoteLoaded


class SubjectView(ReportsWorkerFailures, Vertical):
    """The panes and the detail view of one agent, and the subject they show."""

    panes = getters.child_by_id("panes", Panes)
    detail = getters.child_by_id("detail", NoteDetail)
    #: The run the detail view shows while the history pane has the focus (the footer
    #: then offers the keys that undo it).
    run_shown: reactive[ConsolidationRun | None] = reactive(None, repaint=False, bindings=True)

    def __init__(self, engine: MemoryEngine, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.engine = engine
        #: The agent shown (set with each load of its panes).
        self.scope: AgentScope | None = None
        #: A linked note in no pane that the detail shows (then the subject).
        self.link_shown: str | None = None
        #: Why the agent has no notes at all (the collection does not exist), said in the
        #: detail view while no row is highlighted.
        self.nothing_here: str | None = None
        #: The detail view shows the hidden matches of the search on screen (as the
        #: search box last said: it posts each change).
        self.hidden_shown = False

    # ---------------------------------------------------------- the subject
    @property
    def selected_id(self) -> str | None:
        """The subject's id."""
        return self.link_shown or self.panes.subject_id

    def subject(self) -> MemoryNote | None:
        """The subject as last loaded (as its pane lists it, until the detail has it)."""
        data, wanted = self.detail.note_data, self.selected_id
        if data is not None and wanted is not None and data.note.id == wanted:
            return data.note
        return None if self.link_shown else self.panes.subject_note()

    @property
    def _detail_taken(self) -> bool:
        """The detail view shows a run (the history has the focus) or hidden matches."""
        return self.run_shown is not None or self.hidden_shown

    def show_subject(self, after: float = 0.0) -> None:
        """Show the subject in the detail view (loaded ``after`` seconds from now)."""
        self._show(self.panes.subject_id, self.panes.subject_hit, after)

    def _show(self, subject: str | None, hit: SearchHit | None, after: float = 0.0) -> None:
        if self.scope is not None and not self._detail_taken:
            self.link_shown = None
            if subject is None and self.nothing_here is not None:
                self.detail.forget_note()
                self.detail.show_message(self.nothing_here)  # why no row is there
                return
            self.detail.show_subject(self.scope, subject, hit, after)

    def reselect(self, wanted: str | None, before: str | None = None, after: float = 0.0) -> None:
        """Highlight ``wanted`` wherever it is (else ``before``, in the working pane),
        then show the subject."""
        if (wanted is None or not self.panes.select(wanted)) and before is not None:
            self.panes.pane(self.panes.working).select(before)
        self.show_subject(after)

    def on_panes_subject_changed(self, message: Panes.SubjectChanged) -> None:
        if message.reloads == self.panes.reloads:  # else the reload showed the subject
            self._show(message.note_id, message.hit)

    def on_note_loaded(self, message: NoteLoaded) -> None:
        """Draw the note loaded, unless the detail view is taken meanwhile."""
        if self.scope is not None and not self._detail_taken:
            self.detail.show_note(message.data, self.scope.agent)

    @on(NoteDetail.FollowLink)
    def _follow_link(self, message: NoteDetail.FollowLink) -> None:
        self.go_to(message.note_id)

    def go_to(self, note_id: str) -> None:
        """Highlight ``note_id`` in the pane that lists it and put the focus there; a note
        in no pane (not loaded, read only by id) is shown in the detail, as the subject."""
        if self.panes.select(note_id):
            which = self.panes.working
            self.panes.focus_tab(which)
            # Again once the panes are drawn: a pane shown anew may pass on a focus later.
            self.call_after_refresh(self.panes.focus_tab, which)
            self.show_subject()
        elif self.scope is not None:
            self.link_shown = note_id
            self.detail.load_note(self.scope, note_id, None)

    def merge(self, update: FollowUpdate) -> None:
        """Merge what follow mode found into the panes (and the runs, if they changed); a
        changed subject loads again, and so does the next row's note when the subject's
        row went."""
        if update.runs is not None:
            self.panes.history.show_runs(update.runs)
        subject, loaded = self.selected_id, self.detail.note_data is not None
        changed = self.panes.merge(update) and not self.link_shown
        if self.selected_id != subject:
            self.show_subject()
        elif changed and subject is not None and loaded and self.scope is not None:
            self.detail.load_note(self.scope, subject, None)

    # ------------------------------------------------------------ the runs
    def on_descendant_focus(self, event: DescendantFocus) -> None:
        """The focus left the history: the detail view is the subject's again (the
        history pane itself says which run it has when it takes the focus)."""
        if self.panes.tab_of(event.widget) != "history":
            self.run_shown = None

    @on(HistoryPane.Highlighted)
    def _run_highlighted(self, message: HistoryPane.Highlighted) -> None:
        if message.run is not None and message.focused:
            self.show_run(message.run)

    def show_run(self, run: ConsolidationRun) -> None:
        """Show a consolidation run in the detail view, with the keys that undo it."""
        self.run_shown = run
        active, display = self.screen.active_bindings, self.app.get_key_display
        undo, merge = key_for(active, display, "undo"), key_for(active, display, "undo_merge")
        hint = f"{undo} undoes this run; {merge} (or Enter in the list of merges) undoes "
        self.detail.show_run(run, hint + "only the merge chosen there.")
