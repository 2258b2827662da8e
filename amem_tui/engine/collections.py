"""One collection of one store, as every part of the engine reads and writes it.

A :class:`CollectionService` knows what the raw store does not: the payload format
of its points (openclaw-amem notes or mem0 memories), the model that built its
vectors and whether we can embed like it, the read filter of an agent in that
format, and the cached notes search works on. Search, consolidation, audit and
transfer take this service (never the engine facade), so none of them needs to
know how the engine is wired.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

from amem_tui.engine import scope as rules
from amem_tui.engine.embed import Embedder, canonical_model_name
from amem_tui.engine.errors import ModelMismatch, ReadOnlyStore
from amem_tui.engine.formats import PayloadFormat, detect_format, note_view
from amem_tui.engine.formats.mem0 import mem0_agent, mem0_read_filter
from amem_tui.engine.modelinfo import Embedders, ModelInfo, detect_model
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.notecache import NoteCache, NoteSet, SelectionKey, uncached_set
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.store.base import CollectionInfo, NoteStore
from amem_tui.engine.store.filters import Filter

#: Points looked at to tell a collection's payload format.
FORMAT_SAMPLE = 32
#: Written by amem-tui into the metadata of every collection it creates.
CREATED_BY = "amem-tui"


class CollectionService:
    """A collection (by the name asked for, alias or not) with its format, model and cache."""

    def __init__(self, store: NoteStore, name: str, embedders: Embedders) -> None:
        self.store = store
        self.name = name
        self.embedders = embedders
        self._lock = threading.Lock()
        self._real: str | None = None
        self._format: PayloadFormat | None = None
        self._status: tuple[bool, str] | None = None
        self._model_checked = False
        self._identities: tuple[int, tuple[str, ...], tuple[str, ...]] | None = None
        self._cache: NoteCache | None = None

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

    def check_writable(self) -> None:
        """Raise :class:`ReadOnlyStore` for a collection amem-tui only reads (mem0)."""
        if self.format == "mem0":
            raise ReadOnlyStore(
                f"collection '{self.name}' holds mem0 memories: amem-tui reads them "
                "but never writes them"
            )

    # -------------------------------------------------------------- reading
    def note(self, point_id: str, payload: dict[str, Any] | None) -> MemoryNote:
        """The note a stored point reads as: a note, or a read-only view of a mem0 memory."""
        return note_view(self.format, point_id, payload)

    def notes(self, flt: Filter | None = None) -> Iterator[MemoryNote]:
        """Every note the filter matches, in store order, read a page at a time."""
        for point in self.store.scan(self.name, flt):
            yield self.note(point.id, point.payload)

    def read_filter(self, scope: AgentScope, include_inactive: bool = False) -> Filter:
        """What ``scope`` may find here, in this collection's own format."""
        if scope.mode == "A" and self.format == "mem0":
            return mem0_read_filter(scope.agent, self.mem0_identities()[0])
        return rules.read_filter(scope, include_inactive)

    def mem0_identities(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Every ``user_id`` of a mem0 collection, and the agents they (or agent_id) map to.

        mem0 keeps the agent inside ``user_id``, which a filter cannot take apart, so
        the values present are read once and kept until the point count changes.
        """
        if self.store.collection_info(self.real_name) is None:
            return (), ()
        total = self.store.count(self.real_name)
        cached = self._identities
        if cached is not None and cached[0] == total:
            return cached[1], cached[2]
        users: set[str] = set()
        agents: set[str] = set()
        for point in self.store.scan(self.real_name, None, page=1024):
            user = point.payload.get("user_id")
            if isinstance(user, str):
                users.add(user)
            agent = mem0_agent(user, point.payload.get("agent_id"))
            if agent:
                agents.add(agent)
        self._identities = (total, tuple(sorted(users)), tuple(sorted(agents)))
        return self._identities[1], self._identities[2]

    def vectors_of(self, ids: Iterable[str]) -> dict[str, np.ndarray]:
        """Stored vectors by note id."""
        points = self.store.retrieve(self.name, list(ids), with_vectors=True)
        return {p.id: np.asarray(p.vector, dtype=np.float32) for p in points if p.vector}

    def select(
        self,
        flt: Filter | None,
        keep: Callable[[MemoryNote], bool],
        key: SelectionKey,
        points_count: int,
    ) -> NoteSet:
        """The notes ``keep`` accepts, in store order, with their keyword index.

        On an embedded store they come from the note cache (``key`` names the scope
        and purpose, which fix ``keep``); elsewhere the store filters with ``flt``
        (the same rule, as a query) and ``keep`` checks again.
        """
        cache = self._note_cache()
        if cache is not None:
            return cache.select(points_count, keep, key)
        return uncached_set([n for n in self.notes(flt) if keep(n)], key)

    def _note_cache(self) -> NoteCache | None:
        if not self.store.embedded:
            return None
        with self._lock:
            if self._cache is None:
                self._cache = NoteCache(self.store, self.real_name, self.note)
            return self._cache

    # ---------------------------------------------------------------- model
    def model_info(self) -> ModelInfo | None:
        """The model that built the collection (metadata, else vector size), or None."""
        info = self.store.collection_info(self.name)
        if info is None:
            return None
        ours = self.embedders.ours
        return detect_model(info, ours.model_name, ours.dim)

    def model_status(self) -> tuple[bool, str]:
        """Whether the collection can be searched by vector here, and why (or why not).

        Usable: the collection is missing (ours to create), or was built by our model,
        or by a model fastembed already has on this machine. Otherwise search falls
        back to keywords; listing and reading always work.
        """
        if self._status is not None:
            return self._status
        real = self.real_name
        info = self.store.collection_info(real)
        ours = self.embedders.ours
        if info is None:
            return (
                True,
                f"collection '{self.name}' does not exist yet; {ours.model_name} will build it",
            )
        model = detect_model(info, ours.model_name, ours.dim)
        size = f"{model.vector_size}-dimensional" if model.vector_size else "unknown-size"
        named = model.name or "an unknown model"
        if model.source != "metadata":
            named = f"{named} (no embedding_model metadata; judged by vector size)"
        same_model = canonical_model_name(model.name) == ours.model_name
        if same_model and model.vector_size in (None, ours.dim):
            status = (True, f"collection '{real}' was built with {ours.model_name}")
        elif self.embedders.for_model(model) is not None:
            status = (
                True,
                f"collection '{real}' was built with {named}; searching with it "
                "from the local fastembed cache",
            )
        else:
            status = (
                False,
                f"collection '{real}' was built with {named} ({size} vectors), which is not "
                f"available offline; this engine embeds with {ours.model_name}: "
                "keyword search only",
            )
        self._status = status
        return status

    def embedder(self) -> Embedder | None:
        """The embedder whose vectors fit this collection: ours, a local one, or None."""
        usable, _ = self.model_status()
        if not usable:
            return None
        model = self.model_info()
        ours = self.embedders.ours
        if model is None or canonical_model_name(model.name) == ours.model_name:
            return ours
        return self.embedders.for_model(model)

    def check_model(self) -> None:
        """Refuse to put our vectors into a collection built by another model."""
        if self._model_checked:
            return
        info = self.store.collection_info(self.name)
        if info is None:
            return
        ours = self.embedders.ours
        theirs = canonical_model_name(info.embedding_model)
        if theirs is not None and theirs != ours.model_name:
            raise ModelMismatch(
                f"collection '{info.name}' was built with {info.embedding_model}; "
                f"this engine embeds with {ours.model_name}: its vectors cannot be mixed"
            )
        if info.vector_size is not None and info.vector_size != ours.dim:
            raise ModelMismatch(
                f"collection '{info.name}' holds {info.vector_size}-dimensional vectors; "
                f"{ours.model_name} makes {ours.dim}-dimensional ones"
            )
        if theirs is None and info.vector_size is not None:
            # No metadata: we always write it, so another tool built this collection.
            guess = detect_model(info, ours.model_name, ours.dim).name or "an unknown model"
            raise ModelMismatch(
                f"collection '{info.name}' names no embedding_model; its "
                f"{info.vector_size}-dimensional vectors may come from {guess}: "
                f"{ours.model_name} vectors cannot be mixed in"
            )
        self._model_checked = True

    def ensure(self) -> None:
        """Make sure the collection exists and takes our vectors, creating it if missing."""
        self.check_model()
        if not self._model_checked:
            ours = self.embedders.ours
            self.store.ensure_collection(self.name, ours.dim, ours.model_name)
            self._model_checked = True

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Our vectors for texts written into this collection (after :meth:`check_model`)."""
        self.check_model()
        return [row.tolist() for row in self.embedders.ours.embed_documents(texts)]


class Collections:
    """The collection services of one store, each made once and kept."""

    def __init__(self, store: NoteStore, embedders: Embedders) -> None:
        self.store = store
        self.embedders = embedders
        self._services: dict[str, CollectionService] = {}
        self._lock = threading.Lock()

    def get(self, name: str) -> CollectionService:
        """The service of the collection ``name`` (an alias or a real name)."""
        with self._lock:
            service = self._services.get(name)
            if service is None:
                service = self._services[name] = CollectionService(self.store, name, self.embedders)
            return service
