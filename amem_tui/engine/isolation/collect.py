"""Findings gathered as they are found: one per kind, pair and note read, the private
notes it exposes added as more turn up, then written out with their sentences."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from amem_tui.engine.isolation.findings import (
    SEVERITY_OF,
    Certainty,
    LeakFinding,
    LeakKind,
    LeakPath,
)

_SURE: dict[Certainty, int] = {"possible": 0, "likely": 1, "certain": 2}

#: Writes a finding's ``why`` from what was gathered.
Why = Callable[["Gathered"], str]


@dataclass
class Gathered:
    """A finding being gathered."""

    kind: LeakKind
    from_agent: str | None
    to_agent: str | None
    first: str | None
    collection: str | None
    path: LeakPath
    certainty: Certainty
    why: Why
    others: dict[str, None] = field(default_factory=dict)
    #: The strongest evidence seen (its words), and the details a sentence may use.
    evidence: str = ""
    detail: dict[str, str] = field(default_factory=dict)
    secret_type: str | None = None


Key = tuple[str, str | None, str | None, str | None, str | None]


class Collector:
    """Gathers findings by (kind, from, to, first note, collection)."""

    def __init__(self) -> None:
        self._found: dict[Key, Gathered] = {}

    def add(
        self,
        kind: LeakKind,
        from_agent: str | None,
        to_agent: str | None,
        *,
        first: str | None,
        others: Iterable[str] = (),
        collection: str | None,
        path: LeakPath,
        certainty: Certainty,
        why: Why,
        evidence: str = "",
        secret_type: str | None = None,
        **detail: str,
    ) -> Gathered:
        """Add to the finding of this kind, pair and note (made on first sight); the
        surest evidence wins."""
        key: Key = (kind, from_agent, to_agent, first, collection)
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = Gathered(
                kind,
                from_agent,
                to_agent,
                first,
                collection,
                path,
                certainty,
                why,
                evidence=evidence,
                detail=dict(detail),
                secret_type=secret_type,
            )
        elif _SURE[certainty] > _SURE[found.certainty]:
            found.certainty = certainty
            found.evidence = evidence or found.evidence
        for note in others:
            found.others.setdefault(note, None)
        return found

    def findings(self) -> list[LeakFinding]:
        """Every finding gathered, with its sentence, in a stable order."""
        out = []
        for gathered in self._found.values():
            notes = ([gathered.first] if gathered.first else []) + [
                n for n in gathered.others if n != gathered.first
            ]
            # Built from values made here, of the declared types: checking each of a few
            # hundred thousand findings again cost more than finding them.
            out.append(
                LeakFinding.model_construct(
                    kind=gathered.kind,
                    severity=SEVERITY_OF[gathered.kind],
                    from_agent=gathered.from_agent,
                    to_agent=gathered.to_agent,
                    notes=notes,
                    why=gathered.why(gathered),
                    certainty=gathered.certainty,
                    path=gathered.path,
                    collection=gathered.collection,
                    secret_type=gathered.secret_type,
                )
            )
        order = {kind: i for i, kind in enumerate(SEVERITY_OF)}
        out.sort(
            key=lambda f: (
                order[f.kind],
                f.from_agent or "",
                f.to_agent or "",
                f.collection or "",
                f.notes,
            )
        )
        return out
