"""The main screen's actions that change data, and which actions may run now.

:class:`WriteActionsScreen` is the base of the main screen: it holds the agent the
screen acts as and decides from the action table which actions may run (a dimmed
key says why it is off). It writes the selected note (add, edit, publish, unpublish,
delete, restore): each write asks first (a dialog), then calls the engine in a
worker, and the outcome comes back as an ``ActionDone`` (or, through the
worker-error handler, an ``ActionRefused``). Consolidating and undoing are handed
to the history pane, which owns those workers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import getters, on, work
from textual.events import Key
from textual.screen import Screen
from textual.widgets import Input, TextArea

from amem_tui.tui.actions import WRITE_ACTIONS, disabled_reason
from amem_tui.tui.dialogs.confirm import confirm_then
from amem_tui.tui.messages import ActionDone
from amem_tui.tui.text import one_line
from amem_tui.tui.widgets.detail import NoteDetail
from amem_tui.tui.widgets.history_pane import HistoryPane, merge_undo_blocker
from amem_tui.tui.workers import ReportsWorkerFailures, refusal

if TYPE_CHECKING:
    from collections.abc import Callable

    from amem_tui.engine import AgentScope, MemoryEngine, MemoryNote
    from amem_tui.tui.dialogs.note_editor import NoteDraft


class WriteActionsScreen(ReportsWorkerFailures, Screen[None]):
    """A screen acting as one agent, with the actions that change its data."""

    detail_view = getters.query_one(NoteDetail)
    history_pane = getters.query_one(HistoryPane)

    def __init__(self, engine: MemoryEngine) -> None:
        super().__init__()
        self.engine = engine
        #: The agent the screen acts as, once loaded.
        self.scope: AgentScope | None = None
        #: True when the agent's collection is a mem0 collection (read, never written).
        self.mem0 = False
        #: Why the agent's collection cannot be written (a mem0 collection), if it cannot.
        self.collection_refusal: str | None = None
        #: Soft-deleted notes are listed (struck through).
        self.show_deleted = False

    @property
    def read_only(self) -> bool:
        """True when writes are off."""
        return self.engine.read_only

    # ------------------------------------------------------------ may it run
    def disabled_reason(self, action: str) -> str | None:
        """Why an action is off right now, or None when it may run."""
        reason = disabled_reason(action, read_only=self.read_only, scope=self.scope)
        if reason is None and action in WRITE_ACTIONS and self.collection_refusal:
            return self.collection_refusal
        return reason

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Dim actions that cannot run (the reason is shown when they are tried); '/'
        is typed, not bound, while a text box has the focus."""
        if action == "focus_search" and isinstance(self.focused, (Input, TextArea)):
            return False
        if action in WRITE_ACTIONS and self.disabled_reason(action):
            return None
        return True

    def _refused_now(self, action: str) -> bool:
        reason = self.disabled_reason(action)
        if reason:
            self.app.notify(reason, title="Not available", severity="warning", markup=False)
        return reason is not None

    def on_key(self, event: Key) -> None:
        """A key bound to a dimmed action says why it is off instead of doing nothing."""
        if isinstance(self.focused, Input):
            return
        active = self.active_bindings.get(event.key)
        if active is None or active.enabled or active.node is not self:
            return
        reason = self.disabled_reason(active.binding.action)
        if reason:
            event.stop()
            self.app.notify(reason, title="Not available", severity="warning", markup=False)

    def _needs_note(self, action: str) -> MemoryNote | None:
        """The selected note, if ``action`` may run on it; else say why not (and None)."""
        data = self.detail_view.note_data
        if data is None or data.note.id != self.detail_view.note_id:
            self.app.notify("Select a note first (arrows in a pane).", markup=False)
            return None
        if self.scope is not None:
            denial = self.engine.agent(self.scope).write_refusal(data.note, action)
            if denial is not None:  # said before any dialog opens, in the engine's words
                self.post_message(refusal(denial))
                return None
        return data.note

    # ----------------------------------------------------------------- write
    @work(thread=True, exit_on_error=False, group="write")
    def write_note(self, label: str, write: Callable[[], MemoryNote]) -> None:
        """Run one engine write in a thread; report the note it wrote (and select it)."""
        note = write()
        self.post_message(ActionDone(f"{label} {note.id}", note.id))

    def action_add(self) -> None:
        """Write a new note (private by default)."""
        if self._refused_now("add") or self.scope is None:
            return
        scope = self.scope
        reason = None
        if not scope.has_shared_scope:
            reason = f"{scope.agent} is Mode B: it has no shared scope, so notes stay private."

        def save(draft: NoteDraft | None) -> None:
            if draft is None:
                return
            kind = "shared" if draft.shared else "private"
            self.write_note(
                f"Added {kind} note",
                lambda: self.engine.agent(scope).add(
                    draft.content, shared=draft.shared, tags=draft.tags
                ),
            )

        from amem_tui.tui.dialogs.note_editor import NoteEditor

        self.app.push_screen(
            NoteEditor(f"New note as {scope.agent}", scope.agent, shared_reason=reason), save
        )

    def action_edit(self) -> None:
        """Change the selected note's content and tags."""
        if self._refused_now("edit") or self.scope is None:
            return
        note = self._needs_note("update")
        if note is None:
            return
        scope = self.scope

        def save(draft: NoteDraft | None) -> None:
            if draft is None:
                return
            content = draft.content if draft.content != note.content else None
            tags = draft.tags if draft.tags != note.tags else None
            if content is None and tags is None:
                self.app.notify("Nothing changed.", markup=False)
                return
            self.write_note(
                "Updated note",
                lambda: self.engine.agent(scope).update(
                    note.id, content=content, tags=tags, expected_hash=note.hash or None
                ),
            )

        from amem_tui.tui.dialogs.note_editor import NoteEditor

        self.app.push_screen(
            NoteEditor(
                f"Edit note {note.id}",
                scope.agent,
                content=note.content,
                tags=list(note.tags),
                allow_scope=False,
            ),
            save,
        )

    def _ask_then_write(
        self,
        action: str,
        write: Callable[[AgentScope, str], MemoryNote],
        question: tuple[str, str, str],
        done: str,
    ) -> None:
        """Confirm ``question`` (title, body, button) about the selected note, then write."""
        if self._refused_now(action) or self.scope is None:
            return
        note = self._needs_note(action)
        if note is None:
            return
        scope = self.scope
        title, body, label = question
        confirm_then(
            self.app,
            title,
            f"{body}\n\n{note.id}\n{one_line(note.content, 70)}",
            label,
            lambda: self.write_note(done, lambda: write(scope, note.id)),
        )

    def action_publish(self) -> None:
        """Share the selected private note (owner only; Mode A only)."""
        self._ask_then_write(
            "publish",
            lambda scope, note_id: self.engine.agent(scope).publish(note_id),
            (
                "Publish this note?",
                "It moves to the shared scope: every Mode A agent will be able to read it. "
                "It keeps its owner, and only the owner may change it.",
                "Publish",
            ),
            "Published note",
        )

    def action_unpublish(self) -> None:
        """Make the selected shared note private to its owner again."""
        self._ask_then_write(
            "unpublish",
            lambda scope, note_id: self.engine.agent(scope).unpublish(note_id),
            (
                "Unpublish this note?",
                "It leaves the shared scope and becomes private to its owner again.",
                "Unpublish",
            ),
            "Unpublished note",
        )

    def action_delete(self) -> None:
        """Soft-delete the selected note."""
        self._ask_then_write(
            "delete",
            lambda scope, note_id: self.engine.agent(scope).delete(note_id),
            (
                "Soft-delete this note?",
                "It is marked is_active=false and disappears from searches. Nothing is "
                "hard-deleted: press x to show deleted notes and r to restore it.",
                "Delete",
            ),
            "Soft-deleted note",
        )

    def action_restore(self) -> None:
        """Restore the selected soft-deleted note."""
        data = self.detail_view.note_data
        note = data.note if data else None
        if note is not None and note.active and not self.disabled_reason("restore"):
            hint = (
                "Select a deleted (struck-through) note to restore it."
                if self.show_deleted
                else "Press x to show deleted notes."
            )
            self.app.notify(f"This note is not deleted. {hint}", markup=False)
            return
        self._ask_then_write(
            "restore",
            lambda scope, note_id: self.engine.agent(scope).restore(note_id),
            ("Restore this note?", "It becomes active again (is_active=true).", "Restore"),
            "Restored note",
        )

    # --------------------------------------------------------- consolidation
    def action_consolidate(self) -> None:
        """Preview a consolidation of the current agent (dry run), then maybe apply it."""
        if self._refused_now("consolidate") or self.scope is None:
            return
        self.history_pane.consolidate(self.scope)

    def action_undo(self) -> None:
        """Undo the consolidation run under the cursor in the history pane."""
        if self._refused_now("undo") or self.scope is None:
            return
        self.history_pane.undo_selected_run(self.scope)

    def action_undo_merge(self) -> None:
        """Undo one merge of the run shown in the detail view (the one chosen there)."""
        if self._refused_now("undo_merge") or self.scope is None:
            return
        run = self.detail_view.run
        if run is None:
            self.app.notify(
                "Select a run in the consolidation history first (Tab to it): its merges "
                "are listed in the detail view.",
                markup=False,
            )
            return
        blocker = merge_undo_blocker(run)
        if blocker is not None:
            self.app.notify(blocker, markup=False)
            return
        keeper = self.detail_view.chosen_merge
        if keeper is None:
            self.app.notify(
                "This run has several merges: choose one in the list of merges beside the "
                "run (Tab to it, arrows), then press Enter.",
                markup=False,
            )
            return
        self._undo_merge(keeper)

    @on(NoteDetail.MergeChosen)
    def _merge_chosen(self, message: NoteDetail.MergeChosen) -> None:
        self._undo_merge(message.keeper)

    def _undo_merge(self, keeper: str | None) -> None:
        if self._refused_now("undo_merge") or self.scope is None:
            return
        self.history_pane.undo_one_merge(self.scope, self.detail_view.run, keeper)
