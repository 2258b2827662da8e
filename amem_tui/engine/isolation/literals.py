"""Text a regular expression cannot match without: a few literal strings, one of which
is in every string it matches. Checking for them (a substring test) tells most lines
of prose apart from the ones the expression could match, before it is run.

The analysis is conservative: where it cannot tell (a character class with ranges, an
optional part, a look-around, a back-reference, flags it does not know), it gives no
literals, which means "run the expression". It reads the expression as Python's own
parser does, so what it says holds for the expression as compiled.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from typing import Any

#: Flags the analysis understands (others: no literals).
_KNOWN = re.IGNORECASE | re.UNICODE | re.ASCII | re.MULTILINE | re.DOTALL | re.VERBOSE
#: Branches kept apart at most (more: the literals would not tell much).
_MOST = 64


@dataclass(frozen=True)
class Gate:
    """What a line must hold for a pattern to match it: for each set of ``needs``, one of
    its strings (no sets: nothing known), compared in lower case when ``fold`` (the
    pattern ignores case)."""

    needs: tuple[frozenset[str], ...]
    fold: bool
    _finders: tuple[re.Pattern[str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        finders = tuple(
            re.compile("|".join(re.escape(s) for s in sorted(need))) for need in self.needs
        )
        object.__setattr__(self, "_finders", finders)

    def open(self, line: str, lowered: str | None) -> bool:
        """Whether the pattern could match ``line`` (``lowered``: the line in lower case
        when it is plain ASCII, else None: case folding beyond ASCII is left to the
        pattern)."""
        if self.fold:
            if lowered is None:
                return True
            line = lowered
        return all(finder.search(line) is not None for finder in self._finders)


def gate(pattern: re.Pattern[str]) -> Gate:
    """The literal strings every match of ``pattern`` holds one of, per set."""
    fold = bool(pattern.flags & re.IGNORECASE)
    if pattern.flags & ~_KNOWN:
        return Gate((), fold)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import sre_constants as c
            import sre_parse

        parsed: Any = sre_parse.parse(pattern.pattern, pattern.flags)
        found = _sequence(list(parsed), c)
    except Exception:  # a form the analysis does not know: run the pattern
        return Gate((), fold)
    if fold:  # kept only where lower case says what the pattern's case folding does
        found = [frozenset(s.lower() for s in need) for need in found if _ascii(need)]
    return Gate(tuple(found), fold)


def _ascii(need: frozenset[str]) -> bool:
    return all(s.isascii() for s in need)


def _sequence(items: list[tuple[Any, Any]], c: Any) -> list[frozenset[str]]:
    """What a sequence needs: each run of literals, and what each item needs (every item
    of a sequence is part of every match)."""
    out: list[frozenset[str]] = []
    run = ""
    for op, arg in [*items, (None, None)]:
        if op is c.LITERAL:
            run += chr(arg)
            continue
        if run:
            out.append(frozenset({run}))
            run = ""
        if op is None:
            break
        out += _item(op, arg, c)
    return [need for need in out if need and all(need) and len(need) <= _MOST]


def _item(op: Any, arg: Any, c: Any) -> list[frozenset[str]]:
    if op is c.SUBPATTERN:
        _, add_flags, del_flags, inner = arg
        return [] if add_flags or del_flags else _sequence(list(inner), c)
    if op is c.BRANCH:
        return _union([_best(_sequence(list(branch), c)) for branch in arg[1]])
    if op is c.IN:
        chars = [chr(a) for o, a in arg if o is c.LITERAL]
        if len(chars) != len(arg):  # a range, a category or a negation: anything
            return []
        return [frozenset(chars)]
    if op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
        low, _, inner = arg
        return _sequence(list(inner), c) if low >= 1 else []
    if op is getattr(c, "ATOMIC_GROUP", None):
        return _sequence(list(arg), c)
    return []  # anything else matches unknown text, or none (look-arounds, anchors)


def _union(parts: list[frozenset[str] | None]) -> list[frozenset[str]]:
    out: set[str] = set()
    for part in parts:
        if part is None:
            return []
        out |= part
    return [frozenset(out)]


def _best(needs: list[frozenset[str]]) -> frozenset[str] | None:
    """The most telling set: the one whose shortest string is longest."""
    return max(needs, key=lambda need: min(map(len, need)), default=None)
