"""The ids of a note index's positions, kept as saved until one is asked for.

A saved index holds its ids as one block of UTF-8 text, an id per line, and where each
id ends. Turning them all into strings is a visible share of a one-shot search that
needs ten, so an id is decoded when it is asked for (or all at once, by one split, when
many are); ids appended since are plain strings.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

#: Asked for more ids than this at once, the whole block is decoded (one split).
_DECODE_ALL_FROM = 2048
_NO_BYTES = np.zeros(0, dtype=np.uint8)
_NO_ENDS = np.zeros(0, dtype=np.int64)


class IdColumn:
    """Note ids by position: those saved (decoded as asked), then those appended."""

    def __init__(self, ids: Iterable[str] = ()) -> None:
        # (block, ends, appended) replaced as one: a search in another thread may be
        # reading while ``many`` decodes the block.
        self._state: tuple[np.ndarray, np.ndarray, list[str]] = (_NO_BYTES, _NO_ENDS, list(ids))

    @classmethod
    def saved(cls, block: np.ndarray, ends: np.ndarray) -> IdColumn:
        """The ids of a saved block (``encoded``): UTF-8 bytes, an id per line, and
        where each id ends in them."""
        column = cls()
        column._state = (block, ends, [])
        return column

    def __len__(self) -> int:
        _, ends, appended = self._state
        return len(ends) + len(appended)

    def __getitem__(self, position: int) -> str:
        block, ends, appended = self._state
        if position >= len(ends):
            return appended[position - len(ends)]
        if position < 0:
            raise IndexError(position)
        start = int(ends[position - 1]) + 1 if position else 0
        return block[start : int(ends[position])].tobytes().decode("utf-8")

    def many(self, positions: Sequence[int]) -> list[str]:
        """The ids at ``positions``, in that order."""
        if len(positions) > _DECODE_ALL_FROM:
            self._decode_all()
            _, ends, decoded = self._state
            if not len(ends):  # every id is a string now: plain list look-ups
                return [decoded[p] for p in positions]
        return [self[p] for p in positions]

    def append(self, note_id: str) -> None:
        """Give the next position this id."""
        self._state[2].append(note_id)

    def copy(self) -> IdColumn:
        """A copy to append to (the saved block is shared: it never changes)."""
        twin = IdColumn()
        block, ends, appended = self._state
        twin._state = (block, ends, list(appended))
        return twin

    def encoded(self) -> tuple[np.ndarray, np.ndarray]:
        """Every id as one UTF-8 block, an id per line (no id holds a line break: point
        ids are UUIDs or numbers), and where each id ends."""
        block, ends, appended = self._state
        if not appended:
            return block, ends
        self._decode_all()
        ids = self._state[2]
        joined = "\n".join(ids)
        data = joined.encode("utf-8")
        sizes = map(len, ids) if len(data) == len(joined) else (len(i.encode()) for i in ids)
        ends = np.cumsum(np.fromiter(sizes, np.int64, len(ids)) + 1) - 1
        return np.frombuffer(data, dtype=np.uint8), ends

    def _decode_all(self) -> None:
        block, ends, appended = self._state
        if len(ends):
            saved = block.tobytes().decode("utf-8").split("\n")
            self._state = (_NO_BYTES, _NO_ENDS, saved + appended)
