"""Text copied from one note into another, found without comparing every pair: the same
words (case and spacing aside), or a long run of words in a row.

Each text readable beyond its writer is indexed once by its words and by its word
shingles (``SHINGLE`` words in a row, with where they stand). A run of ``n`` words
in a private note spans ``n - SHINGLE + 1`` shingles, so looking up every that-many-th
shingle of the private note is sure to hit any such run; each hit is then grown word by
word to its full length. A shingle found in more than ``COMMON`` indexed texts is
boilerplate (a phrase of a template, a signature) and pairs nothing on its own: the
report says how many there were.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

#: Words in a row that count as a long shared run.
LONG_RUN = 12
#: A private note shorter than ``LONG_RUN`` words counts as copied when all its
#: words appear in a row elsewhere, if it has at least this many.
SHORTEST = 6
#: Words per shingle (the blocking key); at most ``SHORTEST``.
SHINGLE = 6
#: Above this many indexed texts holding it, a shingle is boilerplate.
COMMON = 32

_WORD = re.compile(r"\w+")
#: For an ASCII text: each byte folded to lower case, and any byte that is no word
#: character (``\w`` is ``[A-Za-z0-9_]`` in ASCII) made a space.
_ASCII_WORDS = bytes(
    (b | 0x20 if 65 <= b <= 90 else b) if chr(b).isascii() and (chr(b).isalnum() or b == 95) else 32
    for b in range(256)
)

#: Where a copy was found: the note's text, or a text its evolution history replaced.
Where = Literal["content", "history"]
#: How: the same words, or a long run of them.
How = Literal["exact", "run"]


def words(text: str) -> list[str]:
    """The words of a text, case folded (what is compared)."""
    if text.isascii():  # most notes: the same words, split without the regex engine
        return text.encode().translate(_ASCII_WORDS).decode().split()
    return _WORD.findall(text.casefold())


@dataclass(frozen=True)
class TextMatch:
    """A private text found in an indexed text."""

    source: int
    target: int
    where: Where
    how: How
    #: Words in a row the two texts share.
    run: int


@dataclass
class _Entry:
    target: int
    where: Where
    words: list[str]


#: A posting packs an entry and where its shingle starts: ``entry * _AT + start``.
_AT = 1 << 20


@dataclass
class TextIndex:
    """The indexed texts (notes readable beyond their writer, and their history).

    Most shingles of a store occur once, so a shingle's first posting is a plain number
    and only the shingles met again get a list: a list for each of a million shingles
    would be a million containers for the collector to walk at every full pass.
    """

    _exact: dict[str, list[int]] = field(default_factory=dict)
    _first: dict[str, int] = field(default_factory=dict)
    _more: dict[str, list[int]] = field(default_factory=dict)
    _entries: list[_Entry] = field(default_factory=list)
    _common: set[str] = field(default_factory=set)

    def add(self, target: int, text: str, where: Where = "content") -> None:
        """Index the text of note ``target`` (``history``: a text its history replaced)."""
        found = words(text)
        if len(found) < SHORTEST:
            return
        entry = len(self._entries)
        self._entries.append(_Entry(target, where, found))
        self._exact.setdefault(" ".join(found), []).append(entry)
        seen: set[str] = set()
        for start in range(min(len(found), _AT) - SHINGLE + 1):
            key = " ".join(found[start : start + SHINGLE])
            if key in seen or key in self._common:
                continue
            seen.add(key)
            posting = entry * _AT + start
            first = self._first.setdefault(key, posting)
            if first == posting:
                continue
            more = self._more.setdefault(key, [first])
            more.append(posting)
            if len(more) > COMMON:
                self._common.add(key)
                del self._more[key], self._first[key]

    @property
    def boilerplate(self) -> int:
        """Shingles left out as boilerplate (held by more than ``COMMON`` texts)."""
        return len(self._common)

    def matches(self, source: int, text: str) -> Iterator[TextMatch]:
        """Every indexed text that holds ``text`` (a private note's) word for word, or a
        long run of it: ``LONG_RUN`` words in a row, or all of a shorter note."""
        found = words(text)
        if len(found) < SHORTEST:
            return
        exact = self._exact.get(" ".join(found), [])
        for entry in exact:
            hit = self._entries[entry]
            yield TextMatch(source, hit.target, hit.where, "exact", len(found))
        need = min(LONG_RUN, len(found))
        step = need - SHINGLE + 1
        best: dict[int, int] = dict.fromkeys(exact, len(found))
        first, more = self._first, self._more
        for start in range(0, len(found) - SHINGLE + 1, step):
            key = " ".join(found[start : start + SHINGLE])
            # Most of a private note's shingles are in no indexed text: one look-up.
            posted = first.get(key)
            if posted is None:
                continue
            postings = more.get(key) or (posted,)
            for posting in postings:
                entry, at = divmod(posting, _AT)
                if best.get(entry, 0) >= need:
                    continue
                run = _grow(found, start, self._entries[entry].words, at)
                if run > best.get(entry, 0):
                    best[entry] = run
        for entry, run in best.items():
            if run >= need and entry not in exact:
                hit = self._entries[entry]
                yield TextMatch(source, hit.target, hit.where, "run", run)


def _grow(a: list[str], i: int, b: list[str], j: int) -> int:
    """The length of the run of shared words through ``a[i:i+SHINGLE] == b[j:j+SHINGLE]``."""
    left = 0
    while i - left > 0 and j - left > 0 and a[i - left - 1] == b[j - left - 1]:
        left += 1
    right = SHINGLE
    while i + right < len(a) and j + right < len(b) and a[i + right] == b[j + right]:
        right += 1
    return left + right
