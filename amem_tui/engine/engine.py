"""MemoryEngine: the one facade the TUI, the CLI and scripts use.

It wires the parts together and delegates: agents (``agents``), collections
(``collections``), one agent's reads and writes (``agent_view``, over ``reading``,
``notes`` and ``search``), consolidation (``consolidation``), inventory, the
whole-store reviews (``review``: audit, leaks, checks, conflicts, health), export
and import. Each part takes the narrow service it needs.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from amem_tui.engine.agent_view import AgentView
from amem_tui.engine.agents import AgentDirectory, Stranger, agent_stranger, mem0_stranger
from amem_tui.engine.bookkeeping import is_own_bookkeeping
from amem_tui.engine.clock import Clock, IdFactory, Timekeeper, iso, new_uuid, utc_now
from amem_tui.engine.collections import Collections, CollectionService
from amem_tui.engine.embed import Embedder, make_embedder
from amem_tui.engine.embedders import Embedders
from amem_tui.engine.embedding.report import QueryEmbedding
from amem_tui.engine.errors import READ_ONLY_MESSAGE, InvalidInput, ReadOnlyStore
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.notes import NoteWriter
from amem_tui.engine.reading import ListScope
from amem_tui.engine.review import StoreReview
from amem_tui.engine.run_records import ConsolidationRun
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.search import SearchSpace
from amem_tui.engine.settings import EngineSettings
from amem_tui.engine.store.base import NoteStore
from amem_tui.engine.wiring import (
    embedding_setup,
    find_mem0_collection,
    model_choices,
    open_store,
)
from amem_tui.paths import cache_dir

if TYPE_CHECKING:
    from amem_tui.engine.audit import AuditReport
    from amem_tui.engine.compare import CompareScope, Comparison
    from amem_tui.engine.conflicts import ConflictList
    from amem_tui.engine.consolidation.scheduler import ConsolidationScheduler
    from amem_tui.engine.health import HealthReport, WriteSeries
    from amem_tui.engine.inventory import CollectionView, StoreStatus
    from amem_tui.engine.isolation import (
        Change,
        CheckFile,
        CheckRun,
        LeakReport,
        QueryHistory,
        RecordedQuery,
        WhatIf,
    )
    from amem_tui.engine.stats import StoreStats
    from amem_tui.engine.stats.cache import CountCache
    from amem_tui.engine.transfer import ImportProgress, ImportResult

__all__ = ["ListScope", "MemoryEngine", "iso", "open_store", "utc_now"]

Progress = Callable[[int, int], None]


class MemoryEngine:
    """Scoped access to a memory store: every call names the acting agent.

    The engine never imports a UI toolkit. All reads are side-effect free; all
    writes go through the scope rules in ``amem_tui.engine.scope``.
    """

    def __init__(
        self,
        settings: EngineSettings | None = None,
        *,
        store: NoteStore | None = None,
        embedder: Embedder | None = None,
        clock: Clock = utc_now,
        new_id: IdFactory | None = None,
    ) -> None:
        self.settings = settings or EngineSettings()
        self.embedder = embedder or make_embedder(self.settings.model, cache_dir())
        self._embedders = Embedders(self.embedder, embedding_setup(self.settings))
        self.time = Timekeeper(clock, new_id or new_uuid)
        self._lock = threading.RLock()
        self._writer = NoteWriter(self.time, self._lock, self.settings.low_quality_patterns)
        self._scheduler: ConsolidationScheduler | None = None
        self.store = store if store is not None else open_store(self.settings)

    # ------------------------------------------------------------ lifecycle
    @property
    def store(self) -> NoteStore:
        """The store every call reads and writes (read-only guarded when asked)."""
        return self._store

    @store.setter
    def store(self, store: NoteStore) -> None:
        # A new store starts from fresh collection services: nothing cached carries over.
        if self.settings.read_only:
            from amem_tui.engine.store.readonly import ReadOnlyGuard

            # A second line of defence: even a code path that forgot to ask
            # cannot write through a store opened read-only.
            store = store if isinstance(store, ReadOnlyGuard) else ReadOnlyGuard(store)
        self._store = store
        self._collections = Collections(
            store, self._embedders, model_choices(self.settings), cache_dir() / "index"
        )
        self._collection_found = False
        self._count_cache: CountCache | None = None

    def close(self) -> None:
        """Stop the nightly scheduler (if started) and release the store."""
        if self._scheduler is not None:
            self._scheduler.stop()
        self._collections.save_indexes()
        self.store.close()

    def release_memory(self) -> int:
        """Hand back what the process holds of the store's files and no longer needs
        (an embedded store's pages mapped to read them: they stay in the page cache);
        for an app to call now and then. Returns the bytes of mappings released."""
        return self.store.release_pages()

    def __enter__(self) -> MemoryEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def read_only(self) -> bool:
        """True when every write is refused."""
        return self.settings.read_only

    @property
    def clock(self) -> Clock:
        """The injected clock."""
        return self.time.clock

    # --------------------------------------------------------------- agents
    @property
    def shared_collection(self) -> str:
        """The Mode A collection (also home of the shared scope).

        Left at its default, it may be a mem0 collection found in the store under the
        names the OpenClaw mem0 plugin gives (see ``find_mem0_collection``).
        """
        if not self._collection_found:
            self._collection_found = True
            if not self.settings.collection_chosen:
                found = find_mem0_collection(self._collections, self.settings)
                if found is not None:
                    self.settings = self.settings.model_copy(update={"collection": found})
        return self.settings.collection

    def _directory(self) -> AgentDirectory:
        # The shared collection first: finding a mem0 collection replaces the settings.
        shared = self._service(self.shared_collection)
        return AgentDirectory(self.settings, shared)

    def scope(self, agent: str | None = None, session_key: str | None = None) -> AgentScope:
        """The scope of an agent, resolved as the plugin that wrote the store resolves it."""
        return self._directory().scope(agent, session_key)

    def session_views(
        self, session_key: str, current: AgentScope | None = None
    ) -> list[AgentScope]:
        """The views an agent's session key reads, each labelled by ``AgentScope.view``.

        One view, except on a mem0 collection: its memory_search view, then its
        auto-recall view (what the plugin injects before a turn; a subagent's search
        view reads ``<user>:agent:subagent-<name>``, its recall view the plain user id).
        ``current``'s user is kept when the settings name none.
        """
        user = current.user if current is not None else None
        return self._directory().session_views(session_key, user)

    def agents(self) -> list[AgentScope]:
        """Configured agents, then any other agent found in the store (in a mem0 store:
        every user and agent pair)."""
        return self._directory().agents()

    def named_agent(self, name: str, *, user: str | None = None) -> AgentView:
        """An agent's view by name, as findings and checks name agents: an agent id, or in
        a mem0 collection a namespace (``alice:agent:dev``) or an agent of ``user``."""
        directory = self._directory()
        if directory.shared.format == "mem0":
            if user is None and name in directory.shared.namespaces():
                return self.agent(directory.named(name))
            return self.agent(directory.mem0_scope(name, None, user=user))
        if user is not None:
            raise InvalidInput(
                f"user '{user}' names a mem0 user, and '{self.shared_collection}' holds "
                "openclaw-amem notes (agents have no users there)"
            )
        return self.agent(name)

    # ---------------------------------------------------------- collections
    def open_collection_of(self, agent: str | None = None) -> None:
        """Open the collection ``agent`` reads (an embedded store loads its shard here:
        seconds at a million notes), so a caller chooses when that wait happens."""
        self._service(self.scope(agent).collection).info()

    def _service(self, name: str) -> CollectionService:
        """The service of one collection: its format, model, read rules and notes (the
        engine's parts take it; it is never handed out)."""
        return self._collections.get(name)

    def real_collection(self, name: str) -> str:
        """The collection ``name`` stands for: an alias resolved (the name itself while
        no collection has it)."""
        return self._service(name).real_name

    def is_empty(self) -> bool:
        """True when no collection of the store holds a point (none may exist yet)."""
        for name in self.store.list_collections():
            info = self.store.collection_info(name)
            if info is not None and info.points_count:
                return False
        return True

    def namespaces(self, collection: str) -> tuple[str, ...]:
        """Every ``user_id`` of a mem0 collection, each one namespace of the mem0 plugin,
        sorted (none in a collection of openclaw-amem notes, or a missing one)."""
        return self._service(collection).namespaces()

    def query_embedding(self, collection: str | None = None) -> QueryEmbedding:
        """How queries of ``collection`` (default: the Mode A one) are embedded here: the
        model, pooling, weights file and where they were found, and whether searches are
        exact, approximate or by words only, and why."""
        service = self._collections.get(collection or self.shared_collection)
        return service.model.query_embedding()

    def allow_remote_embeddings(self, allowed: bool) -> None:
        """Allow (or stop) embedding mem0 queries with the plugin's own embedder, which
        sends them to its endpoint (``remote_embeddings``); from the next query on."""
        self.settings = self.settings.model_copy(update={"remote_embeddings": allowed})
        self._embedders.allow_remote(allowed)
        self._collections.choose_embedders_again()

    def load_models(self) -> None:
        """Load, now, every model a search of the configured collections uses: the
        engine's own, and the agents' own models that run here. Blocking: call it from a
        worker thread (an app's first frame never waits for it). A model that cannot
        load is left for the search to report."""
        for embedder in self._models():
            with contextlib.suppress(Exception):
                embedder.load()

    def models_loaded(self) -> bool:
        """True when ``load_models`` has nothing left to load."""
        return all(embedder.loaded for embedder in self._models())

    def _models(self) -> list[Embedder]:
        names = [self.shared_collection, *self.settings.dedicated_collections().values()]
        found: list[Embedder] = [self.embedder]
        for name in dict.fromkeys(names):
            service = self._collections.get(name)
            embedder = service.model.embedder() if service.exists() else None
            if embedder is not None and all(embedder is not e for e in found):
                found.append(embedder)
        return found

    def collections(self) -> list[CollectionView]:
        """Every collection in the store and every one the configuration names."""
        from amem_tui.engine.inventory import collection_views

        _ = self.shared_collection  # a mem0 collection found in the store is the configured one
        return collection_views(self._collections, self.settings, self.read_only)

    def status(self, agent: str | None = None) -> StoreStatus:
        """Which configuration, store, agent and collection are in use, and their model."""
        from amem_tui.engine.inventory import store_status

        return store_status(
            self._directory(), self._service, self.settings, self.store, self.embedder, agent
        )

    # ------------------------------------------------------ whole-store reviews
    def _review(self) -> StoreReview:
        # Made per call: a new store brings new collection services.
        return StoreReview(self, self._collections, self._service, self._directory, self._overlaid)

    def _overlaid(self) -> MemoryEngine:
        # The what-if's shadow: this engine over an overlay that takes the change in
        # memory, its clock stopped so that both runs see the same moment.
        from amem_tui.engine.isolation import OverlayStore

        moment = self.clock()
        return MemoryEngine(
            self.settings,
            store=OverlayStore(self.store),
            embedder=self.embedder,
            clock=lambda: moment,
        )

    def audit(
        self, collections: Sequence[str] | None = None, *, all_collections: bool = False
    ) -> AuditReport:
        """What needs a look in collections (see ``StoreReview.audit``)."""
        return self._review().audit(collections, all_collections=all_collections)

    def leaks(
        self, collections: Sequence[str] | None = None, *, progress: Progress | None = None
    ) -> LeakReport:
        """The leak audit: what of each agent's private memory another can reach (see
        ``StoreReview.leaks``). Reading only."""
        return self._review().leaks(collections, progress=progress)

    def check(self, checks: CheckFile | str | Path) -> CheckRun:
        """Run memory checks, each searching as its agent (see ``StoreReview.check``)."""
        return self._review().check(checks)

    def what_if(
        self,
        change: Change,
        *,
        checks: CheckFile | str | Path | None = None,
        queries: Sequence[RecordedQuery] | None = None,
        top: int = 5,
    ) -> WhatIf:
        """What ``change`` would do, worked out without writing anything (see
        ``StoreReview.what_if``)."""
        return self._review().what_if(change, checks=checks, queries=queries, top=top)

    def check_ready(self, checks: CheckFile) -> None:
        """Raise ``CheckFileError`` for a check ``check`` would refuse before searching."""
        self._review().check_ready(checks)

    def query_history(self, path: Path | None = None) -> QueryHistory:
        """This store's agents' recent queries (see ``StoreReview.query_history``)."""
        return self._review().query_history(path)

    def conflicts(self) -> ConflictList:
        """Every flagged pair and dangling flag in the agents' collections, with no read
        rule (see ``StoreReview.conflicts``)."""
        return self._review().conflicts()

    def health(self) -> HealthReport:
        """Whether memory is being written and kept well (see ``StoreReview.health``).
        Writes nothing."""
        return self._review().health()

    def write_series(self, days: int = 30) -> WriteSeries:
        """Writes per agent per day over the last ``days`` UTC days (for a chart)."""
        return self._review().write_series(days)

    def note_collections(self) -> list[str]:
        """Every collection of notes in the store, by name (run logs, versions and other
        tools' bookkeeping hold no notes)."""
        return [
            name
            for name in self.store.list_collections()
            if not is_own_bookkeeping(name) and self._service(name).bookkeeping() is None
        ]

    # ------------------------------------------------------ compare, stats
    def compare(
        self,
        a: str | AgentScope,
        b: str | AgentScope,
        which: CompareScope = "visible",
        *,
        query: str | None = None,
        limit: int | None = None,
        progress: Progress | None = None,
    ) -> Comparison:
        """Two agents' views: notes seen by A only, B only and both (a page of each, 20
        unless ``limit`` says), or with ``query`` both ranked results side by side, each
        as many as that agent's own search returns unless ``limit`` says; each note says
        why each side can or cannot read it. A name may be a mem0 namespace. See
        ``compare``."""
        import amem_tui.engine.compare as comparing

        named = self._directory().named
        scopes = [s if isinstance(s, AgentScope) else named(s) for s in (a, b)]
        return comparing.compare(
            comparing.sides_of(scopes, self._service),
            which=which,
            limit=limit,
            query=query,
            search_as=lambda scope: self.agent(scope).search(query or "", limit=limit),
            dedicated=self.settings.dedicated_collections(),
            progress=progress,
        )

    def stats(self, progress: Progress | None = None) -> StoreStats:
        """The whole store at a glance, per agent, read a page at a time (see ``stats``);
        ``progress(done, total)`` counts points read."""
        from amem_tui.engine.stats import build_stats

        return build_stats(self.agents(), self._service, self.history, progress)

    def counted_stats(
        self,
        complete: bool = False,
        history: bool = True,
        *,
        quick: bool = False,
        recalls: bool = True,
    ) -> StoreStats | None:
        """The same figures from the store's indexes, without reading the notes: malformed
        points are left ``pending`` (only ``stats`` reads them all), unless
        ``complete`` and the note index names them. ``history`` False leaves the
        consolidation figures pending too; ``quick`` counts only the cheapest figures
        (points, private, shared by, visible) and leaves the rest pending, for a screen
        to draw first; ``recalls`` False leaves what gets recalled pending. Each
        collection's counts are kept while its revision stays, so asking again costs
        only what was written since. None when a collection cannot be counted this way
        (see ``stats.counts``)."""
        from amem_tui.engine.stats import count_stats
        from amem_tui.engine.stats.cache import CountCache

        if self._count_cache is None:
            self._count_cache = CountCache()
        runs = self.history if history else None
        return count_stats(
            self.agents(),
            self._service,
            runs,
            complete,
            quick,
            recalls=recalls,
            cache=self._count_cache,
        )

    def revisions(self) -> list[int | None]:
        """How many writes each collection the agents read has had (see
        ``NoteStore.revision``; None where the store cannot tell): what moves when a
        whole-store figure may have changed."""
        names = dict.fromkeys(self._service(s.collection).real_name for s in self.agents())
        return [self.store.revision(name) for name in names]

    def known_agents(self) -> set[str]:
        """The agents the configuration names or the store holds (a mistyped ``--agent``
        is none of them)."""
        return {scope.agent for scope in self.agents()}

    def stranger(self, scope: AgentScope) -> Stranger | None:
        """What this store does not know of ``scope`` (an agent neither configured nor in
        the store; a mem0 view whose ``user_id`` holds nothing), with the nearest known
        name, or None when it knows it: a mistyped name would read or write nothing."""
        if scope.is_mem0_view:
            namespaces = sorted(self.namespaces(scope.collection))
            return mem0_stranger(scope, namespaces, exact=bool(self.settings.namespace))
        if scope.agent in self.settings.configured_agents():
            return None  # configured: known without reading the store
        return agent_stranger(scope.agent, sorted(self.known_agents()))

    # --------------------------------------------------------- one agent's view
    def _space(self, scope: AgentScope) -> SearchSpace:
        dedicated = self.settings.dedicated_collections()
        names = [scope.collection]
        for name in [self.shared_collection, *sorted(set(dedicated.values()))]:
            if name not in names:
                names.append(name)
        return SearchSpace(
            scope, tuple(self._service(n) for n in names), dedicated, self.settings.mem0
        )

    def agent(
        self, agent: str | AgentScope | None = None, *, session_key: str | None = None
    ) -> AgentView:
        """One agent's reads and writes, its scope resolved once (see ``AgentView``).

        ``agent`` is an id, a scope already resolved, or None for the configured agent;
        with no agent, a ``session_key`` (``agent:<id>:<rest>``) resolves to its agent,
        as the plugin that wrote the store resolves it.
        """
        scope, key = self._directory().view_scope(agent, session_key)
        return AgentView(
            scope,
            space=self._space(scope),
            writer=self._writer,
            time=self.time,
            lock=self._lock,
            read_only=self.read_only,
            threshold=self.settings.consolidation_threshold,
            session_key=key,
        )

    def check_writable(self, collection: str | None = None) -> None:
        """Raise ``ReadOnlyStore`` when writes are off (``--read-only``, or a mem0
        collection, which is only ever read)."""
        if self.read_only:
            raise ReadOnlyStore(READ_ONLY_MESSAGE)
        if collection is not None:
            self._service(collection).check_writable()

    def put_notes(
        self,
        collection: str,
        notes: Sequence[MemoryNote],
        vectors: Sequence[Sequence[float] | None] | None = None,
        *,
        skip_existing: bool = False,
    ) -> None:
        """Store notes exactly as given (demo data, imports); embeds where no vector is given.

        ``skip_existing`` leaves alone the notes whose id the collection already holds
        (a loader that adds only what is missing). This bypasses the per-agent rules on
        purpose: it is how whole stores are loaded, never how an agent writes.
        """
        service = self._service(collection)
        if skip_existing and service.exists():
            stored = service.fetch(n.id for n in notes)
            given = list(vectors) if vectors is not None else [None] * len(notes)
            kept = [i for i, note in enumerate(notes) if note.id not in stored]
            if not kept:
                return  # nothing to write: no refusal either
            notes = [notes[i] for i in kept]
            vectors = [given[i] for i in kept]
        self.check_writable(collection)
        self._writer.put(service, notes, vectors)

    # ------------------------------------------------------- export, import
    def export_lines(self, collection: str, vectors: bool = False) -> Iterator[dict[str, Any]]:
        """Every point of a collection (aliases resolved), in id order, as export records
        (``{"id", "payload"}``, plus ``"vector"`` and ``"model"`` with ``vectors``)."""
        from amem_tui.engine.transfer import export_lines

        return export_lines(self._service(collection), vectors=vectors)

    def import_lines(
        self,
        lines: Iterable[str],
        collection: str,
        *,
        source: str = "-",
        skip_invalid: bool = False,
        replace: bool = False,
        dry_run: bool = False,
        progress: ImportProgress | None = None,
    ) -> ImportResult:
        """Validate export lines, then write them into ``collection`` (see ``transfer``).

        Writes nothing when any line is rejected, unless ``skip_invalid``; existing ids
        are rejected unless ``replace``. After writing, the store is settled (Edge's
        graph built) and the note index saved, so the next session starts quick;
        ``progress(phase, done, total)`` hears of every step.
        """
        from amem_tui.engine.transfer import import_lines, settle

        if not dry_run:
            self.check_writable(collection)  # refuse before reading the file
        service = self._service(collection)
        result = import_lines(
            service,
            self._writer,
            lines,
            source=source,
            skip_invalid=skip_invalid,
            replace=replace,
            dry_run=dry_run,
            progress=progress,
        )
        if result.written:
            settle(self.store, service, progress)
        return result

    # -------------------------------------------------------- consolidation
    def history(self) -> list[ConsolidationRun]:
        """Consolidation runs of every agent, newest first: ours from the store,
        openclaw-amem's rebuilt from notes (one agent's: ``agent(name).history()``)."""
        from amem_tui.engine.consolidation import Consolidator

        services = [self._service(s.collection) for s in self.agents()]
        return Consolidator(self.store, self.time, self._lock).history(services, None)

    def run_named(self, given: str) -> ConsolidationRun | None:
        """The run of any agent (see ``history``) whose id is ``given`` or starts with
        it, in any case; None when none is. ``AmbiguousId`` names the runs it starts
        when there are several."""
        from amem_tui.engine.run_records import run_named

        return run_named(self.history(), given)

    @property
    def scheduler(self) -> ConsolidationScheduler:
        """The nightly consolidation scheduler (created on first use, not started)."""
        if self._scheduler is None:
            from amem_tui.engine.consolidation.scheduler import ConsolidationScheduler

            self._scheduler = ConsolidationScheduler(self)
        return self._scheduler
