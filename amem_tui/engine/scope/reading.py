"""The read rules, one note at a time: why a note is in an agent's view, why it reads a
note only by id (and what it gets of it), why a note is hidden from it, and what the
agents a note's ``readers`` name are given."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from amem_tui.engine.models import EVERYONE, SHARED, MemoryNote, NoteAccess
from amem_tui.engine.scope.agents import DEFAULT_AGENT, AgentScope
from amem_tui.engine.search_results import GetOnlyBecause, HiddenKind, VisibleBecause


def visible_because(scope: AgentScope, note: NoteAccess) -> VisibleBecause | None:
    """Why a note in the agent's collection shows up in its searches, or None.

    This is the search rule (the Mode A filter), used to explain each hit.
    """
    if not note.active:
        return None
    return listed_because(scope, note)


def listed_because(scope: AgentScope, note: NoteAccess) -> VisibleBecause | None:
    """Why a note belongs in the agent's view, soft-deleted or not (None: it does not).

    The Mode A filter again, for one note: the store filters first, and this
    drops what a filter cannot judge (an ``agent_id`` of the wrong type, which
    Qdrant may still match).
    """
    if scope.mode == "B":
        return "collection"
    if note.agent_id == scope.agent:
        return "private"
    if note.malformed:  # a malformed point is never shared
        return None
    if note.agent_id == SHARED:
        return "shared"
    return None


def read_access(note: MemoryNote) -> tuple[str, list[str]]:
    """The owner and readers openclaw-amem's read rule looks at.

    Its storage fills what a note lacks from ``agent_id`` (``main`` when that is
    missing too): ``owner`` or ``agent_id``, and ``readers`` or ``[agent_id]``. So a
    legacy shared note (no access fields) has owner and readers ``shared`` and is
    read by no agent through ``getNote``, though every agent finds it by search.
    """
    agent = note.agent_id if isinstance(note.agent_id, str) and note.agent_id else DEFAULT_AGENT
    owner = note.owner if isinstance(note.owner, str) and note.owner else agent
    readers = list(note.readers) if note.readers is not None else [agent]
    return owner, readers


def get_only_because(scope: AgentScope, note: MemoryNote) -> GetOnlyBecause | None:
    """Why the read rule lets the agent read a note by id that its searches, listings
    and counts never hold (None: it finds the note, or may not read it at all).

    ``reader``: its ``readers`` name the agent; ``everyone``: they hold ``"*"`` (but
    ``agent_id`` is not ``shared``); ``owner``: the agent owns it under another
    ``agent_id``. Soft-deleted notes count too (``getNote`` returns them); listings
    of active notes drop them first.
    """
    if scope.mode == "B" or note.malformed or listed_because(scope, note) is not None:
        return None
    owner, readers = read_access(note)
    if scope.agent in readers:
        return "reader"
    if EVERYONE in readers:
        return "everyone"
    if owner == scope.agent:
        return "owner"
    return None


def get_only_sentence(scope: AgentScope, note: MemoryNote) -> str | None:
    """What an openclaw-amem agent gets of a note it reads only by id, in one sentence
    (None when the note is not get-only for it)."""
    why = get_only_because(scope, note)
    if why is None:
        return None
    agent = scope.agent
    how = {
        "reader": f"its readers name '{agent}'",
        "everyone": "its readers hold '*'",
        "owner": f"'{agent}' owns it under agent_id '{note.agent_id}'",
    }[why]
    return (
        f"get only ({how}): openclaw-amem's getNote returns it to {agent} (read by id, "
        f"e.g. through a link); {agent}'s memory_search, memory_list and counts never do"
    )


def selective_sentence(note: MemoryNote) -> str | None:
    """What openclaw-amem gives the agents a private note's ``readers`` name beyond the
    one its ``agent_id`` names (None when there are none, or the note is shared)."""
    if note.agent_id == SHARED or note.malformed:
        return None
    _, readers = read_access(note)
    return readers_sentence(note.agent_id or DEFAULT_AGENT, readers)


def readers_sentence(agent_id: str, readers: Sequence[str]) -> str | None:
    """What openclaw-amem gives the agents ``readers`` names, of a private note whose
    ``agent_id`` is ``agent_id`` (None when they name no other agent): for an author
    choosing readers, before the note is written."""
    if EVERYONE in readers:
        return (
            "openclaw-amem: getNote returns it to any agent (readers '*'); only "
            f"'{agent_id}'s memory_search finds it (agent_id '{SHARED}' shares a note)"
        )
    others = [r for r in dict.fromkeys(readers) if r != agent_id]
    if not others:
        return None
    names = ", ".join(others)
    return (
        f"openclaw-amem: getNote returns it to {names}; their memory_search, memory_list "
        "and counts do not"
    )


def hidden_reason(
    scope: AgentScope,
    note: MemoryNote,
    collection: str,
    dedicated_collections: Mapping[str, str],
) -> tuple[HiddenKind, str]:
    """Why ``note`` (in ``collection``) is not among what ``scope`` can find.

    Only meaningful for notes ``visible_because`` rejects, or notes in
    another collection. ``dedicated_collections`` maps Mode B agents to their
    collections, so a note can be placed in "another agent's Mode B collection".
    """
    if collection != scope.collection:
        owners = sorted(a for a, c in dedicated_collections.items() if c == collection)
        if owners:
            return "mode_b", f"in the Mode B collection '{collection}' of agent '{owners[0]}'"
        if scope.mode == "B":
            return "outside", (
                f"outside this agent's collection: '{scope.agent}' is Mode B "
                f"and reads only '{scope.collection}'"
            )
        return "outside", f"outside this agent's collection '{scope.collection}'"
    if scope.mode == "B":
        return "deleted", "soft-deleted"
    if not note.active and visible_because(scope, note.model_copy(update={"is_active": True})):
        return "deleted", "soft-deleted"
    if note.agent_id is None or note.agent_id == "":
        return "malformed", "has no agent_id: never shown to any agent"
    if note.malformed and note.agent_id != scope.agent:
        problems = "; ".join(note.problems)
        return "malformed", f"malformed ({problems}): never shown to another agent"
    who = note.agent_id
    deleted = " (and soft-deleted)" if not note.active else ""
    owner = note.effective_owner
    written = f", written by '{owner}'" if owner and owner != who else ""
    sentence = get_only_sentence(scope, note)
    if sentence is not None:
        return "get_only", f"{sentence}; agent_id '{who}'{written}{deleted}"
    if EVERYONE in note.effective_readers:
        return "private", (
            f"private to agent '{who}'{written}: only agent_id '{SHARED}' puts a note in "
            f"other agents' searches{deleted}"
        )
    return "private", f"private to agent '{who}'{written}{deleted}"


def fits_listing(scope: AgentScope, note: MemoryNote, which: str) -> bool:
    """True when a note the store returned for a ``private``, ``shared``, ``get_only`` or
    ``visible`` listing really belongs there by the rules above."""
    because = listed_because(scope, note)
    if which == "private":
        return scope.mode == "B" or note.agent_id == scope.agent
    if which == "shared":
        return because == "shared"
    if which == "get_only":
        return get_only_because(scope, note) is not None
    return because is not None


def can_read(scope: AgentScope, note: MemoryNote, collection: str) -> bool:
    """The read rule for fetch-by-id (openclaw-amem's ``canRead``, behind ``getNote``).

    The note must be in a collection the agent reads (its own in Mode B, the
    shared collection in Mode A), and the agent must be its owner, or be named in
    ``readers``, or ``readers`` holds ``"*"`` (missing fields filled as
    ``read_access`` says). A malformed point is read only by the agent it names.
    """
    if collection != scope.collection:
        return False
    if scope.mode == "B":
        return True
    if note.agent_id is None or note.agent_id == "":
        return False
    if note.malformed:  # never shared: only the agent it names may read it
        return note.agent_id == scope.agent
    owner, readers = read_access(note)
    return owner == scope.agent or scope.agent in readers or EVERYONE in readers
