"""Point ids as Qdrant takes and returns them: unsigned integers or UUIDs.

Every backend and every cache compares ids in one canonical text form, so an id read
back from any store matches the id it was written with.
"""

from __future__ import annotations

import uuid


def qdrant_id(text: str) -> str | int:
    """An id as Qdrant takes it: an unsigned integer, or the UUID text as given."""
    if isinstance(text, str) and text.isdigit():
        return int(text)
    return text


def valid_id(text: str) -> bool:
    """True for an id Qdrant accepts: an unsigned integer or a UUID."""
    if text.isdigit():
        return True
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True


def canonical_id(raw: object) -> str:
    """A point id as stores return it: a decimal integer or a lowercase hyphenated UUID."""
    text = str(raw)
    if text.isdigit():
        return str(int(text))
    try:
        return str(uuid.UUID(text))
    except ValueError:
        return text


def store_order(text: str) -> tuple[int, int, str]:
    """Where Qdrant's scroll puts a point id: integers first (by value), then UUIDs."""
    if text.isdigit():
        return (0, int(text), "")
    return (1, 0, text)
