"""The first words of each note's content, by index position.

They let a saved index answer a query before the store is open (the store's shard
takes seconds to load at a million notes, and a hit is worth little without its
words). Kept as one UTF-8 block of bytes, not as strings: a Python string per note
adds an object's overhead to every text. A saved block is mapped from the
index file and read only where a hit is; snippets appended since go to one growing
buffer.
"""

from __future__ import annotations

from array import array

import numpy as np

#: Characters of a note's content kept (a wide pane's content column, and then some).
SNIPPET_CHARS = 120
#: Positions gathered per step when the column is reordered (bounds the scratch arrays).
_GATHER_STEP = 8192
_NO_BYTES = np.zeros(0, dtype=np.uint8)
_NO_ENDS = np.zeros(0, dtype=np.int64)


def snippet_of(content: str) -> str:
    """What the column keeps of ``content``: its first words, on one line."""
    return " ".join(content[: SNIPPET_CHARS * 2].split())[:SNIPPET_CHARS].rstrip()


class SnippetColumn:
    """Snippets by position: a saved block (UTF-8, where each ends), then appended ones."""

    def __init__(self) -> None:
        self._block = _NO_BYTES
        self._ends = _NO_ENDS
        self._added = bytearray()
        self._added_ends = array("q")

    @classmethod
    def saved(cls, block: np.ndarray, ends: np.ndarray) -> SnippetColumn:
        """The column of a saved block: UTF-8 bytes back to back, and where each ends."""
        column = cls()
        column._block, column._ends = block, ends
        return column

    def __len__(self) -> int:
        return len(self._ends) + len(self._added_ends)

    def __getitem__(self, position: int) -> str:
        saved = len(self._ends)
        if position < 0 or position >= len(self):
            raise IndexError(position)
        if position < saved:
            start = int(self._ends[position - 1]) if position else 0
            raw = self._block[start : int(self._ends[position])].tobytes()
        else:
            at = position - saved
            start = self._added_ends[at - 1] if at else 0
            raw = bytes(self._added[start : self._added_ends[at]])
        return raw.decode("utf-8", errors="replace")

    def append(self, content: str) -> None:
        """Give the next position the snippet of ``content``."""
        self._added += snippet_of(content).encode("utf-8")
        self._added_ends.append(len(self._added))

    def copy(self) -> SnippetColumn:
        """A copy to append to (the saved block is shared: it never changes)."""
        twin = SnippetColumn.saved(self._block, self._ends)
        twin._added = bytearray(self._added)
        twin._added_ends = array("q", self._added_ends)
        return twin

    def encoded(self) -> tuple[np.ndarray, np.ndarray]:
        """Every snippet as one UTF-8 block, and where each ends (for saving)."""
        if not self._added_ends:
            return self._block, self._ends
        added = np.frombuffer(bytes(self._added), dtype=np.uint8)
        shift = int(self._ends[-1]) if len(self._ends) else 0
        ends = np.frombuffer(self._added_ends, dtype=np.int64) + shift
        return np.concatenate([self._block, added]), np.concatenate([self._ends, ends])

    def take(self, positions: np.ndarray) -> SnippetColumn:
        """A column of the snippets at ``positions``, in that order."""
        block, ends = self.encoded()
        starts = np.concatenate([[0], ends[:-1]]).astype(np.int64) if len(ends) else _NO_ENDS
        chosen = np.asarray(positions, dtype=np.int64)
        sizes = ends[chosen] - starts[chosen]
        new_ends = np.cumsum(sizes, dtype=np.int64)
        out = np.empty(int(new_ends[-1]) if len(new_ends) else 0, dtype=np.uint8)
        # Each step's bytes, gathered by one index array (no loop over notes).
        for first in range(0, len(chosen), _GATHER_STEP):
            part = slice(first, first + _GATHER_STEP)
            step_sizes = sizes[part]
            if not step_sizes.sum():
                continue
            out_start = int(new_ends[first] - sizes[first])
            step_starts = np.cumsum(step_sizes) - step_sizes
            offsets = np.repeat(starts[chosen[part]] - step_starts, step_sizes)
            gathered = block[offsets + np.arange(int(step_sizes.sum()))]
            out[out_start : out_start + len(gathered)] = gathered
        return SnippetColumn.saved(out, new_ends)
