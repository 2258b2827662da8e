"""openclaw-amem's memory_search filters: the person a search is about (``subject``)
and the topics its knowledge notes must hold (``topicsFilter``). Pure rules.

As its ``searchMemory`` applies them (amem-core ``memory.ts``, ``storage.ts``):

- ``subject``: the search, its keyword ranking and its walk over links see only the
  notes whose ``subjects`` holds that name (exactly, as a keyword match), or that name
  nobody (``subjects`` missing or empty: a fact about the world or the agent). The
  number of dense candidates is still counted over every note the agent may search.
- ``topics``: of the top matches, a ``knowledge`` note is kept only when its
  ``topics`` hold every topic asked (case-insensitively); any other note passes. The
  matches are not refilled, and the notes found through links are not filtered.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from amem_tui.engine.errors import InvalidInput
from amem_tui.engine.store.filters import Empty, Filter, Match

#: The note type whose topics ``topicsFilter`` checks.
KNOWLEDGE = "knowledge"


@dataclass(frozen=True)
class SearchFilters:
    """memory_search's ``subject`` (None: no person scoping) and ``topicsFilter``."""

    subject: str | None = None
    topics: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        """True when neither filter is asked for."""
        return self.subject is None and not self.topics


NO_FILTERS = SearchFilters()


def search_filters(subject: str | None, topics: Iterable[str] | None) -> SearchFilters:
    """The filters as asked, checked: a subject is a name, topics are words."""
    if subject is not None and not isinstance(subject, str):
        raise InvalidInput("the subject must be a name")
    wanted = tuple(topics or ())
    if any(not isinstance(t, str) or not t.strip() for t in wanted):
        raise InvalidInput("each topic must be a non-empty word")
    return SearchFilters(subject, tuple(t.strip() for t in wanted))


def subject_filter(subject: str) -> Filter:
    """The notes about ``subject`` or about nobody, as a query."""
    return Filter(should=(Match("subjects", subject), Empty("subjects")))


def about(subjects: Sequence[str] | None, subject: str | None) -> bool:
    """True when a note with these ``subjects`` is in a search about ``subject``."""
    if subject is None or not subjects:
        return True
    return subject in subjects


def holds_topics(note_type: str, topics: Sequence[str], wanted: Sequence[str]) -> bool:
    """True when a top match stays under ``topicsFilter``: it is not a knowledge note,
    or its topics hold every wanted one (case-insensitively)."""
    if not wanted or note_type != KNOWLEDGE:
        return True
    held = {t.lower() for t in topics}
    return all(t.lower() in held for t in wanted)
