"""The notes marked in a pane: a multi-selection that bulk actions act on.

Only state, no drawing: the pane draws the marks (see ``NotePane._remark``). The
notes are kept as last read, so a bulk action acts on what the user saw, and each is
read again when the listing or follow mode brings a newer copy.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from amem_tui.engine import MemoryNote


class MarkedNotes:
    """Marked notes by id, in the order they were marked."""

    def __init__(self) -> None:
        self._notes: dict[str, MemoryNote] = {}

    def __contains__(self, note_id: object) -> bool:
        return note_id in self._notes

    def __len__(self) -> int:
        return len(self._notes)

    def __iter__(self) -> Iterator[str]:
        return iter(self._notes)

    def notes(self) -> list[MemoryNote]:
        """The marked notes, in the order they were marked (as last read)."""
        return list(self._notes.values())

    def toggle(self, note: MemoryNote) -> None:
        """Mark ``note``, or unmark it if it is marked."""
        if self._notes.pop(note.id, None) is None:
            self._notes[note.id] = note

    def toggle_all(self, notes: Sequence[MemoryNote]) -> None:
        """Mark every one of ``notes``, or unmark them all if all are marked."""
        if notes and all(note.id in self._notes for note in notes):
            for note in notes:
                del self._notes[note.id]
        else:
            for note in notes:
                self._notes.setdefault(note.id, note)

    def drop(self, ids: Iterable[str] | None = None) -> list[str]:
        """Unmark ``ids`` (all when None); returns the ids that were marked."""
        gone = list(self._notes) if ids is None else [i for i in ids if i in self._notes]
        for note_id in gone:
            del self._notes[note_id]
        return gone

    def read_again(self, by_id: Mapping[str, MemoryNote], whole: bool = False) -> None:
        """Take the newer copies of marked notes in ``by_id``; with ``whole`` (``by_id``
        is every note of the listing) a marked note missing from it is gone."""
        for note_id in list(self._notes):
            if note_id in by_id:
                self._notes[note_id] = by_id[note_id]
            elif whole:
                del self._notes[note_id]
