"""The question before an edit that changes who reads a note: the readers before and
after, what openclaw-amem will give them, and what the change would do to the checks
and the recent queries (as ``update --readers --dry-run`` says it). An edit of the text
or tags alone is saved without one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amem_tui.tui.dialogs.confirm import confirm_then
from amem_tui.tui.text import one_line
from amem_tui.tui.widgets.search_history import checks_file, history_name

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.widget import Widget

    from amem_tui.engine import AgentScope, MemoryEngine, MemoryNote


def confirm_readers(
    owner: Widget,
    engine: MemoryEngine,
    scope: AgentScope,
    note: MemoryNote,
    readers: list[str],
    text_too: bool,
    save: Callable[[], None],
) -> None:
    """Ask before a save that changes who reads ``note``, with what it would do (as
    ``update --readers --dry-run`` says it); ``text_too``: its text or tags change too."""
    from amem_tui.engine.for_apps import SetReaders
    from amem_tui.tui.what_if_text import work_out

    owner_id = note.effective_owner or scope.agent
    old = [r for r in note.readers or [] if r != owner_id]
    body = (
        f"Readers: {', '.join(old) or 'none but ' + owner_id} → "
        f"{', '.join(readers) or 'none but ' + owner_id}."
    )
    if sentence := engine.agent(scope).readers_sentence(readers):
        body += f" {sentence}"
    if text_too:
        body += " The text and tags changed are saved with it."
    change = SetReaders(history_name(scope), note.id, tuple(readers))
    confirm_then(
        owner.app,
        "Change who reads this note?",
        f"{body}\n\n{note.id}\n{one_line(note.content, 70)}",
        "Save",
        save,
        preview=work_out(engine, change, checks_file(owner, engine)),
    )
