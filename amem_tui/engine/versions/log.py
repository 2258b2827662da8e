"""The version log: every change amem-tui makes to a note, kept in the store.

Versions of ``<collection>`` live in the bookkeeping collection
``<collection>__amem_versions`` (so a second machine on the same server sees them,
and the notes' payloads stay exactly as openclaw-amem and mem0 read them): one point
per change, keyed by note id. A change another tool made since amem-tui last wrote a
note is found when amem-tui writes it next (the note no longer matches the last
recorded version) and recorded then as an ``outside`` version, before the new one.

A version is written ahead of the change it records, so a write that fails half-way
leaves a version of a change that never happened, never a change without its version.
Such a version is told by its digests (the note after it is still as it was before
it) and left out wherever versions are read (``applied``).
"""

from __future__ import annotations

import contextlib
import json
import uuid
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC
from typing import Any

from amem_tui.engine.bookkeeping import VERSIONS_SUFFIX
from amem_tui.engine.models import parse_evolution_history, parse_time
from amem_tui.engine.store.base import NoteStore, StoredPoint
from amem_tui.engine.store.filters import Filter, Match, MatchAny
from amem_tui.engine.versions.records import NoteHistory, NoteVersion, VersionAction
from amem_tui.engine.versions.snapshot import Snapshot, changed_fields, digest, snapshot
from amem_tui.engine.words import plural

VERSIONS_MODEL = "amem-tui/versions"
#: Version points written (and note ids looked up) per store call.
WRITE_BATCH = 256
#: Entries of a note's own evolution history named for a change made outside amem-tui.
KNOWN_SHOWN = 8
#: Actions kept as versions even when the note's snapshot is unchanged: a merge's keeper
#: may keep its words and still have absorbed the notes merged into it.
KEPT_UNCHANGED = frozenset({"merge", "undo"})
_POINT_IDS = uuid.UUID("5b0c7a36-1f0e-4d57-9a8e-0d2f3c4b5a69")
_HEAD_FIELDS = ("note_id", "seq", "at", "before_digest", "after_digest")


#: The version collections this process made sure exist, per store: asking a store
#: for a collection's facts counts its points, which an import would pay per batch.
_ENSURED: weakref.WeakKeyDictionary[NoteStore, set[str]] = weakref.WeakKeyDictionary()


def versions_collection(collection: str) -> str:
    """The bookkeeping collection that keeps the versions of ``collection``'s notes."""
    return collection + VERSIONS_SUFFIX


@dataclass(frozen=True)
class Change:
    """One write amem-tui made to a note: the stored payloads before and after it
    (``before`` None: the write created the note)."""

    note_id: str
    action: VersionAction
    agent: str | None
    before: Mapping[str, Any] | None
    after: Mapping[str, Any] | None
    run_id: str | None = None
    reverted_to: int | None = None


@dataclass(frozen=True)
class _Head:
    """A recorded version of a note, as far as recording needs it."""

    point_id: str
    seq: int
    at: str
    before_digest: str
    after_digest: str

    @classmethod
    def of(cls, point: StoredPoint) -> _Head:
        payload = point.payload
        return cls(
            point.id,
            int(payload.get("seq", 0)),
            str(payload.get("at", "")),
            str(payload.get("before_digest", "")),
            str(payload.get("after_digest", "")),
        )


def _order(point: StoredPoint) -> tuple[int, str, str]:
    return int(point.payload.get("seq", 0)), str(point.payload.get("at", "")), point.id


def applied(digests: Sequence[tuple[str, str]], current: str) -> list[int]:
    """Which of a note's versions, oldest first as ``(before, after)`` digests, recorded
    a change that happened, the note being ``current`` now ("" for no note).

    Each version's ``after`` is what the next one found (``before``), or the note as it
    is. One whose ``after`` was never seen while its ``before`` still was, was written
    ahead of a write that failed: it is left out.
    """
    kept: list[int] = []
    following = current
    for index in range(len(digests) - 1, -1, -1):
        before, after = digests[index]
        if after != following and before == following and before != after:
            continue
        kept.append(index)
        following = before
    return kept[::-1]


def known_changes(payload: Mapping[str, Any], since: str | None) -> list[str]:
    """What a note's own payload says of the changes made to it after ``since`` (None:
    ever): its evolution history entries, newest last, and when it was created."""
    known: list[str] = []
    moment = parse_time(since) if since else None
    if since is None:
        created = payload.get("timestamp") or payload.get("createdAt")
        if isinstance(created, str) and created:
            known.append(f"created {created}")
    try:
        entries = parse_evolution_history(payload.get("evolution_history"))
    except (ValueError, TypeError, json.JSONDecodeError):
        return known
    for entry in entries:
        at = parse_time(entry.triggeredAt)
        if moment is not None and (at is None or at <= moment):
            continue
        who = f" by {entry.triggeredBy}" if entry.triggeredBy else ""
        known.append(
            f"{entry.triggeredAt or 'at an unknown time'}: {entry.action or 'change'}{who}"
        )
    if len(known) > KNOWN_SHOWN:
        hidden = len(known) - KNOWN_SHOWN
        known = [f"{plural(hidden, 'earlier change')} not listed", *known[-KNOWN_SHOWN:]]
    return known


def last_written(payload: Mapping[str, Any], since: str | None) -> str:
    """When a note's text was last written, as far as its own payload says (its newest
    evolution history entry, else its creation or update time), if after ``since``;
    ``""`` when the payload does not say."""
    moments = [payload.get(name) for name in ("timestamp", "createdAt", "created_at", "updated_at")]
    with contextlib.suppress(ValueError, TypeError, json.JSONDecodeError):
        moments += [
            e.triggeredAt for e in parse_evolution_history(payload.get("evolution_history"))
        ]
    floor = parse_time(since) if since else None
    newest: tuple[Any, str] | None = None
    for moment in moments:
        at = parse_time(moment) if isinstance(moment, str) and moment else None
        if at is not None and at.tzinfo is None:
            at = at.replace(tzinfo=UTC)
        if floor is not None and floor.tzinfo is None:
            floor = floor.replace(tzinfo=UTC)
        if at is None or (floor is not None and at <= floor):
            continue
        if newest is None or at > newest[0]:
            newest = (at, str(moment))
    return newest[1] if newest else ""


class VersionLog:
    """Reads and writes the versions of the notes of one store's collections."""

    def __init__(self, store: NoteStore) -> None:
        self.store = store

    def _log(self, collection: str) -> str:
        name = versions_collection(collection)
        ensured = _ENSURED.setdefault(self.store, set())
        if name not in ensured:
            self.store.ensure_collection(name, 1, VERSIONS_MODEL, ("note_id",), notes=False)
            ensured.add(name)
        return name

    def _chains(self, log: str, note_ids: Iterable[str]) -> dict[str, list[_Head]]:
        """Every recorded version of these notes, oldest first (digests only)."""
        ids = sorted(set(note_ids))
        points: dict[str, list[StoredPoint]] = {}
        for start in range(0, len(ids), WRITE_BATCH):
            flt = Filter(must=(MatchAny("note_id", tuple(ids[start : start + WRITE_BATCH])),))
            for point in self.store.scan(log, flt, fields=_HEAD_FIELDS):
                points.setdefault(str(point.payload.get("note_id")), []).append(point)
        return {
            note_id: [_Head.of(p) for p in sorted(found, key=_order)]
            for note_id, found in points.items()
        }

    @staticmethod
    def _head(chain: Sequence[_Head], current: str) -> _Head | None:
        """The newest version of a chain that recorded a change that happened."""
        kept = applied([(h.before_digest, h.after_digest) for h in chain], current)
        return chain[kept[-1]] if kept else None

    def _after_of(self, log: str, head: _Head) -> Snapshot | None:
        points = self.store.retrieve(log, [head.point_id])
        after = points[0].payload.get("after") if points else None
        return dict(after) if isinstance(after, dict) else None

    def record(
        self, collection: str, changes: Sequence[Change], at: str, *, new_notes: bool = False
    ) -> None:
        """Keep ``changes`` as new versions of their notes, all made at ``at``: called
        before the notes are written (a version of a write that then fails is left out
        when versions are read).

        A note that no longer matches its last recorded version (or that amem-tui never
        wrote) first gets an ``outside`` version: the change another tool made.
        ``new_notes`` says the notes did not exist before (an import of new ids), so
        there is nothing to look up.
        """
        if not changes:
            return
        log = self._log(collection)
        chains = {} if new_notes else self._chains(log, (c.note_id for c in changes))
        heads: dict[str, _Head | None] = {}
        points: list[StoredPoint] = []
        for change in changes:
            before = snapshot(change.before) if change.before is not None else None
            after = snapshot(change.after) if change.after is not None else None
            if (
                before is not None
                and digest(before) == digest(after)
                and change.action not in KEPT_UNCHANGED
            ):
                continue  # only what a use changes (a recall count, the history)
            if change.note_id not in heads:
                heads[change.note_id] = self._head(chains.get(change.note_id, []), digest(before))
            head = heads[change.note_id]
            seq = max((h.seq for h in chains.get(change.note_id, [])), default=0)
            seq = max(seq, head.seq if head is not None else 0)
            if before is not None and (head is None or head.after_digest != digest(before)):
                earlier = self._after_of(log, head) if head is not None else None
                seq += 1
                outside = NoteVersion(
                    note_id=change.note_id,
                    # When the other tool wrote it, not when amem-tui noticed.
                    at=last_written(change.before or {}, head.at if head else None),
                    action="outside",
                    changed=changed_fields(earlier, before),
                    before=earlier,
                    after=before,
                    known=known_changes(change.before or {}, head.at if head else None),
                )
                points.append(self._point(collection, outside, seq))
            seq += 1
            version = NoteVersion(
                note_id=change.note_id,
                at=at,
                agent=change.agent,
                action=change.action,
                changed=changed_fields(before, after),
                before=before,
                after=after,
                run_id=change.run_id,
                reverted_to=change.reverted_to,
            )
            point = self._point(collection, version, seq)
            points.append(point)
            # A batch may change one note twice (a merge's keeper and its links).
            recorded = _Head(point.id, seq, at, digest(before), digest(after))
            heads[change.note_id] = recorded
            chains.setdefault(change.note_id, []).append(recorded)
        try:
            for start in range(0, len(points), WRITE_BATCH):
                self.store.upsert(log, points[start : start + WRITE_BATCH])
        except Exception:
            # Made sure of again by the next write (another process may have dropped it).
            _ENSURED.get(self.store, set()).discard(log)
            raise

    @staticmethod
    def _point(collection: str, version: NoteVersion, seq: int) -> StoredPoint:
        after_digest = digest(version.after)
        key = f"{collection}/{version.note_id}/{seq}/{version.at}/{after_digest}"
        payload = version.model_dump(mode="json", exclude={"number", "recorded", "label"})
        payload.update(
            kind="version", seq=seq, before_digest=digest(version.before), after_digest=after_digest
        )
        return StoredPoint(str(uuid.uuid5(_POINT_IDS, key)), payload, [1.0])

    def load(
        self, collection: str, note_id: str, current: Mapping[str, Any] | None = None
    ) -> list[NoteVersion]:
        """The recorded versions of a note that is ``current`` now (its stored payload),
        oldest first, numbered from 1; versions of writes that failed are left out."""
        log = versions_collection(collection)
        if self.store.collection_info(log) is None:
            return []
        points = sorted(self.store.scan(log, Filter(must=(Match("note_id", note_id),))), key=_order)
        heads = [_Head.of(p) for p in points]
        now = digest(snapshot(current)) if current is not None else ""
        kept = applied([(h.before_digest, h.after_digest) for h in heads], now)
        versions = []
        for number, index in enumerate(kept, start=1):
            version = NoteVersion.model_validate(points[index].payload)
            version.number = number
            versions.append(version)
        return versions

    def history(
        self, collection: str, note_id: str, current: Mapping[str, Any] | None
    ) -> NoteHistory:
        """Every version of a note, with the note as stored now (``current``): when it
        no longer matches the last recorded version, an unrecorded ``outside`` version
        ends the list (and stands alone for a note amem-tui never wrote)."""
        versions = self.load(collection, note_id, current)
        if current is not None:
            now = snapshot(current)
            last = versions[-1] if versions else None
            if last is None or digest(last.after) != digest(now):
                versions.append(
                    NoteVersion(
                        number=len(versions) + 1,
                        note_id=note_id,
                        action="outside",
                        changed=changed_fields(last.after if last else None, now),
                        before=last.after if last else None,
                        after=now,
                        at=last_written(current, last.at if last else None),
                        recorded=False,
                        known=known_changes(current, last.at if last else None),
                    )
                )
        return NoteHistory(note_id=note_id, collection=collection, versions=versions)
