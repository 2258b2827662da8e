"""Counted nouns and cut lists, for the sentences the engine writes (a problem's why, a
run's messages) and the front ends' own lines alike: ``1 note``, ``2 notes``,
``a, b and 3 more``; and JSON text made safe to print, for the export's lines and the
CLI's answers alike."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["first_of", "json_escaped", "plural"]

#: Nouns whose plural is not the noun and an "s".
_PLURALS = {
    "memory": "memories",
    "entry": "entries",
    "is": "are",
    "was": "were",
    "info": "info",
}


def plural(count: int, noun: str, plural_form: str | None = None) -> str:
    """``count`` and ``noun``, in the plural unless the count is one: ``1 group``,
    ``2 groups``, ``0 memories``."""
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {plural_form or _PLURALS.get(noun, noun + 's')}"


def first_of(names: Sequence[str], most: int, total: int = 0, sep: str = ", ") -> str:
    """The first ``most`` names, then `` and N more`` (of ``total``, if more)."""
    more = max(total, len(names)) - most
    return sep.join(names[:most]) + (f" and {more} more" if more > 0 else "")


def json_escaped(text: str, keep: str = "") -> str:
    """JSON ``text`` with every character a terminal or a line reader would obey but
    those in ``keep`` written as a ``\\u`` escape, which decodes to the same value
    (``json.dumps`` leaves DEL, C1 controls, bidi overrides, U+2028/U+2029 and lone
    surrogates raw)."""
    return "".join(ch if ch.isprintable() or ch in keep else _escape(ch) for ch in text)


def _escape(ch: str) -> str:
    code = ord(ch)
    if code > 0xFFFF:  # JSON spells astral characters as a surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"
