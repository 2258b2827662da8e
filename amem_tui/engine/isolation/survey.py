"""One read of the audited collections: every note's reach, text, links and history,
the texts readable beyond their writer indexed, and the stored vectors kept as the
cosine comparison needs them. Nothing else reads the store for the leak audit, except
the full vectors of the few private notes whose bound comes close."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np
from pydantic import ValidationError

from amem_tui.engine.collections import CollectionService
from amem_tui.engine.isolation.copies import TextIndex
from amem_tui.engine.isolation.reach import Identity, Reach, ReachTable
from amem_tui.engine.isolation.vectors import VectorSpace
from amem_tui.engine.models import EvolutionEntry, MemoryNote, parse_evolution_history
from amem_tui.engine.store.base import PointPage

#: Points read per store call, and vectors handled at a time.
PAGE = 1024
#: The fields of an openclaw-amem note that decide who reads it (with its malformation).
ACCESS_FIELDS = ("agent_id", "owner", "readers", "writers", "is_active")
#: The payload fields the audit reads of an openclaw-amem note (where the note index says
#: which points are malformed, so they need not be read whole to tell).
FIELDS = (*ACCESS_FIELDS, "content", "links", "evolution_history")

Progress = Callable[[int, int], None]


@dataclass
class Audited:
    """One audited collection, the identities that read it, and its reach table."""

    service: CollectionService
    identities: list[Identity]
    reach: ReachTable
    #: The Mode B agent whose collection this is (None: a Mode A or mem0 collection).
    mode_b: str | None
    space: VectorSpace | None

    @property
    def name(self) -> str:
        """The collection's name, as configured."""
        return self.service.name


def space_name(service: CollectionService) -> str | None:
    """Which vectors can be compared with this collection's: one model's, one size's
    (None: the collection holds no vectors to compare)."""
    model = service.model.info()
    if model is None or model.vector_size is None:
        return None
    if model.name is None:  # an unnamed model: its vectors meet only each other
        return f"collection {service.real_name}"
    return f"{model.name} ({model.vector_size} dimensions)"


@dataclass
class Survey:
    """What the audit knows of every note it read, by position (0, 1, ...)."""

    collections: list[Audited]
    ids: list[str] = field(default_factory=list)
    #: Per note: its collection (an index into ``collections``) and its access group.
    where: list[int] = field(default_factory=list)
    codes: list[int] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    links: dict[int, list[str]] = field(default_factory=dict)
    history: dict[int, list[EvolutionEntry]] = field(default_factory=dict)
    #: Notes that are some identity's private memory.
    sources: list[int] = field(default_factory=list)
    #: Active notes someone reaches beyond their writer (what may expose a private note).
    targets: list[int] = field(default_factory=list)
    index: TextIndex = field(default_factory=TextIndex)
    spaces: dict[str, VectorSpace] = field(default_factory=dict)
    #: When each mem0 memory was written (a copy is never older than what it copies).
    created: dict[int, datetime] = field(default_factory=dict)
    #: Sentences about each access group, made once (see ``exposure``).
    words: dict[tuple[int, int], str] = field(default_factory=dict)
    _receivers: dict[tuple[int, int, int, int], tuple[str, ...]] = field(default_factory=dict)
    #: Per (collection, access group): whether its notes are sources, and targets.
    _roles: dict[tuple[int, int], tuple[bool, bool]] = field(default_factory=dict)
    _by_id: dict[str, int] = field(default_factory=dict)

    def reach(self, note: int) -> Reach:
        """Who reaches a note."""
        return self.collections[self.where[note]].reach.groups[self.codes[note]]

    def receivers(self, private: int, note: int) -> tuple[str, ...]:
        """Who reaches ``note`` beyond its writer but may not read the private note
        ``private`` (judged once per pair of access groups)."""
        key = (self.where[private], self.codes[private], self.where[note], self.codes[note])
        found = self._receivers.get(key)
        if found is None:
            mine = self.reach(private)
            theirs = self.reach(note).exposed_to() - mine.readers - {mine.holder}
            found = self._receivers[key] = tuple(sorted(n for n in theirs if n))
        return found

    def find(self, collection: int, note_id: str) -> int | None:
        """The position of a note of a collection, by id (None: not read)."""
        return self._by_id.get(f"{collection} {note_id}")

    def read(self, progress: Progress | None = None) -> None:
        """Read every audited collection, a page at a time."""
        total = sum((c.service.info() or _NoInfo).points_count for c in self.collections)
        done = 0
        for number, audited in enumerate(self.collections):
            service = audited.service
            # Where the note index knows the malformed points, a note's access fields are
            # judged once per distinct set of them, from the few fields read; elsewhere
            # each point is read whole into a note (mem0 memories, a server's store).
            known = service.index.malformed_note_ids() if service.format == "amem" else None
            bad = set(known or ())
            space = audited.space
            pages = service.store.scan_pages(
                audited.name,
                with_vectors=space is not None,
                page=PAGE,
                fields=None if known is None else FIELDS,
            )
            for page in _read_ahead(pages):
                if known is None:
                    added = [
                        self._add(number, audited, service.note(i, payload))
                        for i, payload in zip(page.ids, page.payloads, strict=True)
                    ]
                else:
                    added = [
                        self._add_fields(number, audited, i, payload, bad)
                        for i, payload in zip(page.ids, page.payloads, strict=True)
                    ]
                if space is not None and page.vectors is not None:
                    self._vectors(space, page.vectors, page.has_vector, added)
                done += len(added)
                if progress is not None:
                    progress(done, max(done, total))
        if progress is not None:
            progress(done, max(done, total))

    def _add(self, number: int, audited: Audited, note: MemoryNote) -> tuple[int, bool, bool]:
        code = audited.reach.code(note)
        text = note.content if isinstance(note.content, str) else ""
        history = list(note.evolution_history)
        reach = audited.reach.groups[code]
        added = self._keep(number, reach, code, note.id, text, note.links, history)
        when = note.created_at() if reach.writer is None else None
        if when is not None:
            self.created[added[0]] = when if when.tzinfo else when.replace(tzinfo=UTC)
        return added

    def _add_fields(
        self,
        number: int,
        audited: Audited,
        note_id: str,
        payload: dict[str, Any],
        bad: set[str],
    ) -> tuple[int, bool, bool]:
        malformed = note_id in bad
        key = _key(payload, malformed)

        def note() -> MemoryNote:
            found = MemoryNote.from_payload(note_id, payload)
            if malformed and not found.malformed:  # a field left unread is of a wrong type
                found.replace_problems(["malformed (the note index says so)"])
            return found

        code = audited.reach.code_of(key, note)
        reach = audited.reach.groups[code]
        content = payload.get("content")
        text = content if isinstance(content, str) else ""
        raw_links = payload.get("links")
        links = [x for x in raw_links if isinstance(x, str)] if isinstance(raw_links, list) else []
        history = payload.get("evolution_history")
        return self._keep(number, reach, code, note_id, text, links, history)

    def _keep(
        self,
        number: int,
        reach: Reach,
        code: int,
        note_id: str,
        text: str,
        links: list[str],
        history: object,
    ) -> tuple[int, bool, bool]:
        position = len(self.ids)
        self.ids.append(note_id)
        self.where.append(number)
        self.codes.append(code)
        self.texts.append(text)
        self._by_id[f"{number} {note_id}"] = position
        if links:
            self.links[position] = list(links)
        roles = self._roles.get((number, code))
        if roles is None:
            roles = (reach.holder is not None, reach.note.active and bool(reach.exposed_to()))
            self._roles[(number, code)] = roles
        source, target = roles
        if source:
            self.sources.append(position)
        if target:
            self.targets.append(position)
            self.index.add(position, text)
            entries = _history(history)
            if entries:
                self.history[position] = entries
                for entry in entries:
                    if entry.oldContent:
                        self.index.add(position, entry.oldContent, "history")
        return position, source, target

    @staticmethod
    def _vectors(
        space: VectorSpace,
        rows: np.ndarray,
        has: np.ndarray | None,
        added: list[tuple[int, bool, bool]],
    ) -> None:
        notes = np.fromiter((a[0] for a in added), dtype=np.int64, count=len(added))
        source = np.fromiter((a[1] for a in added), dtype=bool, count=len(added))
        target = np.fromiter((a[2] for a in added), dtype=bool, count=len(added))
        if has is not None and not has.all():  # points stored without a dense vector
            notes, rows, source, target = notes[has], rows[has], source[has], target[has]
        space.add(notes, rows, source, target)

    def fetch_vectors(self, notes: Sequence[int]) -> dict[int, np.ndarray]:
        """The stored vectors of these notes, read again from the store."""
        out: dict[int, np.ndarray] = {}
        by_collection: dict[int, list[int]] = {}
        for note in notes:
            by_collection.setdefault(self.where[note], []).append(note)
        for number, wanted in by_collection.items():
            service = self.collections[number].service
            for start in range(0, len(wanted), PAGE):
                chunk = wanted[start : start + PAGE]
                found = service.vectors_of(self.ids[n] for n in chunk)
                for note in chunk:
                    vector = found.get(self.ids[note])
                    if vector is not None:
                        out[note] = vector
        return out


def _read_ahead(pages: Iterator[PointPage]) -> Iterator[PointPage]:
    """The pages, each next one read in a thread while the caller works on the one
    before: the stores let go of the interpreter while they read (Edge's scroll, a
    server's answer), so the reading and the caller's work overlap."""
    with ThreadPoolExecutor(1, thread_name_prefix="leaks-read") as pool:
        pending = pool.submit(next, pages, None)
        while (page := pending.result()) is not None:
            pending = pool.submit(next, pages, None)
            yield page


def _key(payload: dict[str, Any], malformed: bool) -> tuple[object, ...]:
    """The access fields of a payload as a dict key (read for every note: kept cheap)."""
    readers, writers = payload.get("readers"), payload.get("writers")
    key = (
        payload.get("agent_id"),
        payload.get("owner"),
        tuple(readers) if type(readers) is list else readers,
        tuple(writers) if type(writers) is list else writers,
        payload.get("is_active"),
        malformed,
    )
    try:
        hash(key)
    except TypeError:  # a value of a wrong type (a list of lists, a dict)
        return (*(_frozen(payload.get(f)) for f in ACCESS_FIELDS), malformed)
    return key


def _frozen(value: object) -> object:
    """A payload value as a dict key (lists as tuples; anything else odd as its text)."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if value is None or isinstance(value, str | bool | int | float):
        return value
    return repr(value)


def _history(raw: object) -> list[EvolutionEntry]:
    """A note's evolution history as entries (empty when there is none or it is unreadable)."""
    if isinstance(raw, list) and all(isinstance(e, EvolutionEntry) for e in raw):
        return list(raw)
    try:
        return parse_evolution_history(raw)
    except (ValueError, TypeError, ValidationError):
        return []


class _NoInfo:
    points_count = 0
