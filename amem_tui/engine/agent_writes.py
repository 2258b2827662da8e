"""The engine's writes as an agent: each names the acting agent, is refused on a
read-only store or a mem0 collection, and goes through the write rule
(:mod:`amem_tui.engine.scope`) before :class:`~amem_tui.engine.notes.NoteWriter`
changes the store.

:class:`AgentWrites` is a part of :class:`~amem_tui.engine.engine.MemoryEngine`, which
provides the settings, the note writer, the agents' scopes and the collections.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from amem_tui.engine import scope as rules
from amem_tui.engine.errors import AmemError, ReadOnlyStore
from amem_tui.engine.formats import mem0

if TYPE_CHECKING:
    from amem_tui.config import Settings
    from amem_tui.engine.collections import CollectionService
    from amem_tui.engine.models import MemoryNote
    from amem_tui.engine.notes import NoteType, NoteWriter
    from amem_tui.engine.scope import AgentScope

READ_ONLY_MESSAGE = "the store is opened read-only (--read-only): writes are off"
#: Actions only a note's owner may take.
OWNER_ACTIONS = frozenset({"publish", "unpublish"})


class AgentWrites:
    """Writing notes as an agent: add, publish, unpublish, update, delete, restore."""

    settings: Settings
    _writer: NoteWriter

    def _scope(self, agent: str | AgentScope) -> AgentScope:
        raise NotImplementedError  # the engine resolves agents

    def collection(self, name: str) -> CollectionService:
        """The service of collection ``name`` (the engine's)."""
        raise NotImplementedError

    def check_writable(self, collection: str | None = None) -> None:
        """Raise :class:`ReadOnlyStore` when writes are off (``--read-only``, or a mem0
        collection, which is only ever read)."""
        if self.settings.read_only:
            raise ReadOnlyStore(READ_ONLY_MESSAGE)
        if collection is not None:
            self.collection(collection).check_writable()

    def write_refusal(
        self, agent: str | AgentScope, note: MemoryNote, action: str
    ) -> AmemError | None:
        """The refusal ``action`` on ``note`` would meet, or None: an app can say why an
        action is off before trying it. ``publish`` and ``unpublish`` are the owner's."""
        if self.settings.read_only:
            return ReadOnlyStore(READ_ONLY_MESSAGE)
        if mem0.is_mem0_note(note):
            return ReadOnlyStore(f"note {note.id} is a mem0 memory: {mem0.READ_ONLY_REASON}")
        scope = self._scope(agent)
        if action in OWNER_ACTIONS:
            return rules.owner_denial(scope.agent, note, action)
        return rules.write_denial(scope.agent, note, action)

    def _writable_scope(self, agent: str | AgentScope) -> tuple[CollectionService, AgentScope]:
        self.check_writable()
        scope = self._scope(agent)
        self.check_writable(scope.collection)
        return self.collection(scope.collection), scope

    def add(
        self,
        agent: str | AgentScope,
        content: str,
        *,
        shared: bool = False,
        tags: Sequence[str] = (),
        keywords: Sequence[str] = (),
        context: str = "",
        category: str = "General",
        note_type: NoteType = "memory",
        links: Sequence[str] = (),
        extra: dict[str, object] | None = None,
    ) -> MemoryNote:
        """Write a note: private by default, shared only when asked.

        Content under 10 characters (trimmed) is rejected; time-bound wording is
        flagged ``ephemeral``; content identical to a note already in the same
        scope returns that note instead of writing a copy.
        """
        service, scope = self._writable_scope(agent)
        return self._writer.add(
            service,
            scope,
            content,
            shared=shared,
            tags=tags,
            keywords=keywords,
            context=context,
            category=category,
            note_type=note_type,
            links=links,
            extra=extra,
        )

    def add_shared(self, agent: str | AgentScope, content: str, **fields: Any) -> MemoryNote:
        """Write a note to the shared scope (Mode A only)."""
        return self.add(agent, content, shared=True, **fields)

    def publish(self, agent: str | AgentScope, note_id: str) -> MemoryNote:
        """Make a private note shared, in place: owner kept, ``writers=[owner]``."""
        service, scope = self._writable_scope(agent)
        return self._writer.publish(service, scope, note_id)

    def unpublish(self, agent: str | AgentScope, note_id: str) -> MemoryNote:
        """Make a shared note private to its owner again (owner only)."""
        service, scope = self._writable_scope(agent)
        return self._writer.unpublish(service, scope, note_id)

    def update(
        self,
        agent: str | AgentScope,
        note_id: str,
        *,
        content: str | None = None,
        tags: Sequence[str] | None = None,
        expected_hash: str | None = None,
    ) -> MemoryNote:
        """Change a note's content and/or tags (write rule); new content is re-embedded.

        ``expected_hash`` guards against overwriting a change made elsewhere since
        the note was loaded.
        """
        service, scope = self._writable_scope(agent)
        return self._writer.update(
            service, scope, note_id, content=content, tags=tags, expected_hash=expected_hash
        )

    def delete(self, agent: str | AgentScope, note_id: str) -> MemoryNote:
        """Soft-delete a note (``is_active=false``); nothing is ever hard-deleted."""
        service, scope = self._writable_scope(agent)
        return self._writer.set_active(service, scope, note_id, active=False)

    def restore(self, agent: str | AgentScope, note_id: str) -> MemoryNote:
        """Undo a soft delete."""
        service, scope = self._writable_scope(agent)
        return self._writer.set_active(service, scope, note_id, active=True)

    def put_notes(
        self,
        collection: str,
        notes: Sequence[MemoryNote],
        vectors: Sequence[Sequence[float] | None] | None = None,
    ) -> None:
        """Store notes exactly as given (demo data, imports); embeds where no vector is given.

        This bypasses the per-agent rules on purpose: it is how whole stores are
        loaded, never how an agent writes.
        """
        self.check_writable(collection)
        self._writer.put(self.collection(collection), notes, vectors)
