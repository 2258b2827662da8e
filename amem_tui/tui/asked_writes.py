"""The writes of one note asked first in a dialog naming it: publish, unpublish,
delete and restore the subject (with what the change would do to the checks and the
recent queries), and revert a note to one of its versions; plain functions the note
browser's actions call.

Each says first what stops it (the write rule, in the engine's words), then asks,
then writes in a worker of ``owner`` (the browser) as ``note_writes`` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amem_tui.engine import AmemError
from amem_tui.tui.dialogs.confirm import confirm_then
from amem_tui.tui.note_writes import ACTIVITY_KINDS, NO_SUBJECT, refused, say, write_in_worker
from amem_tui.tui.text import one_line
from amem_tui.tui.widgets.search_history import checks_file, history_name
from amem_tui.tui.workers import refusal

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.text import Text
    from textual.widget import Widget

    from amem_tui.engine import AgentScope, AgentView, MemoryEngine, MemoryNote, NoteHistory
    from amem_tui.engine.for_apps import Change, NoteVersion

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


def publish(
    owner: Widget, engine: MemoryEngine, scope: AgentScope, note: MemoryNote | None
) -> None:
    """Share the private note (owner only; Mode A only)."""
    if note is not None and note.is_shared:
        say(owner, f"Note {note.id} is already shared (u unpublishes it).")
        return
    _confirm_then_write(
        owner, engine, scope, note, "publish", lambda view, note_id: view.publish(note_id)
    )


def unpublish(
    owner: Widget, engine: MemoryEngine, scope: AgentScope, note: MemoryNote | None
) -> None:
    """Make the shared note private to its owner again."""
    if note is not None and not note.is_shared:
        say(owner, f"Note {note.id} is not shared: it is private already.")
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
        say(owner, f"Note {note.id} is not deleted. {hint}")
        return
    _confirm_then_write(
        owner, engine, scope, note, "restore", lambda view, note_id: view.restore(note_id)
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
        say(owner, NO_SUBJECT)
        return
    if refused(owner, engine, scope, note, action):
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
        lambda: write_in_worker(
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
        say(owner, "Press V to see the note's versions, then choose one to revert to.")
        return
    history, version = shown
    latest = history.latest
    if not version.recorded or version is latest or latest is None:
        say(owner, f"Version {version.number} is the note as it is now: nothing to revert.")
        return
    note_id, now = history.note_id, latest.after or {}
    try:
        note = engine.agent(scope).get(note_id)
    except AmemError as exc:
        owner.post_message(refusal(exc))
        return
    if refused(owner, engine, scope, note, "update"):
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
        lambda: write_in_worker(
            owner,
            f"Reverted to version {version.number}: note",
            scope,
            ACTIVITY_KINDS["revert"],
            lambda: engine.agent(scope).revert(note_id, version.number, expected_hash=expected),
        ),
    )
