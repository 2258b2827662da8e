"""The slim record the note index keeps per note: what the read rules and the ranking need.

A full note costs about 2.5 KiB in memory; the record keeps its access fields and the
few fields openclaw-amem's heat boost reads, a tenth of that. Pages and hits read
their notes from the store.
"""

from __future__ import annotations

from amem_tui.engine.models import MemoryNote


class AccessRecord:
    """The access and ranking fields of one note (satisfies ``NoteAccess``, ``HeatFields``)."""

    __slots__ = (
        "access_key",
        "agent_id",
        "is_active",
        "last_accessed",
        "malformed",
        "note_type",
        "readers",
        "retrieval_count",
        "timestamp",
        "user_id",
    )

    def __init__(
        self,
        *,
        agent_id: str | None,
        readers: tuple[str, ...] | None,
        is_active: bool | None,
        malformed: bool,
        note_type: str = "memory",
        retrieval_count: int = 0,
        last_accessed: str = "",
        timestamp: str = "",
        user_id: str | None = None,
    ) -> None:
        self.agent_id = agent_id
        self.readers = readers
        self.is_active = is_active
        self.malformed = malformed
        self.note_type = note_type
        self.retrieval_count = retrieval_count
        self.last_accessed = last_accessed
        self.timestamp = timestamp
        self.user_id = user_id
        #: The fields the read rules judge, together: notes that share them are judged alike.
        self.access_key = (agent_id, readers, is_active, malformed, user_id)

    @property
    def active(self) -> bool:
        """False only for soft-deleted notes; old notes without the field are active."""
        return self.is_active is not False

    @classmethod
    def of(cls, note: MemoryNote) -> AccessRecord:
        """The record of a note as read (the note decides every field's meaning)."""
        return cls(
            agent_id=note.agent_id,
            readers=tuple(note.readers) if note.readers is not None else None,
            is_active=note.is_active,
            malformed=note.malformed,
            note_type=note.note_type,
            retrieval_count=note.retrieval_count,
            last_accessed=note.last_accessed,
            timestamp=note.timestamp,
            user_id=note.user_id,
        )

    def as_tuple(self) -> tuple[object, ...]:
        """Every field, in slot order (for saving and comparing)."""
        return tuple(getattr(self, name) for name in self.__slots__ if name != "access_key")
