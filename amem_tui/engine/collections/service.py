"""A collection's service: its facts, payload format and read rules.

What the raw store does not know of a collection lives here: the format of its points
(decided once), how a point reads as a note, and the read rules of an agent in that
format. Its note index is ``index``, its model ``model``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

import amem_tui.engine.scope as rules
from amem_tui.engine.collections.index import CollectionIndex
from amem_tui.engine.collections.model import CollectionModel
from amem_tui.engine.embedders import Embedders
from amem_tui.engine.errors import ReadOnlyStore
from amem_tui.engine.formats import PayloadFormat, detect_format, mem0, note_view
from amem_tui.engine.modelinfo import ModelChoices
from amem_tui.engine.models import MemoryNote, NoteAccess
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.search_results import GetOnlyBecause, HiddenKind, VisibleBecause
from amem_tui.engine.store.base import CREATED_BY, CollectionInfo, NoteStore
from amem_tui.engine.store.filters import Filter

#: Points looked at to tell a collection's payload format.
FORMAT_SAMPLE = 32


class CollectionService:
    """A collection (by the name asked for, alias or not) with its format, read rules and
    note index; its model is ``model``."""

    def __init__(
        self,
        store: NoteStore,
        name: str,
        embedders: Embedders,
        choices: ModelChoices,
        cache_folder: Path | None = None,
    ) -> None:
        self.store = store
        self.name = name
        #: The model that built the collection, and our vectors for what is written in.
        self.model = CollectionModel(self, embedders, choices)
        #: The note index search and the store-wide figures work on.
        self.index = CollectionIndex(self, cache_folder)
        self._real: str | None = None
        self._format: PayloadFormat | None = None
        self._namespaces: tuple[int, tuple[str, ...]] | None = None
        self._bookkeeping: str | None = None

    # ---------------------------------------------------------------- facts
    @property
    def real_name(self) -> str:
        """The collection this name stands for (aliases resolved once)."""
        if self._real is None:
            self._real = self.store.resolve_alias(self.name)
        return self._real

    def info(self) -> CollectionInfo | None:
        """Facts about the collection, or None while it does not exist."""
        return self.store.collection_info(self.name)

    def exists(self) -> bool:
        """True once the collection exists."""
        return self.info() is not None

    @property
    def format(self) -> PayloadFormat:
        """``mem0`` for a collection of mem0 memories, else ``amem``.

        Decided once, from the metadata or a sample of points: it is asked for every
        point read, so it must not cost a store call each time. A missing or empty
        collection reads as ``amem`` until there is something to look at.
        """
        if self._format is not None:
            return self._format
        info = self.store.collection_info(self.real_name)
        if info is None:
            return "amem"
        if info.metadata.get("created_by") == CREATED_BY:
            fmt: PayloadFormat = "amem"
        else:
            sample = self.store.scroll(self.real_name, None, limit=FORMAT_SAMPLE)
            if not sample:
                return "amem"
            fmt = detect_format(p.payload for p in sample)
        self._format = fmt
        return fmt

    def bookkeeping(self) -> str | None:
        """What a collection of another tool's bookkeeping holds (None: notes or memories).

        mem0's TypeScript SDK keeps a telemetry id in ``memory_migrations`` and entities
        in ``<collection>_entities``: neither holds memories, nor malformed notes.
        """
        if self._bookkeeping is None:
            if self.store.collection_info(self.real_name) is None:
                return None  # nothing to judge yet
            sample = [p.payload for p in self.store.scroll(self.real_name, None, FORMAT_SAMPLE)]
            base = mem0.entities_of(self.real_name)
            base_exists = base is not None and self.store.collection_info(base) is not None
            if self.name in mem0.BOOKKEEPING_COLLECTIONS or mem0.is_bookkeeping(
                self.real_name, sample, base_exists
            ):
                what = "entities" if base is not None else "telemetry id"
                self._bookkeeping = f"mem0 bookkeeping ({what}, not memories)"
            else:
                self._bookkeeping = ""
        return self._bookkeeping or None

    def check_writable(self) -> None:
        """Raise ``ReadOnlyStore`` for a collection amem-tui only reads (mem0)."""
        if self.format == "mem0":
            raise ReadOnlyStore(
                f"collection '{self.name}' holds mem0 memories: {mem0.READ_ONLY_REASON}"
            )

    # -------------------------------------------------------------- reading
    def note(self, point_id: str, payload: dict[str, Any] | None) -> MemoryNote:
        """The note a stored point reads as: a note, or a read-only view of a mem0 memory."""
        return note_view(self.format, point_id, payload)

    def notes(self, flt: Filter | None = None) -> Iterator[MemoryNote]:
        """Every note the filter matches, in store order, read a page at a time."""
        for point in self.store.scan(self.name, flt):
            yield self.note(point.id, point.payload)

    # ------------------------------------------------------------ the rules
    # Each format reads with its own rules: openclaw-amem's scope contract
    # (``amem_tui.engine.scope``), or the mem0 plugin's namespaces
    # (``amem_tui.engine.formats.mem0``). Callers ask here, never one of them.
    def read_filter(self, scope: AgentScope, include_inactive: bool = False) -> Filter:
        """What ``scope`` may find here, in this collection's own format."""
        if self.format == "mem0":
            return mem0.read_filter(scope)
        return rules.read_filter(scope, include_inactive)

    def hidden_filter(self, scope: AgentScope) -> Filter | None:
        """What ``scope`` may not find here, as a query (None: judge each note instead)."""
        if self.format == "mem0":
            return None
        return rules.hidden_filter(scope)

    def visible_because(self, scope: AgentScope, note: NoteAccess) -> VisibleBecause | None:
        """Why a note shows up in the scope's searches, or None (see ``scope``)."""
        if self.format == "mem0":
            return mem0.visible_because(scope, note)
        return rules.visible_because(scope, note)

    def get_only_because(self, scope: AgentScope, note: MemoryNote) -> GetOnlyBecause | None:
        """Why the agent reads a note by id that its searches never return (openclaw-amem
        only: mem0 memories are read by namespace alone)."""
        if self.format == "mem0":
            return None
        return rules.get_only_because(scope, note)

    def can_read(self, scope: AgentScope, note: MemoryNote) -> bool:
        """The read rule for fetching by id and following links."""
        if self.format == "mem0":
            return self.name == scope.collection and mem0.visible_because(scope, note) is not None
        return rules.can_read(scope, note, self.name)

    def fits_listing(self, scope: AgentScope, note: MemoryNote, which: str) -> bool:
        """True when a note the store returned for a listing really belongs there."""
        if self.format == "mem0":
            return which not in ("shared", "get_only") and (
                mem0.visible_because(scope, note) is not None
            )
        return rules.fits_listing(scope, note, which)

    def hidden_reason(
        self, scope: AgentScope, note: MemoryNote, dedicated: Mapping[str, str]
    ) -> tuple[HiddenKind, str]:
        """Why ``note`` (in this collection) is not among what ``scope`` can find."""
        if self.format == "mem0" and self.name == scope.collection:
            return mem0.hidden_reason(scope, note)
        return rules.hidden_reason(scope, note, self.name, dedicated)

    def namespaces(self) -> tuple[str, ...]:
        """Every ``user_id`` value of a mem0 collection, each one namespace of the plugin.

        A filter cannot take ``user_id`` apart, so the values present are read once and
        kept until the point count changes.
        """
        if self.store.collection_info(self.real_name) is None:
            return ()
        total = self.store.count(self.real_name)
        cached = self._namespaces
        if cached is not None and cached[0] == total:
            return cached[1]
        found: set[str] = set()
        for point in self.store.scan(self.real_name, None, page=1024):
            user = point.payload.get("user_id")
            if isinstance(user, str) and user.strip():
                found.add(user)
        self._namespaces = (total, tuple(sorted(found)))
        return self._namespaces[1]

    def vectors_of(self, ids: Iterable[str]) -> dict[str, np.ndarray]:
        """Stored vectors by note id."""
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return {}
        points = self.store.retrieve(self.name, wanted, with_vectors=True)
        return {p.id: np.asarray(p.vector, dtype=np.float32) for p in points if p.vector}

    def fetch(self, ids: Iterable[str]) -> dict[str, MemoryNote]:
        """The notes with these ids, read from the store (missing ones left out)."""
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return {}
        return {p.id: self.note(p.id, p.payload) for p in self.store.retrieve(self.name, wanted)}


class Collections:
    """The collection services of one store, each made once and kept."""

    def __init__(
        self,
        store: NoteStore,
        embedders: Embedders,
        choices: ModelChoices,
        cache_folder: Path | None = None,
    ) -> None:
        self.store = store
        self.embedders = embedders
        self.choices = choices
        self.cache_folder = cache_folder
        self._services: dict[str, CollectionService] = {}
        self._lock = threading.Lock()

    def get(self, name: str) -> CollectionService:
        """The service of the collection ``name`` (an alias or a real name)."""
        with self._lock:
            service = self._services.get(name)
            if service is None:
                service = self._services[name] = CollectionService(
                    self.store, name, self.embedders, self.choices, self.cache_folder
                )
            return service

    def choose_embedders_again(self) -> None:
        """Every collection chooses its query embedder again at its next query."""
        with self._lock:
            services = list(self._services.values())
        for service in services:
            service.model.choose_again()

    def save_indexes(self) -> None:
        """Save every note index this process changed (before the store closes)."""
        with self._lock:
            services = list(self._services.values())
        for service in services:
            service.index.save()
