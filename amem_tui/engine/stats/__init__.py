"""The whole store at a glance: per agent, per week, per owner of the shared scope.

For each agent: its mode and collection, how many notes are private to it, shared by
it, visible to it, soft-deleted, selectively shared (its private notes whose readers
name other agents), legacy (no access fields) and malformed; the notes it wrote per
week; its consolidation runs and what they merged away; what gets recalled (the notes
it sees that searches returned most, and how many no search ever returned:
``recall``). For the shared scope: how much of it each owner wrote.

``counts`` answers from the store's indexes in a blink (malformed points still
``pending``, unless the note index names them); ``scan`` reads every note and
gives every figure exactly. Reading only.
"""

from __future__ import annotations

from amem_tui.engine.stats.counts import count_stats, countable
from amem_tui.engine.stats.figures import (
    AGENT_FIGURES,
    HISTORY_FIGURES,
    SCAN_ONLY,
    UNDATED,
    AgentStats,
    CollectionStats,
    Progress,
    RecalledNote,
    StoreStats,
    week_of,
)
from amem_tui.engine.stats.scan import build_stats

__all__ = [
    "AGENT_FIGURES",
    "HISTORY_FIGURES",
    "SCAN_ONLY",
    "UNDATED",
    "AgentStats",
    "CollectionStats",
    "Progress",
    "RecalledNote",
    "StoreStats",
    "build_stats",
    "count_stats",
    "countable",
    "week_of",
]
