"""Counted figures kept per collection while its revision stays the same.

A collection's counts change only when it is written; its revision (how many writes
it has had through amem-tui stores, ``NoteStore.revision``) says when. So each
part of a collection's figures (the first counts, the rest, what gets recalled) is kept
under the collection's name and revision and the agents that read it, and asked of the
store again only once the revision moves: the overview opened a second time, a report
asked in stages, and following (where one written collection is counted again, the
others kept) cost nothing for what did not change. A store that cannot tell a
revision (a server other tools write) is always asked.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from amem_tui.engine.stats.figures import Readers

T = TypeVar("T")

#: Entries kept at most (parts of collections at their latest revisions).
MOST_KEPT = 256


class CountCache:
    """Parts of collections' figures, by (part, collection, revision, readers, how)."""

    def __init__(self) -> None:
        self._kept: dict[Hashable, tuple[Any, list[dict[str, Any]]]] = {}
        self._lock = threading.Lock()

    def part(
        self,
        key: Hashable | None,
        readers: Readers,
        fields: Sequence[str],
        count: Callable[[], T],
    ) -> T:
        """``count()``'s answer and the ``fields`` it set on each reader's figures: kept
        under ``key`` and set again from there while the key holds (``key`` None: never
        kept)."""
        if key is not None:
            with self._lock:
                hit = self._kept.get(key)
            if hit is not None:
                answer, values = copy.deepcopy(hit)
                for (_, figures), kept in zip(readers, values, strict=True):
                    for name, value in kept.items():
                        setattr(figures, name, value)
                return answer  # type: ignore[no-any-return]
        answer = count()
        if key is not None:
            values = [{name: getattr(figures, name) for name in fields} for _, figures in readers]
            with self._lock:
                if len(self._kept) >= MOST_KEPT:
                    self._kept.clear()
                self._kept[key] = copy.deepcopy((answer, values))
        return answer
