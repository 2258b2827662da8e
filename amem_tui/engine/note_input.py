"""The input checks every write passes: text that can be stored, content that passes the
quality gate, and the flags a note's wording earns (``ephemeral``).

Kept apart from the write path (``amem_tui.engine.notes``) so that a check can be
read, and tested, without a store.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from amem_tui.engine.errors import ConfigError, InvalidInput

MIN_CONTENT_CHARS = 10
#: The largest content a note may hold (UTF-8 bytes). Well under a Qdrant server's
#: request limit even with an update's old content kept in the evolution history.
MAX_CONTENT_BYTES = 4 * 1024 * 1024
_TIME_BOUND = re.compile(
    r"\b(today|tonight|tomorrow|yesterday|this (morning|afternoon|evening|week|month|weekend)|"
    r"next (week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"right now|currently|at the moment|for now|until \S+|till \S+|deadline|"
    r"in \d+ (minutes?|hours?|days?))\b",
    re.IGNORECASE,
)


def check_text(value: object, what: str) -> str:
    """``value`` if it is text that can be stored, else ``InvalidInput``.

    Any character is kept literally (markup, escapes, control characters), but
    unpaired surrogates (undecodable bytes from a command line) cannot be stored
    as UTF-8, so they are refused here rather than failing half-way in a backend.
    """
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be text, got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInput(
            f"{what} is not valid Unicode text (unpaired surrogate at position {exc.start}; "
            "was it made from bytes that are not UTF-8?)"
        ) from None
    return value


def check_texts(values: object, what: str) -> list[str]:
    """A list of storable strings (tags, keywords, links), else ``InvalidInput``."""
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise InvalidInput(f"{what} must be a list of text, got {type(values).__name__}")
    return [check_text(v, f"each of {what}") for v in values]


def check_content(content: object) -> str:
    """Note content that passes the quality gate, else ``InvalidInput``."""
    text = check_text(content, "content")
    size = len(text.encode("utf-8"))
    if size > MAX_CONTENT_BYTES:
        raise InvalidInput(
            f"content is {size} bytes; a note holds at most {MAX_CONTENT_BYTES} bytes"
        )
    stripped = text.strip()
    if len(stripped) < MIN_CONTENT_CHARS:
        raise InvalidInput(
            f"quality gate: a note needs at least {MIN_CONTENT_CHARS} characters "
            "of content (after trimming)"
        )
    if not any(ch.isprintable() and not ch.isspace() for ch in stripped):
        raise InvalidInput("quality gate: the content has no visible characters")
    return text


def compile_patterns(patterns: Sequence[str]) -> list[re.Pattern[str]]:
    """The write-time content check's patterns, compiled (case-insensitive)."""
    compiled = []
    for pattern in patterns:
        try:
            compiled.append(re.compile(pattern, re.IGNORECASE))
        except re.error as exc:
            raise ConfigError(
                f"low-quality pattern {pattern!r} is not a valid regex: {exc}"
            ) from None
    return compiled


def shared_readers_refusal() -> InvalidInput:
    """Why a new shared note takes no readers (publishing gives it every agent)."""
    return InvalidInput(
        "a shared note is read by every agent (readers ['*']): "
        "choose readers for a private note, or publish it"
    )


def shared_note_readers_refusal(note_id: str) -> InvalidInput:
    """Why the readers of shared note ``note_id`` cannot be chosen."""
    return InvalidInput(
        f"note {note_id} is shared: every agent reads it (readers ['*']); "
        "unpublish it first to choose its readers"
    )


def is_time_bound(content: str) -> bool:
    """True for wording that will go stale (the ``ephemeral`` flag)."""
    return bool(_TIME_BOUND.search(content))
