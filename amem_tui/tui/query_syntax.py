"""The search box's parameter words: ``subject:NAME``, ``topics:A,B`` and ``limit:N``.

They are openclaw-amem's memory_search parameters (``subject``, ``topicsFilter``,
``limit``) typed in the box: ``subject:alice deploy freeze`` searches "deploy freeze"
among the notes about alice or about nobody; ``topics:ops,ci runbook`` keeps the
knowledge notes that hold both topics; ``limit:20 deploy`` asks for 20 matches where
the agent's own search returns its default 5 (the limit changes the ranking, as it
does for the agent). A word is a parameter only with a value after its colon (for
``limit:``, a whole number from 1); anything else stays in the query.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

SUBJECT = "subject:"
TOPICS = ("topics:", "topic:")
LIMIT = "limit:"
#: The most matches ``limit:`` asks for (a larger number is taken as this).
LIMIT_MOST = 500


@dataclass(frozen=True)
class TypedQuery:
    """A query as typed, split into the text searched and its filters."""

    text: str
    subject: str | None = None
    topics: tuple[str, ...] = ()
    #: The matches asked for (None: the agent's own search's default).
    limit: int | None = None

    @property
    def filtered(self) -> bool:
        """True when a filter word was typed."""
        return self.subject is not None or bool(self.topics)

    def described(self) -> str:
        """The filters and the limit in words, for the status line (empty without)."""
        parts = []
        if self.subject is not None:
            parts.append(f"about {self.subject} or nobody")
        if self.topics:
            parts.append(f"knowledge notes with topics {', '.join(self.topics)}")
        if self.limit is not None:
            parts.append(f"limit {self.limit}")
        return " · ".join(parts)


def as_typed(
    text: str, subject: str | None = None, topics: Sequence[str] = (), limit: int | None = None
) -> str:
    """A query, its filters and its limit as the box takes them (``parse_query`` reads
    it back)."""
    words = [f"{SUBJECT}{subject}"] if subject is not None else []
    if topics:
        words.append(f"{TOPICS[0]}{','.join(topics)}")
    if limit is not None:
        words.append(f"{LIMIT}{limit}")
    return " ".join([*words, text])


def parse_query(typed: str) -> TypedQuery:
    """``typed`` split into the text to search and its parameter words."""
    words: list[str] = []
    subject: str | None = None
    topics: list[str] = []
    limit: int | None = None
    for word in typed.split():
        lowered = word.lower()
        if lowered.startswith(SUBJECT) and len(word) > len(SUBJECT):
            subject = word[len(SUBJECT) :]
            continue
        prefix = next((p for p in TOPICS if lowered.startswith(p)), None)
        if prefix is not None and len(word) > len(prefix):
            topics += [t for t in word[len(prefix) :].split(",") if t]
            continue
        number = word[len(LIMIT) :]
        if lowered.startswith(LIMIT) and number.isascii() and number.isdigit() and int(number):
            limit = min(int(number), LIMIT_MOST)
            continue
        words.append(word)
    if subject is None and not topics and limit is None:
        return TypedQuery(typed)  # searched exactly as typed
    return TypedQuery(" ".join(words), subject, tuple(topics), limit)
