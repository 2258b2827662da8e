"""Writing notes: the input checks every write passes, and the write path itself.

Every write names the acting agent and goes through the scope rules of
:mod:`amem_tui.engine.scope`: a new note is private unless published, a change
needs the write rule (owner, ``writers``, or ``writers`` holding ``"*"``), and
``owner`` never changes. Writes are one store call per note, so a fault leaves a
note wholly before or after.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Literal

import amem_tui.engine.scope as rules
from amem_tui.engine.clock import Timekeeper
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.errors import ConfigError, InvalidInput, PermissionDenied, StaleNote
from amem_tui.engine.models import EvolutionEntry, MemoryNote, content_hash
from amem_tui.engine.reading import read_note
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.store.base import SparseVector, StoredPoint
from amem_tui.engine.store.filters import Filter, Match

NoteType = Literal["memory", "knowledge"]

MIN_CONTENT_CHARS = 10
#: The largest content a note may hold (UTF-8 bytes). Well under a Qdrant server's
#: request limit even with an update's old content kept in the evolution history.
MAX_CONTENT_BYTES = 4 * 1024 * 1024
#: Notes stored in one call when whole stores are loaded.
PUT_BATCH = 256
_TIME_BOUND = re.compile(
    r"\b(today|tonight|tomorrow|yesterday|this (morning|afternoon|evening|week|month|weekend)|"
    r"next (week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"right now|currently|at the moment|for now|until \S+|till \S+|deadline|"
    r"in \d+ (minutes?|hours?|days?))\b",
    re.IGNORECASE,
)


# ---------------------------------------------------------------- input checks
def check_text(value: object, what: str) -> str:
    """``value`` if it is text that can be stored, else :class:`InvalidInput`.

    Any character is kept literally (markup, escapes, control characters), but
    unpaired surrogates (undecodable bytes from a command line) cannot be stored
    as UTF-8, so they are refused here rather than failing half-way in a backend.
    """
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be text, got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInput(
            f"{what} is not valid Unicode text (unpaired surrogate at position {exc.start}; "
            "was it made from bytes that are not UTF-8?)"
        ) from None
    return value


def check_texts(values: object, what: str) -> list[str]:
    """A list of storable strings (tags, keywords, links), else :class:`InvalidInput`."""
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise InvalidInput(f"{what} must be a list of text, got {type(values).__name__}")
    return [check_text(v, f"each of {what}") for v in values]


def check_content(content: object) -> str:
    """Note content that passes the quality gate, else :class:`InvalidInput`."""
    text = check_text(content, "content")
    size = len(text.encode("utf-8"))
    if size > MAX_CONTENT_BYTES:
        raise InvalidInput(
            f"content is {size} bytes; a note holds at most {MAX_CONTENT_BYTES} bytes"
        )
    stripped = text.strip()
    if len(stripped) < MIN_CONTENT_CHARS:
        raise InvalidInput(
            f"quality gate: a note needs at least {MIN_CONTENT_CHARS} characters "
            "of content (after trimming)"
        )
    if not any(ch.isprintable() and not ch.isspace() for ch in stripped):
        raise InvalidInput("quality gate: the content has no visible characters")
    return text


def compile_patterns(patterns: Sequence[str]) -> list[re.Pattern[str]]:
    """The write-time content check's patterns, compiled (case-insensitive)."""
    compiled = []
    for pattern in patterns:
        try:
            compiled.append(re.compile(pattern, re.IGNORECASE))
        except re.error as exc:
            raise ConfigError(
                f"low-quality pattern {pattern!r} is not a valid regex: {exc}"
            ) from None
    return compiled


def shared_readers_refusal() -> InvalidInput:
    """Why a new shared note takes no readers (publishing gives it every agent)."""
    return InvalidInput(
        "a shared note is read by every agent (readers ['*']): "
        "choose readers for a private note, or publish it"
    )


def shared_note_readers_refusal(note_id: str) -> InvalidInput:
    """Why the readers of shared note ``note_id`` cannot be chosen."""
    return InvalidInput(
        f"note {note_id} is shared: every agent reads it (readers ['*']); "
        "unpublish it first to choose its readers"
    )


def is_time_bound(content: str) -> bool:
    """True for wording that will go stale (the ``ephemeral`` flag)."""
    return bool(_TIME_BOUND.search(content))


# ------------------------------------------------------------------- the writer
Change = Callable[[AgentScope, MemoryNote], bool]


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
            service.ensure()
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
            vector = service.embed_documents([content])[0]
            service.store.upsert(service.name, [StoredPoint(note.id, note.to_payload(), vector)])
        return note

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
        change: Change,
        owner_only: bool = False,
    ) -> MemoryNote:
        """Load, check the write rule, apply ``change``, and store (re-embedding if it
        returns True)."""
        with self.lock:
            note = read_note(service, scope, note_id)
            if owner_only:
                rules.require_owner(scope.agent, note, action)
            else:
                rules.require_write(scope.agent, note, action)
            owner_before = note.effective_owner
            note.materialize_access()
            reembed = change(scope, note)
            if note.owner != owner_before:  # pragma: no cover - a bug, never a user error
                raise PermissionDenied(scope.agent, note.id, action, "owner never changes")
            if reembed:
                vector = service.embed_documents([note.content])[0]
                service.store.upsert(
                    service.name, [StoredPoint(note.id, note.to_payload(), vector)]
                )
            else:
                service.store.set_payload(service.name, note.id, note.to_payload())
        return note

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
            rules.apply_access(note, rules.shared_access(owner))
            self.record(note, "publish", scope.agent)
            return False

        return self.modify(service, scope, note_id, "publish", change, owner_only=True)

    def unpublish(self, service: CollectionService, scope: AgentScope, note_id: str) -> MemoryNote:
        """Make a shared note private to its owner again (owner only)."""

        def change(scope: AgentScope, note: MemoryNote) -> bool:
            if not note.is_shared:
                raise InvalidInput(f"note {note.id} is not shared")
            owner = note.effective_owner or scope.agent
            rules.apply_access(note, rules.private_access(owner))
            self.record(note, "unpublish", scope.agent)
            return False

        return self.modify(service, scope, note_id, "unpublish", change, owner_only=True)

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
        return self.modify(service, scope, note_id, action, change, owner_only=readers is not None)

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

        return self.modify(service, scope, note_id, "restore" if active else "delete", change)

    def put(
        self,
        service: CollectionService,
        notes: Sequence[MemoryNote],
        vectors: Sequence[Sequence[float] | None] | None = None,
        *,
        sparse: Sequence[dict[str, SparseVector]] | None = None,
        sparse_slots: Sequence[str] = (),
    ) -> None:
        """Store notes exactly as given (demo data, imports); embeds where no vector is given.

        ``sparse`` gives each note's named sparse vectors; a collection created here
        gets ``sparse_slots``. This bypasses the per-agent rules on purpose: it is how
        whole stores are loaded, never how an agent writes.
        """
        if not notes:
            return
        given: list[Sequence[float] | None] = (
            list(vectors) if vectors is not None else [None] * len(notes)
        )
        missing = [i for i, vec in enumerate(given) if vec is None]
        extras = list(sparse) if sparse is not None else [{} for _ in notes]
        with self.lock:
            service.ensure(sparse_slots)
            if missing:
                embedded = service.embed_documents([notes[i].content for i in missing])
                for row, i in enumerate(missing):
                    given[i] = embedded[row]
            points = [
                StoredPoint(note.id, note.to_payload(), list(vec or []), extra)
                for note, vec, extra in zip(notes, given, extras, strict=True)
            ]
            for start in range(0, len(points), PUT_BATCH):
                service.store.upsert(service.name, points[start : start + PUT_BATCH])
