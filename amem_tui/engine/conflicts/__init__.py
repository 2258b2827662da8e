"""The contradiction desk: the notes openclaw-amem flagged as contradicting each other,
read as pairs, and a person's decision on each, recorded so it can be undone.

``flags`` says what the flags are and what settling them leaves (so that amem's
nightly sweep does not raise a settled pair again); ``pairs`` reads flagged notes
as pairs and dangling flags; ``settle`` plans a decision as a run of compare-and-set
changes; ``desk`` is one agent's desk (``engine.agent(name).conflicts``).
"""

from __future__ import annotations

from amem_tui.engine.conflicts.desk import KEEPS, ConflictDesk, PairKeep
from amem_tui.engine.conflicts.flags import FLAG_FIELDS, is_flagged, settled_flags
from amem_tui.engine.conflicts.pairs import (
    ConflictList,
    ConflictPair,
    ConflictSide,
    DanglingFlag,
    GonePartner,
    gather,
)
from amem_tui.engine.conflicts.settle import Settlement

__all__ = [
    "FLAG_FIELDS",
    "KEEPS",
    "ConflictDesk",
    "ConflictList",
    "ConflictPair",
    "ConflictSide",
    "DanglingFlag",
    "GonePartner",
    "PairKeep",
    "Settlement",
    "gather",
    "is_flagged",
    "settled_flags",
]
