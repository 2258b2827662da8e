"""Writing one note: add one, and edit (in a form or in ``$EDITOR``), publish, unpublish,
delete, restore, revert (to a version) or copy the subject (the note the browser's detail
view shows); plain functions the note browser's actions call.

Each write says first what stops it (the write rule, in the engine's words), then asks
(a dialog naming the note), then calls the engine in a worker of ``owner`` (the
browser). The outcome comes back as an ``ActionDone``, or, through the owner's
worker-error handler, an ``ActionRefused``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amem_tui.engine import AmemError
from amem_tui.tui.dialogs.confirm import confirm_then
from amem_tui.tui.messages import ActionDone
from amem_tui.tui.text import one_line
from amem_tui.tui.widgets.search_history import checks_file, history_name
from amem_tui.tui.workers import refusal
from amem_tui.wording import plural

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.text import Text
    from textual.widget import Widget

    from amem_tui.engine import AgentScope, AgentView, MemoryEngine, MemoryNote, NoteHistory
    from amem_tui.engine.for_apps import Activity, ActivityKind, Change, NoteVersion
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


#: (title, body, button) of each confirmed write, and what the notification says after.
QUESTIONS: dict[str, tuple[str, str, str, str]] = {
    "publish": (
        "Publish this note?",
        "It moves to the shared scope: every Mode A agent will be able to read it. "
        "It keeps its owner, and only the owner may change it.",
        "Publish",
        "Published note",
    ),
    "unpublish": (
        "Unpublish this note?",
        "It leaves the shared scope and becomes private to its owner again.",
        "Unpublish",
        "Unpublished note",
    ),
    "delete": (
        "Soft-delete this note?",
        "It is marked is_active=false and disappears from searches. Nothing is "
        "hard-deleted: press x to show deleted notes and r to restore it.",
        "Delete",
        "Soft-deleted note",
    ),
    "restore": (
        "Restore this note?",
        "It becomes active again (is_active=true).",
        "Restore",
        "Restored note",
    ),
}


def _say(owner: Widget, text: str) -> None:
    owner.app.notify(text, markup=False)


def _write(
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


def _refused(
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
        _write(
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
        _say(owner, NO_SUBJECT)
        return
    if _refused(owner, engine, scope, note, "update"):
        return

    def save(draft: NoteDraft | None) -> None:
        if draft is None:
            return
        content = draft.content if draft.content != note.content else None
        tags = draft.tags if draft.tags != note.tags else None
        if content is None and tags is None and draft.readers is None:
            _say(owner, "Nothing changed.")
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


def publish(
    owner: Widget, engine: MemoryEngine, scope: AgentScope, note: MemoryNote | None
) -> None:
    """Share the private note (owner only; Mode A only)."""
    if note is not None and note.is_shared:
        _say(owner, f"Note {note.id} is already shared (u unpublishes it).")
        return
    _confirm_then_write(
        owner, engine, scope, note, "publish", lambda view, note_id: view.publish(note_id)
    )


def unpublish(
    owner: Widget, engine: MemoryEngine, scope: AgentScope, note: MemoryNote | None
) -> None:
    """Make the shared note private to its owner again."""
    if note is not None and not note.is_shared:
        _say(owner, f"Note {note.id} is not shared: it is private already.")
        return
    _confirm_then_write(
        owner, engine, scope, note, "unpublish", lambda view, note_id: view.unpublish(note_id)
    )


def delete(owner: Widget, engine: MemoryEngine, scope: AgentScope, note: MemoryNote | None) -> None:
    """Soft-delete the note."""
    _confirm_then_write(
        owner, engine, scope, note, "delete", lambda view, note_id: view.delete(note_id)
    )


def restore(
    owner: Widget,
    engine: MemoryEngine,
    scope: AgentScope,
    note: MemoryNote | None,
    *,
    deleted_shown: bool = False,
) -> None:
    """Restore the soft-deleted note (``deleted_shown``: the listings show deleted notes)."""
    if note is not None and note.active:
        hint = (
            "Select a deleted (struck-through) note to restore it."
            if deleted_shown
            else "Press x to show deleted notes."
        )
        _say(owner, f"Note {note.id} is not deleted. {hint}")
        return
    _confirm_then_write(
        owner, engine, scope, note, "restore", lambda view, note_id: view.restore(note_id)
    )


def copy(owner: Widget, engine: MemoryEngine, scope: AgentScope, note: MemoryNote | None) -> None:
    """Put the note's content on the clipboard (the terminal's, through OSC 52)."""
    if note is None:
        _say(owner, NO_SUBJECT)
        return
    owner.app.copy_to_clipboard(note.content)
    count = len(note.content)
    _say(owner, f"Copied the content of note {note.id} ({plural(count, 'character')}).")


def copy_id(
    owner: Widget, engine: MemoryEngine, scope: AgentScope, note: MemoryNote | None
) -> None:
    """Put the note's id on the clipboard (for ``amem-tui show ID`` and the like)."""
    if note is None:
        _say(owner, NO_SUBJECT)
        return
    owner.app.copy_to_clipboard(note.id)
    _say(owner, f"Copied the id {note.id}.")


def edit_in_editor(
    owner: Widget, engine: MemoryEngine, scope: AgentScope, note: MemoryNote | None
) -> None:
    """Open the note's content in ``$EDITOR`` (the app suspended) and save what comes
    back as an update, through the engine's write path and its rules."""
    from amem_tui.tui.external_editor import EditorUnavailable, edit_in_editor

    if note is None:
        _say(owner, NO_SUBJECT)
        return
    if _refused(owner, engine, scope, note, "update"):
        return
    try:
        edited = edit_in_editor(owner.app, note.content, f"note-{note.id[:8]}")
    except EditorUnavailable as exc:
        owner.app.notify(str(exc), title="Not saved", severity="error", timeout=8, markup=False)
        return
    if not edited.changed:
        _say(owner, f"Note {note.id} is unchanged: nothing was saved.")
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
    _write(
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


def _confirm_then_write(
    owner: Widget,
    engine: MemoryEngine,
    scope: AgentScope,
    note: MemoryNote | None,
    action: str,
    write: Callable[[AgentView, str], MemoryNote],
) -> None:
    """Ask the action's question about ``note`` (naming it), then write."""
    if note is None:
        _say(owner, NO_SUBJECT)
        return
    if _refused(owner, engine, scope, note, action):
        return
    title, body, label, done = QUESTIONS[action]
    if action == "publish":
        from amem_tui.engine.for_apps import publish_sentence

        note_owner = note.effective_owner or scope.agent
        body += " " + publish_sentence(note_owner, note.readers or [], note.writers or [])
    confirm_then(
        owner.app,
        title,
        f"{body}\n\n{note.id}\n{one_line(note.content, 70)}",
        label,
        lambda: _write(
            owner,
            done,
            scope,
            ACTIVITY_KINDS[action],
            lambda: write(engine.agent(scope), note.id),
        ),
        preview=_what_if(owner, engine, scope, note, action),
    )


def _what_if(
    owner: Widget, engine: MemoryEngine, scope: AgentScope, note: MemoryNote, action: str
) -> Callable[[], Text] | None:
    """What publishing, unpublishing or deleting ``note`` would do (the checks of the
    file saved to last, the recent queries' top 5), for the dialog to work out."""
    from amem_tui.engine.for_apps import Delete, Publish, Unpublish
    from amem_tui.tui.what_if_text import work_out

    agent = history_name(scope)
    change: Change
    if action == "publish":
        change = Publish(agent, note.id)
    elif action == "unpublish":
        change = Unpublish(agent, note.id)
    elif action == "delete":
        change = Delete(agent, note.id)
    else:
        return None
    return work_out(engine, change, checks_file(owner, engine))


def revert(
    owner: Widget,
    engine: MemoryEngine,
    scope: AgentScope,
    shown: tuple[NoteHistory, NoteVersion] | None,
) -> None:
    """Bring the note whose versions the detail's Versions tab shows back to the
    version highlighted there (asked first, naming both; kept as a new version)."""
    if shown is None:
        _say(owner, "Press V to see the note's versions, then choose one to revert to.")
        return
    history, version = shown
    latest = history.latest
    if not version.recorded or version is latest or latest is None:
        _say(owner, f"Version {version.number} is the note as it is now: nothing to revert.")
        return
    note_id, now = history.note_id, latest.after or {}
    try:
        note = engine.agent(scope).get(note_id)
    except AmemError as exc:
        owner.post_message(refusal(exc))
        return
    if _refused(owner, engine, scope, note, "update"):
        return
    expected = now.get("hash") if isinstance(now.get("hash"), str) else None
    from amem_tui.tui.widgets.note_versions import revert_question

    question = revert_question(history, version)
    question.append(
        "\nThe revert is kept as a new version: nothing is rewritten, and it can be "
        "reverted in turn. Recall counts stay as they are."
    )
    confirm_then(
        owner.app,
        f"Revert to version {version.number}?",
        question,
        "Revert",
        lambda: _write(
            owner,
            f"Reverted to version {version.number}: note",
            scope,
            ACTIVITY_KINDS["revert"],
            lambda: engine.agent(scope).revert(note_id, version.number, expected_hash=expected),
        ),
    )
