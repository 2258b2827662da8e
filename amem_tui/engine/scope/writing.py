"""The write rules: who may modify a note, and who only its owner may; what a
consolidation may merge; the readers an owner may choose; and the access fields a new
note gets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from amem_tui.engine.errors import InvalidInput, PermissionDenied
from amem_tui.engine.models import EVERYONE, SHARED, MemoryNote
from amem_tui.engine.scope.agents import RESERVED_AGENT_IDS, AgentScope, validate_agent_id


def can_write(agent: str, note: MemoryNote) -> bool:
    """The write rule: the owner, or named in ``writers``, or ``writers`` holds ``"*"``."""
    writers = note.effective_writers
    return note.effective_owner == agent or agent in writers or EVERYONE in writers


def write_denial(agent: str, note: MemoryNote, action: str) -> PermissionDenied | None:
    """The refusal ``agent`` gets for trying ``action`` on ``note``, or None if allowed.

    An app can show it before trying; ``require_write`` raises the same one.
    """
    if can_write(agent, note):
        return None
    owner = note.effective_owner or "nobody"
    writers = ", ".join(note.effective_writers) or "none"
    return PermissionDenied(
        agent,
        note.id,
        action,
        f"only its owner ({owner}) or its writers ({writers}) may modify it",
    )


def require_write(agent: str, note: MemoryNote, action: str) -> None:
    """Raise ``PermissionDenied`` unless ``agent`` may modify ``note``."""
    denial = write_denial(agent, note, action)
    if denial is not None:
        raise denial


def owner_denial(agent: str, note: MemoryNote, action: str) -> PermissionDenied | None:
    """The refusal a non-owner gets for an owner-only ``action`` (publish, unpublish)."""
    if note.effective_owner == agent:
        return None
    return PermissionDenied(
        agent, note.id, action, f"only its owner ({note.effective_owner}) may {action} it"
    )


def require_owner(agent: str, note: MemoryNote, action: str) -> None:
    """Raise ``PermissionDenied`` unless ``agent`` owns ``note``."""
    denial = owner_denial(agent, note, action)
    if denial is not None:
        raise denial


def is_consolidation_candidate(scope: AgentScope, note: MemoryNote) -> bool:
    """The same selection as ``consolidation_filter``, for one note."""
    return note.agent_id == scope.agent and note.active and note.note_type == "memory"


def may_consolidate(scope: AgentScope, note: MemoryNote) -> bool:
    """A candidate the agent may also modify (what consolidation merges or drops)."""
    return is_consolidation_candidate(scope, note) and can_write(scope.agent, note)


def may_rewrite_links(scope: AgentScope, note: MemoryNote) -> bool:
    """Where consolidation may point links at a keeper: the agent's own candidates only.

    Shared notes (even the agent's own) and other agents' notes keep their links:
    consolidation of an agent touches only its private, active ``memory`` notes.
    """
    return may_consolidate(scope, note)


#: Why readers an owner chooses are only ever read by id (said wherever they are set).
READERS_ARE_GET_ONLY = (
    "readers are read by id only: openclaw-amem's getNote returns the note to them, "
    "their memory_search, memory_list and counts never do (only publishing shares a "
    "note with every agent's searches)"
)


def chosen_readers(owner: str, readers: Sequence[str]) -> list[str]:
    """The ``readers`` field of a private note whose owner chose ``readers``: the owner
    first (it always reads its own note), then each chosen agent once."""
    return list(dict.fromkeys([owner, *readers]))


def readers_denial(
    scope: AgentScope, readers: Sequence[str], dedicated_collections: Mapping[str, str]
) -> InvalidInput | None:
    """Why ``scope``'s agent may not give a private note these ``readers`` (None: it
    may), when the choice would mean nothing to openclaw-amem.

    A Mode B agent's collection is read by nobody else; a Mode B reader reads only its
    own collection; ``*`` and ``shared`` are what publishing sets, not readers.
    """
    if scope.mode == "B":
        return InvalidInput(
            f"agent '{scope.agent}' is Mode B (collection {scope.collection}): no other "
            "agent reads its collection, so readers would give nobody anything"
        )
    for reader in readers:
        if reader in RESERVED_AGENT_IDS:
            return InvalidInput(
                f"'{reader}' cannot be a reader: readers name agents; to share a note "
                "with every agent, publish it (add --shared, or publish ID)"
            )
        try:
            validate_agent_id(reader)
        except InvalidInput as exc:
            return InvalidInput(f"readers: {exc.message}")
        own = dedicated_collections.get(reader)
        if own is not None and reader != scope.agent:
            return InvalidInput(
                f"'{reader}' is Mode B: it reads only its own collection '{own}', so "
                f"naming it a reader of a note in '{scope.collection}' gives it nothing"
            )
    return None


@dataclass
class Access:
    """The access fields a new note gets."""

    agent_id: str
    owner: str
    readers: list[str] = field(default_factory=list)
    writers: list[str] = field(default_factory=list)


def private_access(agent: str) -> Access:
    """Access fields of a private note written by ``agent``."""
    validate_agent_id(agent)
    return Access(agent_id=agent, owner=agent, readers=[agent], writers=[agent])


def unpublished_access(
    owner: str, readers_before: Sequence[str] = (), writers_before: Sequence[str] = ()
) -> Access:
    """Access fields of a shared note made private again: the readers and writers it had
    before it was published, always led by its owner (nothing known: the owner alone)."""
    access = private_access(owner)
    access.readers = [owner, *dict.fromkeys(a for a in readers_before if a != owner)]
    access.writers = [owner, *dict.fromkeys(a for a in writers_before if a != owner)]
    return access


def shared_access(writer: str) -> Access:
    """Access fields of a shared note written by ``writer``."""
    validate_agent_id(writer)
    return Access(agent_id=SHARED, owner=writer, readers=[EVERYONE], writers=[writer])


def publish_sentence(owner: str, readers: Sequence[str], writers: Sequence[str]) -> str:
    """What publishing does to a private note's readers and writers, and that unpublish
    gives them back (``readers``/``writers``: the note's, before the publish)."""
    kept_readers = [a for a in readers if a not in (owner, EVERYONE)]
    kept_writers = [a for a in writers if a != owner]
    if not kept_readers and not kept_writers:
        return "Its readers become everyone (*). Unpublish makes it private to its owner again."
    change = f"Its readers become everyone (*) instead of {', '.join([owner, *kept_readers])}"
    if kept_writers:
        change += f"; {', '.join(kept_writers)} may no longer change it"
    return f"{change}. Unpublish gives them back."


def apply_access(note: MemoryNote, access: Access) -> None:
    """Set a note's scope fields from ``access``."""
    note.agent_id = access.agent_id
    note.owner = access.owner
    note.readers = list(access.readers)
    note.writers = list(access.writers)
