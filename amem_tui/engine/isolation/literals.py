"""Text a regular expression cannot match without: a few literal strings, one of which
is in every string it matches. Checking for them (a substring test) tells most lines
of prose apart from the ones the expression could match, before it is run. Where every
match starts with one of a few strings, the expression is then tried only where one
of them stands, which says the same as searching the whole line.

The analysis is conservative: where it cannot tell (a character class with ranges, an
optional part, a look-around, a back-reference, flags it does not know), it gives no
literals, which means "run the expression". It reads the expression as Python's own
parser does, so what it says holds for the expression as compiled.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: Flags the analysis understands (others: no literals).
_KNOWN = re.IGNORECASE | re.UNICODE | re.ASCII | re.MULTILINE | re.DOTALL | re.VERBOSE
#: Branches kept apart at most (more: the literals would not tell much).
_MOST = 256


@dataclass(frozen=True)
class Gate:
    """What a line must hold for a pattern to match it: for each set of ``needs``, one of
    its strings (no sets: nothing known), compared in lower case when ``fold`` (the
    pattern ignores case)."""

    needs: tuple[frozenset[str], ...]
    fold: bool
    #: The pattern, and what each of its matches starts with (None: not known): where
    #: the needs are met, it is tried only where one of these stands.
    pattern: re.Pattern[str] | None = None
    starts: frozenset[str] | None = None
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
            target = lowered
        else:
            target = line
        for finder in self._finders:
            if finder.search(target) is None:
                return False
        if self.pattern is None or not self.starts:
            return True
        # A pattern that tries many branches at every position is slow to search; tried
        # only where a match could start, it says the same.
        for start in self.starts:
            at = target.find(start)
            while at >= 0:
                if self.pattern.match(line, at) is not None:
                    return True
                at = target.find(start, at + 1)
        return False


@dataclass(frozen=True)
class Gates:
    """What a line must hold for any of several patterns to match it (a plugin's): one
    search per kind of comparison first, over the most telling set of each pattern,
    then each pattern's gate."""

    gates: tuple[Gate, ...]
    _quick: tuple[re.Pattern[str] | None, re.Pattern[str] | None] | None = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        quick: tuple[re.Pattern[str] | None, re.Pattern[str] | None] | None = None
        if self.gates and all(g.needs for g in self.gates):
            firsts = [(g.fold, _best(list(g.needs)) or frozenset()) for g in self.gates]
            quick = (_finder(firsts, False), _finder(firsts, True))
        object.__setattr__(self, "_quick", quick)

    def open(self, line: str, lowered: str | None) -> bool:
        """Whether one of the patterns could match ``line`` (see ``Gate.open``)."""
        if self._quick is not None:
            plain, folded = self._quick
            near = plain is not None and plain.search(line) is not None
            if not near and folded is not None:
                near = lowered is None or folded.search(lowered) is not None
            if not near:
                return False
        return any(g.open(line, lowered) for g in self.gates)


def _finder(firsts: list[tuple[bool, frozenset[str]]], fold: bool) -> re.Pattern[str] | None:
    strings = sorted({s for f, need in firsts if f is fold for s in need})
    return re.compile("|".join(map(re.escape, strings))) if strings else None


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
        starts = _starts(list(parsed), c)
    except Exception:  # a form the analysis does not know: run the pattern
        return Gate((), fold)
    if fold:  # kept only where lower case says what the pattern's case folding does
        found = [_lower(need) for need in found if _ascii(need)]
        if starts is not None:  # a line compared in lower case is plain ASCII
            starts = frozenset(s for s in starts if _may_be_ascii(s)) or None
        starts = None if starts is None or not _ascii(starts) else _lower(starts)
    return Gate(tuple(found), fold, pattern, starts)


def _may_be_ascii(text: str) -> bool:
    """Whether a literal matches some plain ASCII text when case is ignored."""
    return all(
        ch.isascii() or any(re.fullmatch(re.escape(ch), chr(a), re.IGNORECASE) for a in range(128))
        for ch in text
    )


def _lower(need: frozenset[str]) -> frozenset[str]:
    return frozenset(s.lower() for s in need)


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


def _starts(items: list[tuple[Any, Any]], c: Any) -> frozenset[str] | None:
    """What every match of a sequence starts with (None: not known): the strings its
    leading items match exactly, then what the next item starts with. Zero-width items
    (anchors, look-arounds) before the first character are passed over."""
    found = frozenset({""})
    for op, arg in items:
        if found == {""} and (op is c.AT or op in (c.ASSERT, c.ASSERT_NOT)):
            continue
        exact = _exact(op, arg, c)
        if exact is not None and len(found) * len(exact) <= _MOST:
            found = frozenset(a + b for a in found for b in exact)
            continue
        first = _first(op, arg, c)
        if first is not None and len(found) * len(first) <= _MOST:
            found = frozenset(a + b for a in found for b in first)
        break
    return found if all(found) else None


def _exact_sequence(items: list[tuple[Any, Any]], c: Any) -> frozenset[str] | None:
    """Every string a sequence matches, when they are few (None: not known)."""
    found = frozenset({""})
    for op, arg in items:
        exact = _exact(op, arg, c)
        if exact is None or len(found) * len(exact) > _MOST:
            return None
        found = frozenset(a + b for a in found for b in exact)
    return found


def _exact(op: Any, arg: Any, c: Any) -> frozenset[str] | None:
    """Every string an item matches, when they are few (None: not known)."""
    if op is c.LITERAL:
        return frozenset({chr(arg)})
    if op is c.IN:
        chars = [chr(a) for o, a in arg if o is c.LITERAL]
        return frozenset(chars) if len(chars) == len(arg) else None
    if op is c.SUBPATTERN:
        _, add_flags, del_flags, inner = arg
        return None if add_flags or del_flags else _exact_sequence(list(inner), c)
    if op is c.BRANCH:
        return _all_of([_exact_sequence(list(branch), c) for branch in arg[1]])
    if op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
        low, high, inner = arg
        once = _exact_sequence(list(inner), c)
        if once is None or high > 3:
            return None
        counts = [frozenset({""})]
        for _ in range(high):
            counts.append(frozenset(a + b for a in counts[-1] for b in once))
        return _all_of(counts[low:])
    return None


def _first(op: Any, arg: Any, c: Any) -> frozenset[str] | None:
    """What every match of an item starts with (None: not known)."""
    if op is c.SUBPATTERN:
        _, add_flags, del_flags, inner = arg
        return None if add_flags or del_flags else _starts(list(inner), c)
    if op is c.BRANCH:
        return _all_of([_starts(list(branch), c) for branch in arg[1]])
    if op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
        low, _, inner = arg
        return _starts(list(inner), c) if low >= 1 else None
    return None


def _all_of(parts: Sequence[frozenset[str] | None]) -> frozenset[str] | None:
    out: set[str] = set()
    for part in parts:
        if part is None or len(out) + len(part) > _MOST:
            return None
        out |= part
    return frozenset(out)
