"""The slim record the note index keeps per note: what the read rules and the ranking need.

A full note (its content and every field, as objects) is large in memory; the record
keeps only its access fields and the few fields openclaw-amem's heat boost reads.
Pages and hits read their notes from the store.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from amem_tui.engine.models import MemoryNote


class AccessRecord:
    """The access and ranking fields of one note (satisfies ``NoteAccess``, ``HeatFields``)."""

    __slots__ = (
        "access_key",
        "agent_id",
        "consolidated",
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
        consolidated: bool = False,
    ) -> None:
        self.agent_id = agent_id
        #: openclaw-amem recorded a consolidation in the note's evolution history.
        self.consolidated = consolidated
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
            consolidated=any(e.action == "consolidate" for e in note.evolution_history),
        )


#: The fields the read rules judge: agent, readers, state, malformation, user.
AccessKey = tuple[str | None, tuple[str, ...] | None, bool | None, bool, str | None]


class RecordTable:
    """The records of an index's positions, as columns rather than one object per note.

    Notes share their access fields (a few agents, a few reader lists, two states), so
    each position holds a code into a table of distinct ``AccessKey`` s; the heat
    fields are arrays. A read rule is then asked once per distinct key, and a million
    notes cost a few arrays, not a million objects. A dead position has code -1.
    """

    def __init__(self) -> None:
        self.keys: list[AccessKey] = []
        self._key_code: dict[AccessKey, int] = {}
        self.kinds: list[str] = []
        self._kind_code: dict[str, int] = {}
        #: Per position: its access key's code (-1: dead), its note type's code, and
        #: openclaw-amem's heat fields (retrieval count, last access, creation time).
        self.access = np.zeros(0, dtype=np.int32)
        self.kind = np.zeros(0, dtype=np.int32)
        self.retrievals = np.zeros(0, dtype=np.int64)
        self.last_accessed = np.zeros(0, dtype="S1")
        self.timestamp = np.zeros(0, dtype="S1")
        #: Per position: openclaw-amem recorded a consolidation in its evolution history.
        self.consolidated = np.zeros(0, dtype=bool)

    def __len__(self) -> int:
        return len(self.access)

    # ------------------------------------------------------------- writing
    def add_key(self, key: AccessKey) -> int:
        """The code of ``key`` (added to the table when new)."""
        code = self._key_code.get(key)
        if code is None:
            code = self._key_code[key] = len(self.keys)
            self.keys.append(key)
        return code

    def add_kind(self, kind: str) -> int:
        """The code of a note type (added to the table when new)."""
        code = self._kind_code.get(kind)
        if code is None:
            code = self._kind_code[kind] = len(self.kinds)
            self.kinds.append(kind)
        return code

    def extend(self, records: Sequence[AccessRecord]) -> None:
        """Add positions at the end, one per record."""
        if not records:
            return
        self.access = np.concatenate(
            [self.access, np.asarray([self.add_key(r.access_key) for r in records], np.int32)]
        )
        self.kind = np.concatenate(
            [self.kind, np.asarray([self.add_kind(r.note_type) for r in records], np.int32)]
        )
        self.retrievals = np.concatenate(
            [self.retrievals, np.asarray([r.retrieval_count for r in records], np.int64)]
        )
        self.consolidated = np.concatenate(
            [self.consolidated, np.asarray([r.consolidated for r in records], dtype=bool)]
        )
        self.last_accessed = _joined(self.last_accessed, [r.last_accessed for r in records])
        self.timestamp = _joined(self.timestamp, [r.timestamp for r in records])

    def kill(self, position: int) -> None:
        """The note at ``position`` is gone."""
        self.access[position] = -1

    def take(self, positions: Sequence[int]) -> RecordTable:
        """A table of these positions only, in this order (for compaction)."""
        wanted = np.asarray(positions, dtype=np.int64)
        twin = self.copy()
        twin.access = self.access[wanted]
        twin.kind = self.kind[wanted]
        twin.retrievals = self.retrievals[wanted]
        twin.last_accessed = self.last_accessed[wanted]
        twin.timestamp = self.timestamp[wanted]
        twin.consolidated = self.consolidated[wanted]
        return twin

    def copy(self) -> RecordTable:
        """A copy to change while readers keep using this one."""
        twin = RecordTable()
        twin.keys = list(self.keys)
        twin._key_code = dict(self._key_code)
        twin.kinds = list(self.kinds)
        twin._kind_code = dict(self._kind_code)
        twin.access = self.access.copy()
        twin.kind = self.kind
        twin.retrievals = self.retrievals
        twin.last_accessed = self.last_accessed
        twin.timestamp = self.timestamp
        twin.consolidated = self.consolidated
        return twin

    # ------------------------------------------------------------- reading
    def get(self, position: int) -> AccessRecord | None:
        """The record at ``position`` (None when dead)."""
        code = int(self.access[position])
        if code < 0:
            return None
        agent_id, readers, is_active, malformed, user_id = self.keys[code]
        return AccessRecord(
            agent_id=agent_id,
            readers=readers,
            is_active=is_active,
            malformed=malformed,
            note_type=self.kinds[int(self.kind[position])],
            retrieval_count=int(self.retrievals[position]),
            last_accessed=self.last_accessed[position].decode("utf-8"),
            timestamp=self.timestamp[position].decode("utf-8"),
            user_id=user_id,
            consolidated=bool(self.consolidated[position]),
        )

    def accepted(self, keep: Callable[[AccessRecord], bool]) -> np.ndarray:
        """Per position, True when ``keep`` accepts its record (dead: False). ``keep``
        judges access fields only, so it is asked once per distinct key."""
        verdicts = np.zeros(len(self.keys) + 1, dtype=bool)  # the last slot: dead
        for code, (agent_id, readers, is_active, malformed, user_id) in enumerate(self.keys):
            sample = AccessRecord(
                agent_id=agent_id,
                readers=readers,
                is_active=is_active,
                malformed=malformed,
                user_id=user_id,
            )
            verdicts[code] = bool(keep(sample))
        return verdicts[self.access]  # -1 indexes the last slot


def _joined(column: np.ndarray, texts: list[str]) -> np.ndarray:
    """``column`` with ``texts`` appended, as UTF-8 bytes (the width grows as needed)."""
    added = np.asarray([t.encode("utf-8") for t in texts], dtype=np.bytes_)
    if len(column) == 0:
        return added
    return np.concatenate([column, added])
