"""Counted nouns, for the sentences the engine writes (a problem's why, a run's
messages) and the front ends' own lines alike: ``1 note``, ``2 notes``."""

from __future__ import annotations

__all__ = ["plural"]

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
