"""openclaw-amem's memory_search filters applied to a search: the rules are in
``amem_tui.engine.scope.search_filters``; this only puts them where the search
reads notes (the dense query, the keyword selection, the walk over links, the top
matches)."""

from __future__ import annotations

import numpy as np

import amem_tui.engine.scope as rules
from amem_tui.engine.errors import InvalidInput
from amem_tui.engine.index import Selection
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.search.space import SearchSpace
from amem_tui.engine.search_results import SearchResult
from amem_tui.engine.store.filters import Filter


def check_format(space: SearchSpace) -> None:
    """Refuse the filters on a mem0 collection: the mem0 plugin's search has neither."""
    if not space.filters.empty and space.own.format == "mem0":
        raise InvalidInput(
            "subject and topics are openclaw-amem's memory_search filters; the mem0 "
            "plugin's memory_search has neither"
        )


def dense_filter(space: SearchSpace) -> Filter:
    """What the agent's dense search looks in: its read filter, narrowed to the subject."""
    flt = space.own.read_filter(space.scope)
    subject = space.filters.subject
    return flt if subject is None else Filter(must=(flt, rules.subject_filter(subject)))


def about_subject(space: SearchSpace, chosen: Selection) -> Selection:
    """The notes of ``chosen`` a search about the subject sees (``chosen`` itself when
    no subject is asked). The store answers which notes name the subject or nobody."""
    subject = space.filters.subject
    if subject is None:
        return chosen
    own = space.own
    ids = [p.id for p in own.store.scan(own.name, dense_filter(space), fields=("subjects",))]
    index = chosen.index
    wanted = np.zeros(len(chosen.mask), dtype=bool)
    positions = index.positions_of(ids)
    wanted[positions[positions >= 0]] = True
    wanted &= chosen.mask
    kept = chosen.positions[wanted[chosen.positions]]
    average = float(index.lengths[kept].mean()) if len(kept) else 0.0
    return Selection(index, kept, wanted, chosen.generation, average)


def walks_to(space: SearchSpace, note: MemoryNote) -> bool:
    """True when the walk over links may reach ``note``: it names the subject or nobody."""
    return rules.about(note.subjects, space.filters.subject)


def keep_topics(space: SearchSpace, result: SearchResult) -> None:
    """Drop the top matches ``topicsFilter`` leaves out (the notes found through links
    stay, as openclaw-amem walks from its matches before it filters them)."""
    wanted = space.filters.topics
    if not wanted:
        return
    result.hits = [
        hit
        for hit in result.hits
        if hit.via == "link" or rules.holds_topics(hit.note.note_type, hit.note.topics, wanted)
    ]
