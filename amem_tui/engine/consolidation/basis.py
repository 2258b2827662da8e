"""A consolidation plan and the notes it was made from, so that applying it later
applies exactly what was previewed, or nothing.

A plan is a function of the agent's candidates (its private, active ``memory``
notes): ``ConsolidationPlan`` keeps a digest of each one's payload as it was
read. Before a plan is applied the candidates are read again; if any was modified
or deleted, or a new one appeared, the plan is refused with what changed
(``PlanOutdated``) instead of carrying out merges
nobody saw.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import amem_tui.engine.scope as rules
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.run_records import ConsolidationRun
from amem_tui.engine.scope import AgentScope

#: Payloads of the notes a plan was made from, by note id: each one's digest.
Basis = Mapping[str, str]


def digest(payload: Mapping[str, Any]) -> str:
    """A short fingerprint of a stored payload (key order does not matter)."""
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def is_candidate(scope: AgentScope, note: MemoryNote) -> bool:
    """True for a note consolidation of ``scope`` may merge (whatever its vector)."""
    return not note.malformed and rules.may_consolidate(scope, note)


def current_basis(service: CollectionService, scope: AgentScope) -> dict[str, str]:
    """The digests of the agent's candidates as stored now (no vectors read)."""
    if not service.exists():
        return {}
    found: dict[str, str] = {}
    for point in service.store.scan(scope.collection, rules.consolidation_filter(scope)):
        if is_candidate(scope, MemoryNote.from_payload(point.id, point.payload)):
            found[point.id] = digest(point.payload)
    return found


@dataclass(frozen=True)
class PlanChanges:
    """What moved among an agent's candidates between a plan and now."""

    modified: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    added: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.modified or self.deleted or self.added)


def changes_since(
    service: CollectionService, scope: AgentScope, planned: Basis, now: Basis
) -> PlanChanges:
    """The candidates modified, deleted (or soft-deleted) and added since ``planned``.

    A planned note that is no longer a candidate but still active (published, say) was
    modified; one that is gone or soft-deleted was deleted.
    """
    modified = [i for i in planned if i in now and now[i] != planned[i]]
    gone = [i for i in planned if i not in now]
    added = sorted(i for i in now if i not in planned)
    deleted: list[str] = []
    if gone:
        stored = {p.id: p.payload for p in service.store.retrieve(scope.collection, gone)}
        for note_id in gone:
            payload = stored.get(note_id)
            if payload is None or payload.get("is_active") is False:
                deleted.append(note_id)
            else:
                modified.append(note_id)
    return PlanChanges(tuple(sorted(modified)), tuple(sorted(deleted)), tuple(added))


@dataclass(frozen=True)
class ConsolidationPlan:
    """A consolidation run planned and not yet applied: what a preview shows, and what
    ``AgentView.apply`` carries out, exactly, or refuses if its notes changed since.

    ``run`` is the planned run (``status`` ``planned``, ``dry_run`` true; its id is the
    id the applied run is recorded under). ``basis`` holds the digest of every
    candidate the plan was made from.
    """

    run: ConsolidationRun
    basis: Basis = field(default_factory=dict, repr=False)

    @property
    def id(self) -> str:
        """The run id this plan is applied (and recorded) under."""
        return self.run.id

    @property
    def agent(self) -> str:
        """Whose notes it merges."""
        return self.run.agent

    @property
    def threshold(self) -> float:
        """The cosine similarity it was planned with."""
        return self.run.threshold
