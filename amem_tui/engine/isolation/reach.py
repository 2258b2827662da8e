"""Who reaches each note: the identities that read a collection, and for every note the
one whose private memory it is, those whose searches find it and those that read it by
id only.

The rules are the collection service's (openclaw-amem's scope contract, or the mem0
plugin's namespaces); this module only asks them once per distinct set of access fields,
since a store's notes share a handful of those (a few agents, a few reader lists, two
states), so a million notes cost a few hundred rule calls.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from amem_tui.engine.collections import CollectionService
from amem_tui.engine.isolation.findings import LeakPath
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.scope import AgentScope

#: The fields the read rules judge (with the note's state and malformation), and the
#: writers, which the grant check reads: notes that share them are judged alike.
AccessKey = tuple[object, ...]


@dataclass(frozen=True)
class Identity:
    """One identity that reads a collection: an agent, or in a mem0 collection one
    namespace (``user_id`` value) as the plugin reads it."""

    name: str
    scope: AgentScope


def identity_name(scope: AgentScope) -> str:
    """How findings name an identity: its agent id, or its mem0 namespace."""
    return scope.namespace if scope.namespace is not None else scope.agent


@dataclass(frozen=True)
class Reach:
    """Who reaches the notes of one access group."""

    #: The identity whose private memory these notes are (None: shared, or nobody's).
    holder: str | None
    #: Identities whose searches, listings and counts hold them (active notes only).
    finds: frozenset[str]
    #: Identities that read them by id but never find them (openclaw-amem's getNote).
    gets: frozenset[str]
    #: Identities that read the whole collection (a Mode B agent's own).
    whole: frozenset[str]
    #: Who wrote them, when the store says (openclaw-amem's owner; None for mem0).
    writer: str | None
    #: A representative note of the group (its access fields are the group's).
    note: MemoryNote

    @property
    def readers(self) -> frozenset[str]:
        """Every identity that reads them, by search or by id."""
        return self.finds | self.gets

    def path(self, identity: str) -> LeakPath:
        """How ``identity`` reaches these notes (``none``: it does not)."""
        if identity in self.whole:
            return "collection"
        if identity in self.finds:
            return "search"
        if identity in self.gets:
            return "get"
        return "none"

    def exposed_to(self) -> frozenset[str]:
        """The readers other than the writer and the holder: who reaches these notes
        beyond the agent that keeps them (a mem0 memory: its namespace, whoever wrote it)."""
        return self.readers - {self.writer, self.holder} if self.writer else self.readers


def access_key(note: MemoryNote) -> AccessKey:
    """The fields that decide who reaches ``note`` (and its grants)."""
    readers = tuple(note.readers) if note.readers is not None else None
    writers = tuple(note.writers) if note.writers is not None else None
    return (
        note.agent_id,
        note.owner,
        readers,
        writers,
        note.active,
        note.malformed,
        note.user_id,
    )


class ReachTable:
    """The reach of every access group of one collection, each judged once."""

    def __init__(self, service: CollectionService, identities: Sequence[Identity]) -> None:
        self.service = service
        self.identities = list(identities)
        self.groups: list[Reach] = []
        self._codes: dict[AccessKey, int] = {}
        self._mem0 = service.format == "mem0"

    def code(self, note: MemoryNote) -> int:
        """The group of ``note`` (judged now if it is the first of its group)."""
        return self.code_of(access_key(note), lambda: note)

    def code_of(self, key: AccessKey, note: Callable[[], MemoryNote]) -> int:
        """The group of the notes with access fields ``key``; ``note()`` gives one of them
        (asked only for the first of a group)."""
        found = self._codes.get(key)
        if found is None:
            found = self._codes[key] = len(self.groups)
            self.groups.append(self._judge(note()))
        return found

    def _judge(self, note: MemoryNote) -> Reach:
        service = self.service
        # Whose private memory a note is does not change when it is soft-deleted.
        alive = note if note.active else note.model_copy(update={"is_active": True})
        holder: str | None = None
        finds: set[str] = set()
        gets: set[str] = set()
        whole: set[str] = set()
        for identity in self.identities:
            scope = identity.scope
            because = service.visible_because(scope, note)
            if service.visible_because(scope, alive) in ("private", "collection"):
                holder = identity.name
            if because == "collection":
                whole.add(identity.name)
            if because is not None:
                finds.add(identity.name)
            elif service.can_read(scope, note):
                gets.add(identity.name)
        writer = None if self._mem0 else note.effective_owner
        return Reach(holder, frozenset(finds), frozenset(gets), frozenset(whole), writer, note)
