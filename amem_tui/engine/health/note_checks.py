"""What one pass over a collection's notes finds: hollow notes, flagged leftovers, the
merge backlog, notes the contradiction sweep never read, the same hash twice in a scope.

Only active notes count. Each finding is kept per agent (the note's owner; for the
sweep, the agent whose notes it reads: ``agent_id``) and turned into problems once
the whole store is read:

- ``hollow-notes`` (warning): no keywords, no tags and no context (amem-core's
  ``addEpisodic`` writes such notes on purpose; its migration refills them);
- ``low-quality`` (warning): flagged ``low_quality`` (by amem's quality scan or
  amem-tui's write check) and still served to searches;
- ``ephemeral`` (warning): time-bound and older than 7 days (amem's
  ``expired_ephemeral``);
- ``merge-backlog``: ``pending_merge`` notes; info while newer than the last nightly
  start (tonight's job takes them), warning once older, error past 7 days (the
  nightly merge reads 7 days back at most);
- ``unscanned-conflicts``: the sweep's own notes (not shared, not ``knowledge``)
  without ``conflict_scanned_at`` written before the last nightly start; warning for
  the default agent (the only one openclaw-amem sweeps), info for the others and for
  an agent none of whose notes were ever scanned (the sweep is off, or predates it);
- ``duplicate-hash`` (warning): two active notes with one ``hash`` in one scope (a
  collection's ``agent_id``), which amem's exact dedup exists to prevent.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from amem_tui.engine.health.report import NOTES_LISTED, Problem, ProblemKind, Severity
from amem_tui.engine.models import SHARED
from amem_tui.engine.words import plural

#: How old an ephemeral note is when amem's quality scan calls it expired.
EPHEMERAL_LIFE = timedelta(days=7)
#: How far back openclaw-amem's nightly merge reads (its ``utcDatesSince``).
MERGE_WINDOW = timedelta(days=7)
#: The fields one pass reads.
CHECK_FIELDS = (
    "agent_id",
    "owner",
    "is_active",
    "keywords",
    "tags",
    "context",
    "low_quality",
    "ephemeral",
    "pending_merge",
    "conflict_scanned_at",
    "note_type",
    "category",
    "hash",
)
#: The contradiction sweep's batch size (amem-core's ``CONFLICT_BATCH_SIZE``).
SWEEP_BATCH = 25
#: A note the sweep reads: its id, when created, its category, whether it was scanned.
Swept = tuple[str, datetime | None, str, bool]


def owner_of(payload: Mapping[str, Any]) -> str | None:
    """Who wrote a stored note: ``owner``, else its ``agent_id`` unless shared."""
    owner, agent = payload.get("owner"), payload.get("agent_id")
    if isinstance(owner, str) and owner:
        return owner
    return agent if isinstance(agent, str) and agent and agent != SHARED else None


def _empty(value: object) -> bool:
    if isinstance(value, str):
        return not value.strip()
    return value is None or value == []


@dataclass
class Findings:
    """What a pass over the notes found, per agent."""

    hollow: dict[str, list[str]] = field(default_factory=dict)
    low_quality: dict[str, list[str]] = field(default_factory=dict)
    expired: dict[str, list[str]] = field(default_factory=dict)
    pending: dict[str, list[tuple[str, datetime | None]]] = field(default_factory=dict)
    #: The sweep's notes of each agent: id, created, category, scanned.
    swept: dict[str, list[Swept]] = field(default_factory=dict)
    hashes: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)
    active: Counter[str] = field(default_factory=Counter)

    def add(
        self,
        collection: str,
        point_id: str,
        payload: Mapping[str, Any],
        created: datetime | None,
        now: datetime,
    ) -> None:
        """Look at one stored note."""
        if payload.get("is_active") is False:
            return
        who = owner_of(payload) or ""  # no owner: a malformed point, the store's
        self.active[who] += 1
        if all(_empty(payload.get(k)) for k in ("keywords", "tags", "context")):
            self.hollow.setdefault(who, []).append(point_id)
        if payload.get("low_quality") is True:
            self.low_quality.setdefault(who, []).append(point_id)
        if payload.get("ephemeral") is True and created and now - created > EPHEMERAL_LIFE:
            self.expired.setdefault(who, []).append(point_id)
        if payload.get("pending_merge") is True:
            self.pending.setdefault(who, []).append((point_id, created))
        agent = payload.get("agent_id")
        swept = payload.get("note_type") != "knowledge"  # the sweep reads no knowledge note
        if isinstance(agent, str) and agent and agent != SHARED and swept:
            scanned = payload.get("conflict_scanned_at")
            category = payload.get("category")
            category = category if isinstance(category, str) and category else "General"
            read = isinstance(scanned, str) and bool(scanned)
            self.swept.setdefault(agent, []).append((point_id, created, category, read))
        digest = payload.get("hash")
        if isinstance(digest, str) and digest and isinstance(agent, str):
            self.hashes.setdefault((collection, agent, digest), []).append(point_id)

    def problems(self, now: datetime, slot: datetime, default_agent: str) -> list[Problem]:
        """Every problem found, per kind and agent."""
        out: list[Problem] = []
        flagged: list[tuple[ProblemKind, dict[str, list[str]], str]] = [
            ("hollow-notes", self.hollow, "no keywords, no tags and no context"),
            ("low-quality", self.low_quality, "flagged low_quality and still searched"),
            ("ephemeral", self.expired, "time-bound and older than 7 days"),
        ]
        for kind, found, what in flagged:
            for agent, ids in sorted(found.items()):
                why = f"{plural(len(ids), 'note')}: {what}"
                out.append(_problem(kind, "warning", agent or None, ids, why))
        for agent, pending in sorted(self.pending.items()):
            out.append(_backlog(agent or None, pending, now, slot))
        for agent, items in sorted(self.swept.items()):
            problem = _unscanned(agent, items, slot, default_agent)
            if problem is not None:
                out.append(problem)
        for (collection, scope, _), ids in sorted(self.hashes.items()):
            if len(ids) < 2:
                continue
            where = "the shared scope" if scope == SHARED else f"the notes of {scope}"
            why = (
                f"{len(ids)} active notes with one content hash in {where} ({collection}): "
                "amem's exact dedup would have kept one"
            )
            whose = None if scope == SHARED else scope
            out.append(_problem("duplicate-hash", "warning", whose, ids, why, collection))
        return out


def _problem(
    kind: ProblemKind,
    severity: Severity,
    agent: str | None,
    ids: list[str],
    why: str,
    collection: str | None = None,
) -> Problem:
    return Problem(
        kind=kind,
        severity=severity,
        agent=agent,
        notes=ids[:NOTES_LISTED],
        count=len(ids),
        why=why,
        collection=collection,
    )


def _backlog(
    agent: str | None, items: list[tuple[str, datetime | None]], now: datetime, slot: datetime
) -> Problem:
    ids = [i for i, _ in items]
    times = [t for _, t in items if t is not None]
    oldest = min(times) if times else None
    severity: Severity = "info"
    one = len(ids) == 1
    waits, some, are = ("waits", "it", "is") if one else ("wait", "some", "are")
    why = f"{plural(len(ids), 'note')} {waits} for openclaw-amem's nightly merge (pending_merge)"
    if oldest is not None and now - oldest > MERGE_WINDOW:
        severity = "error"
        why += f": {some} {are} older than 7 days, which the nightly merge no longer reads"
    elif oldest is None or oldest < slot:
        severity = "warning"
        predate = "predates" if one else "predate"
        why += f": {some} {predate} the last nightly start, whose merge should have taken them"
    return _problem("merge-backlog", severity, agent, ids, why)


def sweep_batches(
    items: list[Swept],
) -> list[list[Swept]]:
    """The batches the sweep forms of one agent's notes: by category, newest first, 25
    at a time; a batch of one note is never read (so never marked scanned)."""
    groups: dict[str, list[Swept]] = {}
    for item in items:
        groups.setdefault(item[2], []).append(item)
    batches = []
    for group in groups.values():
        group.sort(key=lambda i: i[1].timestamp() if i[1] else float("-inf"), reverse=True)
        for start in range(0, len(group), SWEEP_BATCH):
            batch = group[start : start + SWEEP_BATCH]
            if len(batch) >= 2:
                batches.append(batch)
    return batches


def _unscanned(
    agent: str,
    items: list[Swept],
    slot: datetime,
    default_agent: str,
) -> Problem | None:
    due = [
        i
        for batch in sweep_batches(items)
        for i, t, _, read in batch
        if not read and (t is None or t < slot)
    ]
    if not due:
        return None
    what = f"{plural(len(due), 'note')} never read by openclaw-amem's contradiction sweep"
    if agent != default_agent:
        why = f"{what}: its nightly sweep reads the default agent's notes only ({default_agent})"
        return _problem("unscanned-conflicts", "info", agent, due, why)
    if not any(read for *_, read in items):
        why = f"{what}, and none of {agent}'s ever was: the sweep is off or predates the store"
        return _problem("unscanned-conflicts", "info", agent, due, why)
    why = f"{what} though written before the last nightly start (a batch whose call failed)"
    return _problem("unscanned-conflicts", "warning", agent, due, why)
