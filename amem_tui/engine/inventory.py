"""What a store holds: every collection with its format, model and users, and the status
of what is in use."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, Field

from amem_tui.engine.agents import AgentDirectory
from amem_tui.engine.bookkeeping import is_own_bookkeeping
from amem_tui.engine.collections import Collections, CollectionService
from amem_tui.engine.embed import Embedder
from amem_tui.engine.embedding.report import QueryEmbedding
from amem_tui.engine.errors import UserNotChosen
from amem_tui.engine.scope import DEFAULT_AGENT, AgentScope
from amem_tui.engine.settings import EngineSettings
from amem_tui.engine.store.base import NoteStore


class CollectionView(BaseModel):
    """One collection as the engine sees it: format, model, who uses it."""

    name: str
    exists: bool
    aliases: list[str] = Field(default_factory=list)
    configured_as: list[str] = Field(default_factory=list)
    points: int = 0
    vector_size: int | None = None
    embedding_model: str | None = None
    model: str | None = None
    model_source: str = "none"
    format: str = "amem"
    searchable: bool = True
    model_reason: str = ""
    read_only: bool = False
    read_only_reason: str | None = None
    used_by: list[str] = Field(default_factory=list)
    mode: str | None = None
    #: What another tool keeps in it, when it holds no notes (mem0's bookkeeping).
    bookkeeping: str | None = None
    #: How its queries are embedded here, and how exact its searches are.
    embedding: QueryEmbedding | None = None


class StoreStatus(BaseModel):
    """What is in use: configuration file, store, agent, collection, format and model."""

    config_file: str | None
    store: str
    read_only: bool
    agent: str
    mode: str
    collection: str
    resolved_collection: str
    exists: bool
    collections: list[str]
    format: str
    model: str
    searchable: bool
    model_reason: str
    #: The model that built the collection, and where that was learnt (``ModelSource``:
    #: metadata, a setting, --model, the mem0 plugin entry, or none).
    collection_model: str | None = None
    model_source: str = "none"
    #: In a mem0 collection: the user whose memories are read, the exact ``user_id``
    #: read, and which view of a session it is (``search``, ``recall``, ``agentId``).
    user: str | None = None
    namespace: str | None = None
    view: str | None = None
    #: In a mem0 collection: every user whose memories it holds (status is store-wide,
    #: so several users and none chosen is no error; the reads then need --user).
    users: list[str] = Field(default_factory=list)
    #: How the collection's queries are embedded here, and how exact searches are.
    embedding: QueryEmbedding | None = None


def collection_views(
    collections: Collections, settings: EngineSettings, read_only: bool
) -> list[CollectionView]:
    """Every collection of the store plus every configured one (existing or not)."""
    store = collections.store
    dedicated = settings.dedicated_collections()
    configured: dict[str, list[str]] = {}  # configured name -> agents using it
    mode_a = [a for a in settings.configured_agents() if a not in dedicated]
    configured.setdefault(settings.collection, []).extend(mode_a)
    for agent, name in dedicated.items():
        configured.setdefault(name, []).append(agent)
    by_real: dict[str, CollectionView] = {}
    for name in store.list_collections():
        if is_own_bookkeeping(name):  # run logs and versions hold no notes
            continue
        by_real[name] = _view(collections.get(name), read_only)
    for name, agents in configured.items():
        real = store.resolve_alias(name)
        view = by_real.get(real)
        if view is None:
            view = CollectionView(name=name, exists=False, model_reason="does not exist yet")
            by_real[name] = view
        view.configured_as.append(name)
        view.used_by.extend(a for a in agents if a not in view.used_by)
        mode = "A" if name == settings.collection else "B"
        view.mode = mode if view.mode in (None, mode) else "A+B"
    return [by_real[k] for k in sorted(by_real)]


def _view(service: CollectionService, read_only: bool) -> CollectionView:
    info = service.info()
    if info is None:  # pragma: no cover - listed a moment ago
        return CollectionView(name=service.name, exists=False)
    bookkeeping = service.bookkeeping()
    model = service.model.info() if bookkeeping is None else None
    usable, reason = service.model.status() if bookkeeping is None else (False, "")
    fmt = service.format
    read_only_reason = None
    if read_only:
        read_only_reason = "opened with --read-only"
    elif bookkeeping is not None:
        read_only_reason = bookkeeping
    elif fmt == "mem0":
        read_only_reason = "mem0 memories are read, never written"
    if bookkeeping is not None:  # no memories: neither a format of notes nor a model
        fmt, usable, reason = "mem0", False, f"{bookkeeping}: never searched"
    return CollectionView(
        name=info.name,
        exists=True,
        aliases=sorted(info.aliases),
        points=info.points_count,
        vector_size=info.vector_size,
        embedding_model=info.embedding_model,
        model=model.name if model and bookkeeping is None else None,
        model_source=model.source if model and bookkeeping is None else "none",
        format=fmt,
        searchable=usable,
        model_reason=reason,
        read_only=read_only_reason is not None,
        read_only_reason=read_only_reason,
        bookkeeping=bookkeeping,
        embedding=service.model.query_embedding() if bookkeeping is None else None,
    )


def store_status(
    directory: AgentDirectory,
    service_of: Callable[[str], CollectionService],
    settings: EngineSettings,
    store: NoteStore,
    embedder: Embedder,
    agent: str | None,
) -> StoreStatus:
    """Which configuration, store, agent and collection are in use, and their model
    (``agent`` None: the configured one)."""
    try:
        scope = directory.scope(agent)
    except UserNotChosen:  # store-wide: several users, none chosen, is no error here
        scope = AgentScope(
            agent or settings.agent or DEFAULT_AGENT,
            "A",
            settings.collection,
            configured=False,
        )
    service = service_of(scope.collection)
    usable, reason = service.model.status()
    built_by = service.model.info()
    config_file = settings.config_file
    users = directory.mem0_users() if service.format == "mem0" else []
    return StoreStatus(
        config_file=str(config_file) if config_file else None,
        store=settings.store_label,
        read_only=settings.read_only,
        agent=scope.agent,
        mode=scope.mode,
        collection=scope.collection,
        resolved_collection=service.real_name,
        exists=service.exists(),
        collections=store.list_collections(),
        format=service.format,
        model=embedder.model_name,
        searchable=usable,
        model_reason=reason,
        collection_model=built_by.name if built_by else None,
        model_source=built_by.source if built_by else "none",
        user=scope.user,
        namespace=scope.namespace,
        view=scope.view,
        users=users,
        embedding=service.model.query_embedding(),
    )
