"""Pydantic models of the notes the engine reads and writes, and a page of them.

A note read from Qdrant and written back unchanged gives the same payload:
unknown keys are kept, absent fields stay absent, and values of the wrong type
are kept as they were (and reported in ``problems``) instead of being dropped.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

SHARED = "shared"
EVERYONE = "*"

#: Fields the engine understands; anything else in a payload is kept verbatim.
NOTE_FIELDS = (
    "content",
    "keywords",
    "tags",
    "context",
    "links",
    "timestamp",
    "last_accessed",
    "agent_id",
    "hash",
    "retrieval_count",
    "evolution_history",
    "category",
    "note_type",
    "topics",
    "pending_merge",
    "evolution_type",
    "conflict",
    "conflicts_with",
    "conflict_reason",
    "conflict_scanned_at",
    "subjects",
    "ephemeral",
    "low_quality",
    "is_active",
    "owner",
    "readers",
    "writers",
)


class NoteAccess(Protocol):
    """What the read rules look at: a full note, or the slim record a cache keeps."""

    @property
    def agent_id(self) -> str | None:
        """``main``, ``dev``, …, or ``shared``; None when missing or of the wrong type."""
        ...

    @property
    def readers(self) -> Sequence[str] | None:
        """The readers as stored (None when absent)."""
        ...

    @property
    def active(self) -> bool:
        """False only for a soft-deleted note."""
        ...

    @property
    def malformed(self) -> bool:
        """True for a point that cannot be trusted as a note."""
        ...

    @property
    def user_id(self) -> str | None:
        """The mem0 ``user_id`` of a mem0 memory (None for an openclaw-amem note)."""
        ...


class HeatFields(Protocol):
    """What openclaw-amem's recency/heat boost looks at."""

    @property
    def note_type(self) -> str:
        """``memory`` or ``knowledge``."""
        ...

    @property
    def retrieval_count(self) -> int:
        """Times the note was returned by the agent's own searches."""
        ...

    @property
    def last_accessed(self) -> str:
        """ISO time of the last retrieval (may be empty)."""
        ...

    @property
    def timestamp(self) -> str:
        """ISO creation time (may be empty)."""
        ...


def content_hash(content: str) -> str:
    """The md5 of a note's content, as openclaw-amem stores it in ``hash``."""
    return hashlib.md5(content.encode("utf-8")).hexdigest()


class EvolutionEntry(BaseModel):
    """One entry of a note's evolution history (camelCase keys, as stored)."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    triggeredBy: str = ""
    triggeredAt: str = ""
    action: str = ""
    oldContext: str | None = None
    newContext: str | None = None
    oldTags: list[str] | None = None
    newTags: list[str] | None = None
    oldContent: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The entry as stored: only keys that were present or set."""
        return self.model_dump(exclude_unset=True)


def parse_evolution_history(raw: Any) -> list[EvolutionEntry]:
    """Read ``evolution_history`` from a JSON string (current) or a list (legacy)."""
    if raw is None or raw == "":
        return []
    value = json.loads(raw) if isinstance(raw, str) else raw
    if not isinstance(value, list):
        raise ValueError("evolution_history is not a list")
    return [EvolutionEntry.model_validate(item) for item in value]


class MemoryNote(BaseModel):
    """An A-MEM note with every openclaw-amem payload field.

    Optional fields default to ``None`` when absent so that writing the note back
    does not invent keys the original payload did not have.
    """

    model_config = ConfigDict(extra="allow", validate_assignment=True)

    id: str
    content: str = ""
    keywords: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    context: str = ""
    links: list[str] = Field(default_factory=list)
    timestamp: str = ""
    last_accessed: str = ""
    agent_id: str | None = None
    hash: str = ""
    retrieval_count: int = 0
    evolution_history: list[EvolutionEntry] = Field(default_factory=list)
    category: str = "General"
    note_type: Literal["memory", "knowledge"] = "memory"
    topics: list[str] = Field(default_factory=list)
    pending_merge: bool = False
    evolution_type: str = ""
    conflict: bool = False
    conflicts_with: list[str] = Field(default_factory=list)
    conflict_reason: str = ""
    conflict_scanned_at: str = ""
    subjects: list[str] = Field(default_factory=list)
    ephemeral: bool = False
    low_quality: bool = False
    is_active: bool | None = None
    owner: str | None = None
    readers: list[str] | None = None
    writers: list[str] | None = None

    # Bookkeeping that is never written to the store.
    _invalid: dict[str, Any] = PrivateAttr(default_factory=dict)
    _problems: list[str] = PrivateAttr(default_factory=list)
    _history_as_read: tuple[Any, list[dict[str, Any]]] | None = PrivateAttr(default=None)

    # ----------------------------------------------------------------- reading
    @classmethod
    def from_payload(cls, point_id: str | int, payload: dict[str, Any] | None) -> MemoryNote:
        """Build a note from a stored payload without ever failing.

        A field of the wrong type is kept aside verbatim (so writing the note
        back preserves it) and named in ``problems``.
        """
        data: dict[str, Any] = dict(payload or {})
        invalid: dict[str, Any] = {}
        problems: list[str] = []
        history_as_read = None
        if "evolution_history" in data:
            try:
                raw_history = data["evolution_history"]
                data["evolution_history"] = parse_evolution_history(raw_history)
                history_as_read = (
                    raw_history,
                    [entry.to_dict() for entry in data["evolution_history"]],
                )
            except (ValueError, ValidationError, TypeError):
                invalid["evolution_history"] = data.pop("evolution_history")
                problems.append("evolution_history is not a readable list")
        if "id" in data:
            invalid["id"] = data.pop("id")
        data["id"] = str(point_id)
        for _ in range(len(NOTE_FIELDS) + 1):
            try:
                # Strict: a stored "false" or 1 is not coerced into a bool (nor "5"
                # into an int), so a wrong type is reported and written back as it was.
                note = cls.model_validate(data, strict=True)
                break
            except ValidationError as exc:
                bad = {str(err["loc"][0]) for err in exc.errors() if err["loc"]}
                bad &= set(data)
                if not bad:
                    raise
                for field in sorted(bad):
                    invalid[field] = data.pop(field)
                    problems.append(f"{field} has the wrong type ({type(invalid[field]).__name__})")
        else:  # pragma: no cover - every round removes at least one field
            raise RuntimeError("payload could not be read")
        note._invalid = invalid
        note._history_as_read = history_as_read
        if not isinstance(note.content, str) or not note.content.strip():
            problems.append("content is missing or empty")
        if note.agent_id is None or note.agent_id == "":
            problems.append("agent_id is missing")
        note._problems = problems
        return note

    # ----------------------------------------------------------------- writing
    def to_payload(self) -> dict[str, Any]:
        """The payload to store: present and changed fields, unknown keys kept."""
        payload: dict[str, Any] = dict(self._invalid)
        dumped = self.model_dump(exclude_unset=True, exclude={"id", "evolution_history"})
        payload.update(dumped)
        if "evolution_history" in self.model_fields_set:
            entries = [entry.to_dict() for entry in self.evolution_history]
            if self._history_as_read is not None and self._history_as_read[1] == entries:
                payload["evolution_history"] = self._history_as_read[0]
            else:
                # Compact separators, as openclaw-amem's JSON.stringify writes them.
                payload["evolution_history"] = json.dumps(
                    entries, ensure_ascii=False, separators=(",", ":")
                )
        if self.model_extra:
            payload.update(self.model_extra)
        payload.pop("id", None)
        if "id" in self._invalid:
            payload["id"] = self._invalid["id"]
        return payload

    def touch(self, *fields: str) -> None:
        """Mark fields as set so they are written, even if equal to the default."""
        for field in fields:
            self._invalid.pop(field, None)
            self.__pydantic_fields_set__.add(field)

    # ----------------------------------------------------------- derived facts
    @property
    def active(self) -> bool:
        """False only for soft-deleted notes; old notes without the field are active."""
        return self.is_active is not False

    @property
    def is_shared(self) -> bool:
        """True when the note carries the explicit shared marker."""
        return self.agent_id == SHARED

    @property
    def legacy(self) -> bool:
        """True when access fields are absent and derived from ``agent_id``."""
        return self.owner is None or self.readers is None or self.writers is None

    @property
    def user_id(self) -> str | None:
        """The ``user_id`` of a mem0 memory's view (None for an openclaw-amem note)."""
        value = (self.model_extra or {}).get("user_id")
        return value if isinstance(value, str) and value.strip() else None

    @property
    def problems(self) -> list[str]:
        """What is malformed about this point (empty for a well-formed note)."""
        return list(self._problems)

    def replace_problems(self, problems: list[str]) -> None:
        """Say what is malformed in a format's own terms (a view of a foreign payload)."""
        self._problems = list(problems)

    @property
    def malformed(self) -> bool:
        """True when the point lacks an agent id or content, or has wrong types."""
        return bool(self._problems)

    @property
    def effective_owner(self) -> str | None:
        """The owner, derived from ``agent_id`` for legacy notes."""
        if self.owner:
            return self.owner
        if self.agent_id and self.agent_id != SHARED:
            return self.agent_id
        return None

    @property
    def effective_readers(self) -> list[str]:
        """The readers, derived from ``agent_id`` for legacy notes."""
        if self.readers is not None:
            return list(self.readers)
        if self.agent_id == SHARED:
            return [EVERYONE]
        return [self.agent_id] if self.agent_id else []

    @property
    def effective_writers(self) -> list[str]:
        """The writers, derived from the owner for legacy notes."""
        if self.writers is not None:
            return list(self.writers)
        owner = self.effective_owner
        return [owner] if owner else []

    def materialize_access(self) -> None:
        """Write derived access fields explicitly (done before modifying a legacy note)."""
        owner = self.effective_owner
        if self.owner is None and owner is not None:
            self.owner = owner
        if self.readers is None:
            self.readers = self.effective_readers
        if self.writers is None:
            self.writers = self.effective_writers
        if self.is_active is None:
            self.is_active = True

    def _extra_text(self, *keys: str) -> str:
        extra = self.model_extra or {}
        for key in keys:
            value = extra.get(key)
            if isinstance(value, str) and value:
                return value
        return ""

    @property
    def effective_timestamp(self) -> str:
        """``timestamp``, else a camelCase or mem0-style creation time found in the payload."""
        return self.timestamp or self._extra_text("createdAt", "created_at")

    @property
    def effective_last_accessed(self) -> str:
        """``last_accessed``, else its camelCase (or ``updated_at``) spelling."""
        return self.last_accessed or self._extra_text("lastAccessed", "updatedAt", "updated_at")

    def created_at(self) -> datetime | None:
        """The creation time (any spelling), if it is a valid ISO string."""
        return parse_time(self.effective_timestamp)


def parse_time(value: str | None) -> datetime | None:
    """Parse an ISO timestamp (with ``Z`` or an offset); None when absent or invalid."""
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


class NotePage(BaseModel):
    """One page of a listing, with the total the filter matches."""

    total: int
    offset: int
    notes: list[MemoryNote]
