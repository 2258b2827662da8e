"""Writing one note: add one, and edit (in a form or in ``$EDITOR``) or copy the subject
(the note the browser's detail view shows); plain functions the note browser's actions
call. The writes asked first in a dialog (publish, unpublish, delete, restore, revert)
are ``asked_writes``, on the same footing (``say``, ``refused``, ``write_in_worker``).

Each write says first what stops it (the write rule, in the engine's words), then
calls the engine in a worker of ``owner`` (the browser). The outcome comes back as an
``ActionDone``, or, through the owner's worker-error handler, an ``ActionRefused``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amem_tui.tui.messages import ActionDone
from amem_tui.tui.text import one_line
from amem_tui.tui.workers import refusal
from amem_tui.wording import plural

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.widget import Widget

    from amem_tui.engine import AgentScope, MemoryEngine, MemoryNote
    from amem_tui.engine.for_apps import Activity, ActivityKind
    from amem_tui.tui.dialogs.note_editor import NoteDraft

NO_SUBJECT = "Select a note first (arrows in a pane)."

#: The activity log's kind of change for each confirmed write.
ACTIVITY_KINDS: dict[str, ActivityKind] = {
    "publish": "published",
    "unpublish": "unpublished",
    "delete": "deleted",
    "restore": "restored",
    "revert": "edited",
}


def own_activity(agent: str, kind: ActivityKind, note: MemoryNote) -> Activity:
    """A write made in this app, as the activity log says it ("main published “…”, here")."""
    from amem_tui.engine.for_apps import Activity

    return Activity(kind, f"{agent} {kind} “{one_line(note.content, 48)}”, here", note.id)


def readers_said(readers: list[str]) -> str:
    """What a write that chose ``readers`` adds to its notification."""
    return f": {', '.join(readers)} may read it by id" if readers else ""


def say(owner: Widget, text: str) -> None:
    """Notify ``text`` as it is (no markup: it may quote a note)."""
    owner.app.notify(text, markup=False)


def write_in_worker(
    owner: Widget,
    label: str,
    scope: AgentScope,
    kind: ActivityKind,
    write: Callable[[], MemoryNote],
    then: str = "",
) -> None:
    """Run one engine write in a thread; report the note it wrote (to select it) and
    what happened (``label``, the note's id, ``then``), in the activity log's words."""

    def run() -> None:
        note = write()
        activity = own_activity(scope.agent, kind, note)
        said = f"{label} {note.id}{then}"
        owner.post_message(ActionDone(said, note.id, activity=activity))

    owner.run_worker(run, thread=True, exit_on_error=False, group="write")


def refused(
    owner: Widget, engine: MemoryEngine, scope: AgentScope, note: MemoryNote, action: str
) -> bool:
    """Say what stops ``action`` on ``note`` before any dialog opens (True if refused)."""
    denial = engine.agent(scope).write_refusal(note, action)
    if denial is not None:
        owner.post_message(refusal(denial))
    return denial is not None


# ------------------------------------------------------------------ add
def add(owner: Widget, engine: MemoryEngine, scope: AgentScope) -> None:
    """Write a new note (private by default, readable by id by the readers chosen)."""
    reason = None
    if not scope.has_shared_scope:
        reason = f"{scope.agent} is Mode B: it has no shared scope, so notes stay private."

    def save(draft: NoteDraft | None) -> None:
        if draft is None:
            return
        kind = "shared" if draft.shared else "private"
        readers = draft.readers or []
        write_in_worker(
            owner,
            f"Added {kind} note",
            scope,
            "added",
            lambda: engine.agent(scope).add(
                draft.content, shared=draft.shared, tags=draft.tags, readers=readers
            ),
            readers_said(readers),
        )

    from amem_tui.tui.dialogs.note_editor import NoteEditor
    from amem_tui.tui.readers_choice import readers_choice

    editor = NoteEditor(
        f"New note as {scope.agent}",
        scope.agent,
        shared_reason=reason,
        readers=lambda: readers_choice(engine, scope),
    )
    owner.app.push_screen(editor, save)


# -------------------------------------------------------------- the subject
def edit(owner: Widget, engine: MemoryEngine, scope: AgentScope, note: MemoryNote | None) -> None:
    """Change the note's content, tags and (its owner only) readers."""
    if note is None:
        say(owner, NO_SUBJECT)
        return
    if refused(owner, engine, scope, note, "update"):
        return

    def save(draft: NoteDraft | None) -> None:
        if draft is None:
            return
        content = draft.content if draft.content != note.content else None
        tags = draft.tags if draft.tags != note.tags else None
        if content is None and tags is None and draft.readers is None:
            say(owner, "Nothing changed.")
            return
        if draft.readers is None:  # text and tags only: saved at once
            _update(owner, engine, scope, note, content=content, tags=tags)
            return
        from amem_tui.tui.readers_question import confirm_readers

        readers = draft.readers

        def write() -> None:
            _update(owner, engine, scope, note, content=content, tags=tags, readers=readers)

        text_too = content is not None or tags is not None
        confirm_readers(owner, engine, scope, note, readers, text_too, write)

    from amem_tui.tui.dialogs.note_editor import NoteEditor
    from amem_tui.tui.readers_choice import readers_choice

    editor = NoteEditor(
        f"Edit note {note.id}",
        scope.agent,
        content=note.content,
        tags=list(note.tags),
        allow_scope=False,
        readers=lambda: readers_choice(engine, scope, note),
    )
    owner.app.push_screen(editor, save)


def copy(owner: Widget, engine: MemoryEngine, scope: AgentScope, note: MemoryNote | None) -> None:
    """Put the note's content on the clipboard (the terminal's, through OSC 52)."""
    if note is None:
        say(owner, NO_SUBJECT)
        return
    owner.app.copy_to_clipboard(note.content)
    count = len(note.content)
    say(owner, f"Copied the content of note {note.id} ({plural(count, 'character')}).")


def copy_id(
    owner: Widget, engine: MemoryEngine, scope: AgentScope, note: MemoryNote | None
) -> None:
    """Put the note's id on the clipboard (for ``amem-tui show ID`` and the like)."""
    if note is None:
        say(owner, NO_SUBJECT)
        return
    owner.app.copy_to_clipboard(note.id)
    say(owner, f"Copied the id {note.id}.")


def edit_in_editor(
    owner: Widget, engine: MemoryEngine, scope: AgentScope, note: MemoryNote | None
) -> None:
    """Open the note's content in ``$EDITOR`` (the app suspended) and save what comes
    back as an update, through the engine's write path and its rules."""
    from amem_tui.tui.external_editor import EditorUnavailable, edit_in_editor

    if note is None:
        say(owner, NO_SUBJECT)
        return
    if refused(owner, engine, scope, note, "update"):
        return
    try:
        edited = edit_in_editor(owner.app, note.content, f"note-{note.id[:8]}")
    except EditorUnavailable as exc:
        owner.app.notify(str(exc), title="Not saved", severity="error", timeout=8, markup=False)
        return
    if not edited.changed:
        say(owner, f"Note {note.id} is unchanged: nothing was saved.")
        return
    _update(owner, engine, scope, note, content=edited.text)


def _update(
    owner: Widget,
    engine: MemoryEngine,
    scope: AgentScope,
    note: MemoryNote,
    content: str | None = None,
    tags: list[str] | None = None,
    readers: list[str] | None = None,
) -> None:
    """Save an edit of ``note`` as it was loaded (a change made elsewhere meanwhile
    is refused, not overwritten); ``readers`` None leaves them as they are."""
    write_in_worker(
        owner,
        "Updated note",
        scope,
        "edited",
        lambda: engine.agent(scope).update(
            note.id,
            content=content,
            tags=tags,
            readers=readers,
            expected_hash=note.hash or None,
        ),
        "" if readers is None else readers_said(readers) or ": no other agent reads it now",
    )
