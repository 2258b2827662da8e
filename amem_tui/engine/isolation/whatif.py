"""What a change would do, before it happens: which memory checks would flip, and which
results would enter or leave each agent's top hits for its recent queries.

The change is made by the engine's own code (the same write rules, the same writes) on
a shadow engine whose store keeps writes in memory (``overlay``), and every search
is run on that shadow before and after, with one clock: so the after is what the real
search will rank once the change is made, and nothing is written. A change the real
store would refuse (the write rule, a read-only store, a mem0 collection, a plan whose
notes moved) is refused here the same way, with the same error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from pydantic import BaseModel, Field

from amem_tui.engine.agent_view import AgentView
from amem_tui.engine.consolidation import ConsolidationPlan
from amem_tui.engine.errors import AmemError
from amem_tui.engine.isolation.checkfile import CheckFile
from amem_tui.engine.isolation.checks import CheckRun
from amem_tui.engine.isolation.history import Asked, RecordedQuery

#: How many of an agent's hits a preview compares by default.
TOP = 5


@dataclass(frozen=True)
class Publish:
    """``agent`` publishes its note ``note`` (makes it shared)."""

    agent: str
    note: str


@dataclass(frozen=True)
class Unpublish:
    """``agent`` makes its shared note ``note`` private again."""

    agent: str
    note: str


@dataclass(frozen=True)
class SetReaders:
    """``agent`` gives its private note ``note`` these ``readers`` (``update --readers``)."""

    agent: str
    note: str
    readers: tuple[str, ...]


@dataclass(frozen=True)
class Delete:
    """``agent`` soft-deletes ``note``."""

    agent: str
    note: str


@dataclass(frozen=True)
class Consolidate:
    """The merges of a consolidation ``plan`` (a preview) are carried out."""

    plan: ConsolidationPlan

    @property
    def agent(self) -> str:
        """Whose notes the plan merges."""
        return self.plan.agent


Change = Publish | Unpublish | SetReaders | Delete | Consolidate


class Shadow(Protocol):
    """What the preview asks of the shadow engine (a ``MemoryEngine`` over an
    overlay of the real store)."""

    def named_agent(self, name: str, *, user: str | None = None) -> AgentView:
        """An agent's view by name (an agent id, or a mem0 namespace)."""
        ...

    def check(self, checks: CheckFile) -> CheckRun:
        """Run memory checks."""
        ...


class CheckFlip(BaseModel):
    """A check whose verdict the change would turn."""

    number: int
    name: str
    agent: str
    query: str
    before: bool
    after: bool
    #: Why it fails after the change (empty when the change makes it hold).
    failures: list[str] = Field(default_factory=list)


class QueryDelta(BaseModel):
    """What the change does to one of an agent's recent queries: its top hits before and
    after (note ids, best first), which would enter and which would leave."""

    agent: str
    query: str
    #: The filters the query was asked with (it is re-run with them).
    subject: str | None = None
    topics: list[str] = Field(default_factory=list)
    before: list[str]
    after: list[str]
    entered: list[str] = Field(default_factory=list)
    left: list[str] = Field(default_factory=list)

    @property
    def changed(self) -> bool:
        """True when a note enters or leaves the top hits."""
        return bool(self.entered or self.left)

    def filters(self) -> str:
        """The query's filters in words ("" without any)."""
        parts = [f"subject {self.subject}"] if self.subject is not None else []
        if self.topics:
            parts.append(f"topics {', '.join(self.topics)}")
        return "; ".join(parts)


class WhatIf(BaseModel):
    """What a change would do; nothing was written to find out."""

    change: str
    agent: str
    #: The notes the change writes.
    notes: list[str]
    flips: list[CheckFlip] = Field(default_factory=list)
    deltas: list[QueryDelta] = Field(default_factory=list)
    checks_before: CheckRun | None = None
    checks_after: CheckRun | None = None
    #: Recent queries not re-run, and why (an agent no longer known).
    skipped: list[str] = Field(default_factory=list)

    @property
    def changed(self) -> list[QueryDelta]:
        """The recent queries whose top hits the change would move."""
        return [d for d in self.deltas if d.changed]


def describe(change: Change) -> tuple[str, list[str]]:
    """The change in words, and the notes it writes."""
    if isinstance(change, Publish):
        return f"{change.agent} publishes {change.note}", [change.note]
    if isinstance(change, Unpublish):
        return f"{change.agent} unpublishes {change.note}", [change.note]
    if isinstance(change, SetReaders):
        readers = ", ".join(change.readers) or "none but its owner"
        return f"{change.agent} sets the readers of {change.note} to {readers}", [change.note]
    if isinstance(change, Delete):
        return f"{change.agent} deletes {change.note}", [change.note]
    notes = [n for m in change.plan.run.merges for n in (m.keeper, *m.dropped)]
    merges = len(change.plan.run.merges)
    return f"{change.agent}'s consolidation {change.plan.id} ({merges} merges)", notes


def make(view: AgentView, change: Change) -> None:
    """Carry out ``change`` as ``view``'s agent (on the shadow engine)."""
    if isinstance(change, Publish):
        view.publish(change.note)
    elif isinstance(change, Unpublish):
        view.unpublish(change.note)
    elif isinstance(change, SetReaders):
        view.update(change.note, readers=list(change.readers))
    elif isinstance(change, Delete):
        view.delete(change.note)
    else:
        view.apply(change.plan)


def _tops(
    shadow: Shadow, queries: Sequence[RecordedQuery], top: int, skipped: list[str]
) -> dict[Asked, list[str]]:
    out: dict[Asked, list[str]] = {}
    for recorded in queries:
        key = recorded.asked()
        if key in out:
            continue
        try:
            # Searched as it was asked: its filters are filters, not words.
            result = shadow.named_agent(recorded.agent).search(
                recorded.query, subject=recorded.subject, topics=recorded.topics or None
            )
        except AmemError as exc:
            skipped.append(f"{recorded.agent}: {recorded.query!r}: {exc.message}")
            continue
        out[key] = [hit.note.id for hit in result.hits[:top]]
    return out


def what_if(
    shadow: Shadow,
    change: Change,
    *,
    checks: CheckFile | None = None,
    queries: Sequence[RecordedQuery] = (),
    top: int = TOP,
) -> WhatIf:
    """Run the checks and the queries on ``shadow``, make the change there, run them
    again, and say what moved."""
    words, notes = describe(change)
    view = shadow.named_agent(change.agent)
    checks_before = shadow.check(checks) if checks is not None else None
    skipped: list[str] = []
    before = _tops(shadow, queries, top, skipped)
    make(view, change)
    checks_after = shadow.check(checks) if checks is not None else None
    after = _tops(shadow, [q for q in queries if q.asked() in before], top, [])
    flips = []
    if checks_before is not None and checks_after is not None:
        for old, new in zip(checks_before.verdicts, checks_after.verdicts, strict=True):
            if old.passed != new.passed:
                flips.append(
                    CheckFlip(
                        number=new.number,
                        name=new.name,
                        agent=new.agent,
                        query=new.query,
                        before=old.passed,
                        after=new.passed,
                        failures=new.failures,
                    )
                )
    deltas = []
    for asked, old_top in before.items():
        agent, query, subject, topics = asked
        new_top = after.get(asked, [])
        deltas.append(
            QueryDelta(
                agent=agent,
                query=query,
                before=old_top,
                after=new_top,
                entered=[n for n in new_top if n not in old_top],
                left=[n for n in old_top if n not in new_top],
                subject=subject,
                topics=list(topics),
            )
        )
    return WhatIf(
        change=words,
        agent=change.agent,
        notes=notes,
        flips=flips,
        deltas=deltas,
        checks_before=checks_before,
        checks_after=checks_after,
        skipped=skipped,
    )
