"""Flagged notes read as pairs, as a person decides them: both texts side by side.

openclaw-amem flags both notes of a contradiction, each naming the other in
``conflicts_with``. Read as an agent, a pair is listed when the agent may read both
notes (the get rule: owner, ``readers`` or ``"*"``) and both are active. A flag whose
partner is retired (soft-deleted) or missing is a dangling flag; so is ``conflict``
true with no partner named (openclaw-amem's same-day merge sets it so). As an agent,
a partner that is missing and one it may not read look the same (nothing reveals that
an unreadable note exists): they are counted, never named. Store-wide, every flag is
judged with no read rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field, computed_field

import amem_tui.engine.scope as rules
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.store.filters import Empty, Filter, Match
from amem_tui.engine.versions import DiffPart, word_diff

#: Active notes that carry a conflict flag or name a partner.
FLAGGED = Filter(
    should=(Match("conflict", True), Filter(must_not=(Empty("conflicts_with"),))),
    must_not=(rules.NOT_DELETED,),
)
#: Partners looked up per store call.
LOOKUP_BATCH = 256
#: The action a decision takes on each note, as the write rule names it.
SETTLE_ACTION = "settle a conflict of"


class ConflictSide(BaseModel):
    """One note of a flagged pair, with what a person needs to decide."""

    id: str
    content: str
    owner: str | None
    agent_id: str | None
    #: ``shared``: in the shared scope; ``private``: an agent's own (Mode B: its collection).
    scope: Literal["private", "shared"]
    collection: str
    readers: list[str]
    writers: list[str]
    timestamp: str
    active: bool
    category: str
    conflict_reason: str
    conflict_scanned_at: str
    #: Why the agent looking may not settle it (None: it may; store-wide: not judged).
    refusal: str | None = None

    @classmethod
    def of(cls, note: MemoryNote, collection: str, scope: AgentScope | None) -> ConflictSide:
        """The side ``note`` is, with the write rule for ``scope``'s agent."""
        denial = rules.write_denial(scope.agent, note, SETTLE_ACTION) if scope else None
        return cls(
            id=note.id,
            content=note.content,
            owner=note.effective_owner,
            agent_id=note.agent_id,
            scope="shared" if note.is_shared else "private",
            collection=collection,
            readers=note.effective_readers,
            writers=note.effective_writers,
            timestamp=note.effective_timestamp,
            active=note.active,
            category=note.category,
            conflict_reason=note.conflict_reason,
            conflict_scanned_at=note.conflict_scanned_at,
            refusal=denial.message if denial is not None else None,
        )


class ConflictPair(BaseModel):
    """Two active notes flagged as contradicting each other: ``a`` the newer (the later
    statement is usually the current one, as openclaw-amem's review file says)."""

    a: ConflictSide
    b: ConflictSide
    #: Why they were flagged (openclaw-amem's ``conflict_reason``).
    reason: str
    #: When the sweep last read them (the later of the two; "" when never).
    scanned_at: str
    collection: str
    #: Only one of the two names the other (a sweep that stopped half-way).
    one_sided: bool = False

    @computed_field  # type: ignore[prop-decorator]
    @property
    def owners(self) -> list[str | None]:
        """The owners of ``a`` and ``b`` (in its JSON too)."""
        return [self.a.owner, self.b.owner]

    @property
    def ids(self) -> tuple[str, str]:
        """The ids of ``a`` and ``b``."""
        return self.a.id, self.b.id

    def diff(self) -> list[DiffPart]:
        """The words of ``b`` (removed) against those of ``a`` (added), in reading order."""
        return word_diff(self.b.content, self.a.content)

    def to_json(self) -> dict[str, Any]:
        """The pair as JSON: both sides, the reason, when scanned, the owners."""
        return self.model_dump(mode="json")


class GonePartner(BaseModel):
    """A partner a flag names that is not there to decide against."""

    id: str
    state: Literal["retired", "missing"]


class DanglingFlag(BaseModel):
    """A flag on an active note whose partner is gone: retired or missing (as an agent:
    or not readable, counted in ``hidden``), or a flag that names no partner at all."""

    note: ConflictSide
    gone: list[GonePartner] = Field(default_factory=list)
    #: Partners the agent cannot find: missing, or notes it may not read (not named).
    hidden: int = 0
    #: ``conflict`` true and no partner named.
    unpaired: bool = False

    @computed_field  # type: ignore[prop-decorator]
    @property
    def why(self) -> str:
        """The flag's state in words (in its JSON too)."""
        parts = [f"its partner {g.id} is {g.state}" for g in self.gone]
        if self.hidden:
            many = "partners" if self.hidden > 1 else "partner"
            parts.append(f"{self.hidden} {many} gone or not readable here")
        if self.unpaired:
            parts.append("flagged with no partner named")
        return "; ".join(parts)


class ConflictList(BaseModel):
    """Every flagged pair and dangling flag an agent can read (``agent`` None: the
    whole store), newest first."""

    agent: str | None
    collections: list[str]
    pairs: list[ConflictPair] = Field(default_factory=list)
    dangling: list[DanglingFlag] = Field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """``{"agent", "collections", "pairs": [...], "dangling": [...]}``."""
        return self.model_dump(mode="json")


def named_partners(note: MemoryNote) -> list[str]:
    """The ids a note's ``conflicts_with`` names, each once (itself left out)."""
    return list(dict.fromkeys(x for x in note.conflicts_with if x and x != note.id))


def _newer_first(x: MemoryNote, y: MemoryNote) -> tuple[MemoryNote, MemoryNote]:
    tx, ty = x.created_at(), y.created_at()
    if tx is not None and ty is not None and tx != ty:
        return (x, y) if tx > ty else (y, x)
    if (tx is None) != (ty is None):
        return (x, y) if tx is not None else (y, x)
    return (x, y) if x.id < y.id else (y, x)


def make_pair(
    x: MemoryNote, y: MemoryNote, collection: str, scope: AgentScope | None
) -> ConflictPair:
    """The pair two flagged notes make, the newer as ``a``."""
    newer, older = _newer_first(x, y)
    times = [t for t in (newer.conflict_scanned_at, older.conflict_scanned_at) if t]
    named = (older.id in newer.conflicts_with, newer.id in older.conflicts_with)
    return ConflictPair(
        a=ConflictSide.of(newer, collection, scope),
        b=ConflictSide.of(older, collection, scope),
        reason=newer.conflict_reason or older.conflict_reason,
        scanned_at=max(times, default=""),
        collection=collection,
        one_sided=not all(named),
    )


def lookup(service: CollectionService, ids: Iterable[str]) -> dict[str, MemoryNote]:
    """The notes of ``service`` with these ids (missing ones left out)."""
    wanted = sorted(set(ids))
    found: dict[str, MemoryNote] = {}
    for start in range(0, len(wanted), LOOKUP_BATCH):
        for point in service.store.retrieve(service.name, wanted[start : start + LOOKUP_BATCH]):
            found[point.id] = service.note(point.id, point.payload)
    return found


def judge_partners(
    service: CollectionService,
    scope: AgentScope | None,
    note: MemoryNote,
    known: dict[str, MemoryNote],
) -> tuple[list[MemoryNote], DanglingFlag | None]:
    """The partners of ``note`` to decide against, and its dangling flag (None: none)."""
    present: list[MemoryNote] = []
    gone: list[GonePartner] = []
    hidden = 0
    named = named_partners(note)
    for partner_id in named:
        other = known.get(partner_id)
        if other is not None and scope is not None and not service.can_read(scope, other):
            other = None
        if other is None:
            if scope is None:
                gone.append(GonePartner(id=partner_id, state="missing"))
            else:
                hidden += 1
        elif not other.active:
            gone.append(GonePartner(id=partner_id, state="retired"))
        else:
            present.append(other)
    unpaired = note.conflict and not named
    if not (gone or hidden or unpaired):
        return present, None
    side = ConflictSide.of(note, service.name, scope)
    return present, DanglingFlag(note=side, gone=gone, hidden=hidden, unpaired=unpaired)


def find(
    service: CollectionService, scope: AgentScope | None
) -> tuple[list[ConflictPair], list[DanglingFlag]]:
    """The pairs and dangling flags of one collection: as ``scope``'s agent may read
    them, or (None) all of them. Only openclaw-amem collections hold flags."""
    if service.format != "amem" or not service.exists():
        return [], []
    flagged = [n for n in service.notes(FLAGGED) if n.active]
    if scope is not None:
        flagged = [n for n in flagged if service.can_read(scope, n)]
    known = {n.id: n for n in flagged}
    known.update(lookup(service, (p for n in flagged for p in n.conflicts_with if p not in known)))
    pairs: dict[frozenset[str], ConflictPair] = {}
    dangling: list[DanglingFlag] = []
    for note in flagged:
        present, flag = judge_partners(service, scope, note, known)
        for other in present:
            key = frozenset((note.id, other.id))
            if key not in pairs:
                pairs[key] = make_pair(note, other, service.name, scope)
        if flag is not None:
            dangling.append(flag)
    return newest_first(pairs.values()), sorted(
        dangling, key=lambda d: (d.note.timestamp, d.note.id), reverse=True
    )


def newest_first(pairs: Iterable[ConflictPair]) -> list[ConflictPair]:
    """Pairs by their newer note's time, newest first (ties by id)."""
    return sorted(pairs, key=lambda p: (p.a.timestamp, p.a.id, p.b.id), reverse=True)


def gather(
    services: Sequence[CollectionService], scope: AgentScope | None
) -> tuple[list[ConflictPair], list[DanglingFlag]]:
    """``find`` over several collections (each once)."""
    pairs: list[ConflictPair] = []
    dangling: list[DanglingFlag] = []
    seen: set[str] = set()
    for service in services:
        if service.real_name in seen:
            continue
        seen.add(service.real_name)
        found, flags = find(service, scope)
        pairs += found
        dangling += flags
    return newest_first(pairs), dangling
