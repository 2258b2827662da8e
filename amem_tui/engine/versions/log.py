"""The version log: every change amem-tui makes to a note, kept in the store.

Versions of ``<collection>`` live in the bookkeeping collection
``<collection>__amem_versions`` (so a second machine on the same server sees them,
and the notes' payloads stay exactly as openclaw-amem and mem0 read them): one point
per change, keyed by note id. A change another tool made since amem-tui last wrote a
note is found when amem-tui writes it next (the note no longer matches the last
recorded version) and recorded then as an ``outside`` version, before the new one.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from amem_tui.engine.bookkeeping import VERSIONS_SUFFIX
from amem_tui.engine.models import parse_evolution_history, parse_time
from amem_tui.engine.store.base import NoteStore, StoredPoint
from amem_tui.engine.store.filters import Filter, Match, MatchAny
from amem_tui.engine.versions.records import NoteHistory, NoteVersion, VersionAction
from amem_tui.engine.versions.snapshot import Snapshot, changed_fields, digest, snapshot

VERSIONS_MODEL = "amem-tui/versions"
#: Version points written (and note ids looked up) per store call.
WRITE_BATCH = 256
#: Entries of a note's own evolution history named for a change made outside amem-tui.
KNOWN_SHOWN = 8
#: Actions kept as versions even when the note's snapshot is unchanged: a merge's keeper
#: may keep its words and still have absorbed the notes merged into it.
KEPT_UNCHANGED = frozenset({"merge", "undo"})
_POINT_IDS = uuid.UUID("5b0c7a36-1f0e-4d57-9a8e-0d2f3c4b5a69")
_HEAD_FIELDS = ("note_id", "seq", "at", "after_digest")


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
    """The newest recorded version of a note, as far as recording needs it."""

    point_id: str
    seq: int
    at: str
    after_digest: str


def _order(point: StoredPoint) -> tuple[int, str, str]:
    return int(point.payload.get("seq", 0)), str(point.payload.get("at", "")), point.id


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
        known = [f"{hidden} earlier change(s) not listed", *known[-KNOWN_SHOWN:]]
    return known


class VersionLog:
    """Reads and writes the versions of the notes of one store's collections."""

    def __init__(self, store: NoteStore) -> None:
        self.store = store

    def _log(self, collection: str) -> str:
        name = versions_collection(collection)
        self.store.ensure_collection(name, 1, VERSIONS_MODEL, ("note_id",))
        return name

    def _heads(self, log: str, note_ids: Iterable[str]) -> dict[str, _Head]:
        ids = sorted(set(note_ids))
        heads: dict[str, tuple[tuple[int, str, str], _Head]] = {}
        for start in range(0, len(ids), WRITE_BATCH):
            flt = Filter(must=(MatchAny("note_id", tuple(ids[start : start + WRITE_BATCH])),))
            for point in self.store.scan(log, flt, fields=_HEAD_FIELDS):
                key = _order(point)
                note_id = str(point.payload.get("note_id"))
                if note_id not in heads or key > heads[note_id][0]:
                    head = _Head(
                        point.id, key[0], key[1], str(point.payload.get("after_digest", ""))
                    )
                    heads[note_id] = (key, head)
        return {note_id: head for note_id, (_, head) in heads.items()}

    def _after_of(self, log: str, head: _Head) -> Snapshot | None:
        points = self.store.retrieve(log, [head.point_id])
        after = points[0].payload.get("after") if points else None
        return dict(after) if isinstance(after, dict) else None

    def record(
        self, collection: str, changes: Sequence[Change], at: str, *, new_notes: bool = False
    ) -> None:
        """Keep ``changes`` as new versions of their notes, all made at ``at``.

        A note that no longer matches its last recorded version (or that amem-tui never
        wrote) first gets an ``outside`` version: the change another tool made.
        ``new_notes`` says the notes did not exist before (an import of new ids), so
        there is nothing to look up.
        """
        if not changes:
            return
        log = self._log(collection)
        heads = {} if new_notes else self._heads(log, (c.note_id for c in changes))
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
            head = heads.get(change.note_id)
            seq = head.seq if head is not None else 0
            if before is not None and (head is None or head.after_digest != digest(before)):
                earlier = self._after_of(log, head) if head is not None else None
                seq += 1
                outside = NoteVersion(
                    note_id=change.note_id,
                    at=at,
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
            heads[change.note_id] = _Head(point.id, seq, at, digest(after))
        for start in range(0, len(points), WRITE_BATCH):
            self.store.upsert(log, points[start : start + WRITE_BATCH])

    @staticmethod
    def _point(collection: str, version: NoteVersion, seq: int) -> StoredPoint:
        after_digest = digest(version.after)
        key = f"{collection}/{version.note_id}/{seq}/{version.at}/{after_digest}"
        payload = version.model_dump(mode="json", exclude={"number", "recorded"})
        payload.update(kind="version", seq=seq, after_digest=after_digest)
        return StoredPoint(str(uuid.uuid5(_POINT_IDS, key)), payload, [1.0])

    def load(self, collection: str, note_id: str) -> list[NoteVersion]:
        """The recorded versions of a note, oldest first, numbered from 1."""
        log = versions_collection(collection)
        if self.store.collection_info(log) is None:
            return []
        points = sorted(self.store.scan(log, Filter(must=(Match("note_id", note_id),))), key=_order)
        versions = []
        for number, point in enumerate(points, start=1):
            version = NoteVersion.model_validate(point.payload)
            version.number = number
            versions.append(version)
        return versions

    def history(
        self, collection: str, note_id: str, current: Mapping[str, Any] | None
    ) -> NoteHistory:
        """Every version of a note, with the note as stored now (``current``): when it
        no longer matches the last recorded version, an unrecorded ``outside`` version
        ends the list (and stands alone for a note amem-tui never wrote)."""
        versions = self.load(collection, note_id)
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
                        recorded=False,
                        known=known_changes(current, last.at if last else None),
                    )
                )
        return NoteHistory(note_id=note_id, collection=collection, versions=versions)
