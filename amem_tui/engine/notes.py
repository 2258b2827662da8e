"""Writing notes as an agent: add, update, publish, delete, restore, revert.

The input checks every write passes are in ``amem_tui.engine.note_input``. Every
write names the acting agent and goes through the scope rules of
``amem_tui.engine.scope``: a new note is private unless published, a change
needs the write rule (owner, ``writers``, or ``writers`` holding ``"*"``), and
``owner`` never changes. Writes are one store call per note, so a fault leaves a
note wholly before or after. Each write is then kept as a version of its note
(``amem_tui.engine.versions``), with the payload before and after.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import amem_tui.engine.scope as rules
from amem_tui.engine.clock import Timekeeper
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.errors import InvalidInput, PermissionDenied, StaleNote
from amem_tui.engine.models import EvolutionEntry, MemoryNote, content_hash
from amem_tui.engine.note_input import (
    check_content,
    check_text,
    check_texts,
    compile_patterns,
    is_time_bound,
    shared_note_readers_refusal,
    shared_readers_refusal,
)
from amem_tui.engine.reading import read_note
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.store.base import SparseVector, StoredPoint
from amem_tui.engine.store.filters import Filter, Match
from amem_tui.engine.versions import (
    ACCESS_FIELDS,
    RUNTIME_FIELDS,
    Change,
    VersionAction,
    VersionLog,
    changed_fields,
    snapshot,
)

NoteType = Literal["memory", "knowledge"]

#: Notes stored in one call when whole stores are loaded.
PUT_BATCH = 256


Edit = Callable[[AgentScope, MemoryNote], bool]


class NoteWriter:
    """Writes notes as an agent, one store call per note, under one engine-wide lock."""

    def __init__(
        self,
        time: Timekeeper,
        lock: threading.RLock,
        low_quality_patterns: Sequence[str] = (),
    ) -> None:
        self.time = time
        self.lock = lock
        self._suspicious = compile_patterns(low_quality_patterns)

    def looks_low_quality(self, content: str) -> bool:
        """True when content matches the write-time check (instruction-like text).

        Such notes are flagged ``low_quality``, never refused: a person decides.
        """
        return any(p.search(content) for p in self._suspicious)

    def add(
        self,
        service: CollectionService,
        scope: AgentScope,
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
        readers: Sequence[str] = (),
        dedicated: Mapping[str, str] | None = None,
    ) -> MemoryNote:
        """Write a note: private by default, shared only when asked.

        ``readers`` names the agents besides the writer that may read a private note by
        id (``dedicated``: the Mode B agents' collections, where such a reader reads
        nothing). Content identical to an active note already in the same scope
        returns that note instead of writing a copy.
        """
        check_content(content)
        tags, keywords, links = (
            check_texts(tags, "tags"),
            check_texts(keywords, "keywords"),
            check_texts(links, "links"),
        )
        check_text(context, "context")
        check_text(category, "category")
        if note_type not in ("memory", "knowledge"):
            raise InvalidInput(f"note_type must be 'memory' or 'knowledge', got {note_type!r}")
        if shared and not scope.has_shared_scope:
            raise InvalidInput(
                f"agent '{scope.agent}' is Mode B (collection {scope.collection}): "
                "it has no shared scope, so it cannot write shared notes"
            )
        readers = check_texts(readers, "readers")
        if readers:
            if shared:
                raise shared_readers_refusal()
            denial = rules.readers_denial(scope, readers, dedicated or {})
            if denial is not None:
                raise denial
        access = rules.shared_access(scope.agent) if shared else rules.private_access(scope.agent)
        if readers:
            access.readers = rules.chosen_readers(scope.agent, readers)
        digest = content_hash(content)
        with self.lock:
            service.model.ensure()
            existing = self._same_content(service, access.agent_id, digest)
            if existing is not None and readers and existing.readers != access.readers:
                raise InvalidInput(
                    f"note {existing.id} already holds this content; choose its readers "
                    f"with: update {existing.id} --readers …"
                )
            if existing is not None:
                return existing
            now = self.time.now()
            note = MemoryNote.model_validate(
                {
                    "id": self.time.new_id(),
                    "content": content,
                    "keywords": list(keywords),
                    "tags": list(tags),
                    "context": context,
                    "links": list(links),
                    "timestamp": now,
                    "last_accessed": now,
                    "hash": digest,
                    "retrieval_count": 0,
                    "evolution_history": [],
                    "category": category,
                    "note_type": note_type,
                    "topics": [],
                    "pending_merge": False,
                    "evolution_type": "NEW",
                    "conflict": False,
                    "conflicts_with": [],
                    "conflict_reason": "",
                    "conflict_scanned_at": "",
                    "subjects": [],
                    "ephemeral": is_time_bound(content),
                    "low_quality": self.looks_low_quality(content),
                    "is_active": True,
                    "agent_id": access.agent_id,
                    "owner": access.owner,
                    "readers": access.readers,
                    "writers": access.writers,
                    **(extra or {}),
                }
            )
            vector = service.model.embed_documents([content])[0]
            payload = note.to_payload()
            self._keep(service, Change(note.id, "add", scope.agent, None, payload))
            service.store.upsert(service.name, [StoredPoint(note.id, payload, vector)])
        return note

    def _keep(self, service: CollectionService, *changes: Change) -> None:
        """Keep writes as versions of their notes, ahead of writing the notes (a version
        of a write that then fails is left out when versions are read)."""
        VersionLog(service.store).record(service.name, changes, self.time.now())

    def _same_content(
        self, service: CollectionService, agent_id: str, digest: str
    ) -> MemoryNote | None:
        flt = Filter(
            must=(Match("agent_id", agent_id), Match("hash", digest)),
            must_not=(rules.NOT_DELETED,),
        )
        for point in service.store.scroll(service.name, flt, limit=1):
            return service.note(point.id, point.payload)
        return None

    def modify(
        self,
        service: CollectionService,
        scope: AgentScope,
        note_id: str,
        action: str,
        change: Edit,
        owner_only: bool = False,
        *,
        version: VersionAction,
    ) -> MemoryNote:
        """Load, check the write rule, apply ``change``, store (re-embedding if it
        returns True), and keep the write as a ``version`` of the note."""
        with self.lock:
            note = read_note(service, scope, note_id)
            stored = note.to_payload()
            if owner_only:
                rules.require_owner(scope.agent, note, action)
            else:
                rules.require_write(scope.agent, note, action)
            owner_before = note.effective_owner
            note.materialize_access()
            reembed = change(scope, note)
            if note.owner != owner_before:  # pragma: no cover - a bug, never a user error
                raise PermissionDenied(scope.agent, note.id, action, "owner never changes")
            self._keep(service, Change(note.id, version, scope.agent, stored, note.to_payload()))
            self._store(service, note, reembed)
        return note

    @staticmethod
    def _store(service: CollectionService, note: MemoryNote, reembed: bool) -> None:
        if reembed:
            vector = service.model.embed_documents([note.content])[0]
            service.store.upsert(service.name, [StoredPoint(note.id, note.to_payload(), vector)])
        else:
            service.store.set_payload(service.name, note.id, note.to_payload())

    def record(self, note: MemoryNote, action: str, agent: str, **fields: object) -> None:
        """Append an evolution-history entry for a change ``agent`` made."""
        entry = EvolutionEntry.model_validate(
            {"triggeredBy": agent, "triggeredAt": self.time.now(), "action": action, **fields}
        )
        note.evolution_history = [*note.evolution_history, entry]

    # ------------------------------------------------------------- the changes
    def publish(self, service: CollectionService, scope: AgentScope, note_id: str) -> MemoryNote:
        """Make a private note shared, in place: owner kept, ``writers=[owner]``."""

        def change(scope: AgentScope, note: MemoryNote) -> bool:
            if not scope.has_shared_scope:
                raise InvalidInput(
                    f"agent '{scope.agent}' is Mode B: it has no shared scope to publish to"
                )
            if note.is_shared:
                raise InvalidInput(f"note {note.id} is already shared")
            owner = note.effective_owner or scope.agent
            # Kept in the history entry so that unpublish can give them back: a shared
            # note's readers must be ["*"], so the payload itself cannot hold them.
            before = {
                "oldReaders": list(note.readers or []),
                "oldWriters": list(note.writers or []),
            }
            rules.apply_access(note, rules.shared_access(owner))
            self.record(note, "publish", scope.agent, **before)
            return False

        return self.modify(
            service, scope, note_id, "publish", change, owner_only=True, version="publish"
        )

    def unpublish(self, service: CollectionService, scope: AgentScope, note_id: str) -> MemoryNote:
        """Make a shared note private to its owner again (owner only)."""

        def change(scope: AgentScope, note: MemoryNote) -> bool:
            if not note.is_shared:
                raise InvalidInput(f"note {note.id} is not shared")
            owner = note.effective_owner or scope.agent
            readers, writers = access_before_publish(note)
            rules.apply_access(note, rules.unpublished_access(owner, readers, writers))
            self.record(note, "unpublish", scope.agent)
            return False

        return self.modify(
            service, scope, note_id, "unpublish", change, owner_only=True, version="unpublish"
        )

    def update(
        self,
        service: CollectionService,
        scope: AgentScope,
        note_id: str,
        *,
        content: str | None = None,
        tags: Sequence[str] | None = None,
        expected_hash: str | None = None,
        readers: Sequence[str] | None = None,
        dedicated: Mapping[str, str] | None = None,
    ) -> MemoryNote:
        """Change a note's content, tags and/or readers; new content is re-embedded.

        ``readers`` (the owner's alone, as publishing is) replaces the agents besides
        the owner that may read the private note by id; ``[]`` leaves the owner alone.
        ``expected_hash`` guards against overwriting a change made elsewhere since
        the note was loaded.
        """
        if content is None and tags is None and readers is None:
            raise InvalidInput("nothing to update: give new content, tags or readers")

        def change(scope: AgentScope, note: MemoryNote) -> bool:
            # Checked once the write rule has passed: a refusal must never hide behind
            # (or reveal itself through) a length check.
            if content is not None:
                check_content(content)
            new_tags = check_texts(tags, "tags") if tags is not None else None
            if expected_hash is not None and note.hash != expected_hash:
                raise StaleNote(note.id, expected_hash, note.hash)
            if readers is not None:
                self._set_readers(scope, note, check_texts(readers, "readers"), dedicated)
            changed: dict[str, object] = {}
            reembed = False
            if content is not None and content != note.content:
                changed["oldContent"] = note.content
                note.content = content
                note.hash = content_hash(content)
                note.ephemeral = is_time_bound(content)
                if self.looks_low_quality(content):  # flags, never clears another's flag
                    note.low_quality = True
                reembed = True
            if new_tags is not None and list(new_tags) != note.tags:
                changed.update(oldTags=list(note.tags), newTags=list(new_tags))
                note.tags = list(new_tags)
            if changed:  # only what changed is recorded
                self.record(note, "crud_update", scope.agent, **changed)
            return reembed

        # Readers are the owner's to choose, as sharing is: checked before anything else.
        action = "set the readers of" if readers is not None else "update"
        only_readers = readers is not None and content is None and tags is None
        return self.modify(
            service,
            scope,
            note_id,
            action,
            change,
            owner_only=readers is not None,
            version="readers" if only_readers else "update",
        )

    @staticmethod
    def _set_readers(
        scope: AgentScope,
        note: MemoryNote,
        readers: list[str],
        dedicated: Mapping[str, str] | None,
    ) -> None:
        if note.is_shared:
            raise shared_note_readers_refusal(note.id)
        denial = rules.readers_denial(scope, readers, dedicated or {})
        if denial is not None:
            raise denial
        owner = note.effective_owner or scope.agent
        note.readers = rules.chosen_readers(owner, readers)

    def set_active(
        self, service: CollectionService, scope: AgentScope, note_id: str, active: bool
    ) -> MemoryNote:
        """Soft-delete (``active`` False) or restore a note; nothing is ever hard-deleted."""

        def change(scope: AgentScope, note: MemoryNote) -> bool:
            note.is_active = active
            return False

        action: VersionAction = "restore" if active else "delete"
        return self.modify(service, scope, note_id, action, change, version=action)

    def put(
        self,
        service: CollectionService,
        notes: Sequence[MemoryNote],
        vectors: Sequence[Sequence[float] | None] | None = None,
        *,
        sparse: Sequence[dict[str, SparseVector]] | None = None,
        sparse_slots: Sequence[str] = (),
        version: VersionAction | None = None,
        new_notes: bool = False,
    ) -> None:
        """Store notes exactly as given (demo data, imports); embeds where no vector is given.

        ``sparse`` gives each note's named sparse vectors; a collection created here
        gets ``sparse_slots``. ``version`` keeps each write as a version of its note
        (``import``; None for demo data, which stands for what agents wrote), with the
        note it replaced unless ``new_notes`` says none existed. This bypasses the
        per-agent rules on purpose: it is how whole stores are loaded, never how an
        agent writes.
        """
        if not notes:
            return
        given: list[Sequence[float] | None] = (
            list(vectors) if vectors is not None else [None] * len(notes)
        )
        missing = [i for i, vec in enumerate(given) if vec is None]
        extras = list(sparse) if sparse is not None else [{} for _ in notes]
        with self.lock:
            service.model.ensure(sparse_slots)
            if missing:
                embedded = service.model.embed_documents([notes[i].content for i in missing])
                for row, i in enumerate(missing):
                    given[i] = embedded[row]
            points = [
                StoredPoint(note.id, note.to_payload(), list(vec or []), extra)
                for note, vec, extra in zip(notes, given, extras, strict=True)
            ]
            for start in range(0, len(points), PUT_BATCH):
                batch = points[start : start + PUT_BATCH]
                replaced: dict[str, dict[str, Any]] = {}
                if version is not None and not new_notes and service.exists():
                    ids = [p.id for p in batch]
                    replaced = {p.id: p.payload for p in service.store.retrieve(service.name, ids)}
                if version is not None:
                    changes = [
                        Change(p.id, version, None, replaced.get(p.id), p.payload) for p in batch
                    ]
                    VersionLog(service.store).record(
                        service.name, changes, self.time.now(), new_notes=new_notes
                    )
                service.store.upsert(service.name, batch)

    def revert(
        self,
        service: CollectionService,
        scope: AgentScope,
        note_id: str,
        to: int,
        *,
        expected_hash: str | None = None,
    ) -> MemoryNote:
        """Bring a note back to how version ``to`` left it, as a new version (history is
        never rewritten, recall counts are never wound back).

        The write rule applies, and the owner's rule when the revert shares or unshares
        the note or changes its readers; the owner never changes. Refused when the note
        is already so, or when ``to`` is not a recorded version.
        """
        with self.lock:
            note = read_note(service, scope, note_id)
            stored = note.to_payload()
            history = VersionLog(service.store).history(service.name, note_id, stored)
            target = history.version(to)
            count = len(history.versions)
            if target is None:
                raise InvalidInput(
                    f"note {note_id} has no version {to}: its versions are 1 to {count}"
                )
            if not target.recorded or target.after is None:
                raise InvalidInput(
                    f"version {to} of note {note_id} is the note as it is now: nothing to revert"
                )
            wanted = target.after
            changed = changed_fields(snapshot(stored), wanted)
            if set(changed) & set(ACCESS_FIELDS):
                rules.require_owner(scope.agent, note, "revert the sharing of")
            else:
                rules.require_write(scope.agent, note, "revert")
            if expected_hash is not None and note.hash != expected_hash:
                raise StaleNote(note.id, expected_hash, note.hash)
            if not changed:
                raise InvalidInput(f"note {note_id} is already as version {to} left it")
            kept = {key: value for key, value in stored.items() if key in RUNTIME_FIELDS}
            reverted = MemoryNote.from_payload(note_id, {**kept, **wanted})
            if reverted.effective_owner != note.effective_owner:
                raise PermissionDenied(
                    scope.agent,
                    note_id,
                    "revert",
                    f"version {to} has another owner; owner never changes",
                )
            if reverted.is_shared and not scope.has_shared_scope:
                raise InvalidInput(
                    f"agent '{scope.agent}' is Mode B: it has no shared scope to revert to"
                )
            self.record(reverted, "revert", scope.agent, revertedTo=to)
            after = reverted.to_payload()
            self._keep(
                service, Change(note_id, "revert", scope.agent, stored, after, reverted_to=to)
            )
            self._store(service, reverted, reembed="content" in changed)
        return reverted


def access_before_publish(note: MemoryNote) -> tuple[list[str], list[str]]:
    """The readers and writers a shared note had before its last publish by amem-tui
    (recorded in that publish's history entry); nothing when it was shared elsewhere."""
    for entry in reversed(note.evolution_history):
        if entry.action != "publish":
            continue
        kept = entry.model_extra or {}
        return _agents(kept.get("oldReaders")), _agents(kept.get("oldWriters"))
    return [], []


def _agents(value: object) -> list[str]:
    if not isinstance(value, list):
        return []
    return [agent for agent in value if isinstance(agent, str)]
