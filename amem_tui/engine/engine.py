"""MemoryEngine: the one facade the TUI, the CLI and scripts use."""

from __future__ import annotations

import re
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from amem_tui.config import Settings, cache_dir
from amem_tui.engine import scope as rules
from amem_tui.engine import search as searching
from amem_tui.engine.embed import Embedder, canonical_model_name, make_embedder
from amem_tui.engine.errors import (
    ConfigError,
    InvalidInput,
    ModelMismatch,
    NotFound,
    PermissionDenied,
    ReadOnlyStore,
    StoreUnavailable,
)
from amem_tui.engine.formats import PayloadFormat, detect_format, note_view
from amem_tui.engine.modelinfo import (
    ModelInfo,
    available_offline,
    detect_model,
    offline_embedder,
)
from amem_tui.engine.models import (
    SHARED,
    ConsolidationRun,
    EvolutionEntry,
    HiddenMatch,
    MemoryNote,
    NotePage,
    SearchResult,
    content_hash,
)
from amem_tui.engine.scope import AgentScope, Filter
from amem_tui.engine.search import SearchMode
from amem_tui.engine.store.base import CollectionInfo, NoteStore, StoredPoint, scan_points

if TYPE_CHECKING:
    from amem_tui.engine.audit import AuditReport, CollectionView, StoreStatus
    from amem_tui.engine.consolidate import Judge
    from amem_tui.engine.scheduler import ConsolidationScheduler
    from amem_tui.engine.transfer import ImportResult

Clock = Callable[[], datetime]
IdFactory = Callable[[], str]
ListScope = Literal["private", "shared", "visible", "all"]

MIN_CONTENT_CHARS = 10
#: The largest content a note may hold (UTF-8 bytes). Well under a Qdrant server's
#: request limit even with an update's old content kept in the evolution history.
MAX_CONTENT_BYTES = 4 * 1024 * 1024
_TIME_BOUND = re.compile(
    r"\b(today|tonight|tomorrow|yesterday|this (morning|afternoon|evening|week|month|weekend)|"
    r"next (week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"right now|currently|at the moment|for now|until \S+|till \S+|deadline|"
    r"in \d+ (minutes?|hours?|days?))\b",
    re.IGNORECASE,
)


def utc_now() -> datetime:
    """The real clock."""
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    """ISO 8601 with milliseconds and a Z, as openclaw-amem writes timestamps."""
    return (
        moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    )


def check_text(value: object, what: str) -> str:
    """``value`` if it is text that can be stored, else :class:`InvalidInput`.

    Any character is kept literally (markup, escapes, control characters), but
    unpaired surrogates (undecodable bytes from a command line) cannot be stored
    as UTF-8, so they are refused here rather than failing half-way in a backend.
    """
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be text, got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInput(
            f"{what} is not valid Unicode text (unpaired surrogate at position {exc.start}; "
            "was it made from bytes that are not UTF-8?)"
        ) from None
    return value


def check_texts(values: object, what: str) -> list[str]:
    """A list of storable strings (tags, keywords, links), else :class:`InvalidInput`."""
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise InvalidInput(f"{what} must be a list of text, got {type(values).__name__}")
    return [check_text(v, f"each of {what}") for v in values]


def check_content(content: object) -> str:
    """Note content that passes the quality gate, else :class:`InvalidInput`."""
    text = check_text(content, "content")
    size = len(text.encode("utf-8"))
    if size > MAX_CONTENT_BYTES:
        raise InvalidInput(
            f"content is {size} bytes; a note holds at most {MAX_CONTENT_BYTES} bytes"
        )
    stripped = text.strip()
    if len(stripped) < MIN_CONTENT_CHARS:
        raise InvalidInput(
            f"quality gate: a note needs at least {MIN_CONTENT_CHARS} characters "
            "of content (after trimming)"
        )
    if not any(ch.isprintable() and not ch.isspace() for ch in stripped):
        raise InvalidInput("quality gate: the content has no visible characters")
    return text


def compile_patterns(patterns: Sequence[str]) -> list[re.Pattern[str]]:
    """The write-time content check's patterns, compiled (case-insensitive)."""
    compiled = []
    for pattern in patterns:
        try:
            compiled.append(re.compile(pattern, re.IGNORECASE))
        except re.error as exc:
            raise ConfigError(
                f"low-quality pattern {pattern!r} is not a valid regex: {exc}"
            ) from None
    return compiled


def is_time_bound(content: str) -> bool:
    """True for wording that will go stale (the ``ephemeral`` flag)."""
    return bool(_TIME_BOUND.search(content))


def open_store(settings: Settings) -> NoteStore:
    """Open the store the settings name: a server URL, else the embedded folder.

    Embedded folders open on Qdrant Edge, unless qdrant-client's local mode wrote
    them (then they stay on it, so nothing written earlier is lost) or
    ``AMEM_BACKEND=qdrant-local`` picks qdrant-client for a new folder.
    ``:memory:`` is always qdrant-client.
    """
    if not settings.url and str(settings.store_path) != ":memory:":
        path = settings.embedded_path.expanduser()
        if path.exists() and not path.is_dir():
            raise StoreUnavailable(f"the store {path} is a file, not a store folder")
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable(
                f"cannot create the store folder {path}: {exc.strerror or exc}"
            ) from exc
        if embedded_backend(path, settings.backend) == "edge":
            # Imported here, and qdrant-client not at all: importing it builds hundreds
            # of pydantic models, which costs more than the first frame may take.
            from amem_tui.engine.store.edge import EdgeStore

            return EdgeStore(path)
    from amem_tui.engine.store.qdrant import QdrantStore

    if settings.url:
        return QdrantStore(url=settings.url, api_key=settings.api_key)
    if str(settings.store_path) == ":memory:":
        return QdrantStore(path=":memory:")
    return QdrantStore(path=str(settings.embedded_path.expanduser()))


def embedded_backend(path: Path, wanted: str | None = None) -> str:
    """Which backend opens an embedded folder: the one that wrote it, else ``wanted``.

    qdrant-client's local mode leaves ``meta.json`` (and ``collection/``); an Edge
    store leaves ``edge/``. A new folder gets ``wanted``, else Edge.
    """
    if (path / "meta.json").is_file() or (path / "collection").is_dir():
        return "qdrant-local"
    from amem_tui.engine.store.edge import is_edge_store

    if is_edge_store(path):
        return "edge"
    return wanted or "edge"


class MemoryEngine:
    """Scoped access to a memory store: every call names the acting agent.

    The engine never imports a UI toolkit. All reads are side-effect free; all
    writes go through the scope rules in :mod:`amem_tui.engine.scope`.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        store: NoteStore | None = None,
        embedder: Embedder | None = None,
        clock: Clock = utc_now,
        new_id: IdFactory | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self.store = store if store is not None else open_store(self.settings)
        if self.settings.read_only:
            from amem_tui.engine.store.readonly import ReadOnlyGuard

            # A second line of defence: even a code path that forgot to ask
            # cannot write through a store opened read-only.
            self.store = ReadOnlyGuard(self.store)
        self.embedder = embedder or make_embedder(self.settings.model, cache_dir())
        self.clock = clock
        self.new_id: IdFactory = new_id or (lambda: str(uuid.uuid4()))
        self._checked: set[str] = set()
        self._suspicious = compile_patterns(self.settings.low_quality_patterns)
        self._formats: dict[str, PayloadFormat] = {}
        self._user_ids: dict[str, tuple[int, tuple[str, ...], tuple[str, ...]]] = {}
        self._model_status: dict[str, tuple[bool, str]] = {}
        self._foreign: dict[str, Embedder] = {}
        self._write_lock = threading.RLock()
        self.judge: Judge | None = None
        self._scheduler: ConsolidationScheduler | None = None

    # ------------------------------------------------------------ lifecycle
    def close(self) -> None:
        """Stop the nightly scheduler (if started) and release the store."""
        if self._scheduler is not None:
            self._scheduler.stop()
        self.store.close()

    def __enter__(self) -> MemoryEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def read_only(self) -> bool:
        """True when every write is refused."""
        return self.settings.read_only

    def looks_low_quality(self, content: str) -> bool:
        """True when content matches the write-time check (instruction-like text).

        Such notes are flagged ``low_quality``, never refused: a person decides.
        """
        return any(p.search(content) for p in self._suspicious)

    def now(self) -> str:
        """The injected clock's time, as an ISO string."""
        return iso(self.clock())

    # --------------------------------------------------------------- agents
    @property
    def shared_collection(self) -> str:
        """The Mode A collection (also home of the shared scope)."""
        return self.settings.collection

    def scope(self, agent: str | None = None, session_key: str | None = None) -> AgentScope:
        """The scope of an agent, resolved as openclaw-amem resolves it."""
        if agent is not None:  # an explicit id, even an empty one, is never replaced
            name = rules.validate_agent_id(agent)
        else:
            name = rules.resolve_agent(
                self.settings.agent,
                session_key or self.settings.session_key,
                self.settings.default_agent,
            )
        configured = name in self.settings.configured_agents()
        return rules.scope_for(
            name, self.settings.dedicated_collections(), self.shared_collection, configured
        )

    def agents(self) -> list[AgentScope]:
        """Configured agents, then any other ``agent_id`` found in the store."""
        found = [self.scope(name) for name in self.settings.configured_agents()]
        known = {s.agent for s in found}
        for name in sorted(self.agent_ids_in_store() - known):
            try:
                found.append(self.scope(name))
            except InvalidInput:
                continue
        return found

    def agent_ids_in_store(self, page: int = 64) -> set[str]:
        """Every private ``agent_id`` in the Mode A collection (not ``shared``)."""
        seen: set[str] = set()
        if self.store.collection_info(self.shared_collection) is None:
            return seen
        if self.collection_format(self.shared_collection) == "mem0":
            return set(self._mem0_scan(self.shared_collection)[1])
        exclude: tuple[str, ...] = (SHARED,)
        # Ask for one point of an unseen agent at a time: cheap even on big stores.
        while True:
            flt = Filter(must_not=(rules.MatchAny("agent_id", exclude),))
            points = self.store.scroll(self.shared_collection, flt, limit=page)
            new = {
                p.payload["agent_id"]
                for p in points
                if isinstance(p.payload.get("agent_id"), str) and p.payload["agent_id"]
            } - seen
            if not new:
                return seen
            seen |= new
            exclude = (SHARED, *sorted(seen))

    # ---------------------------------------------------------- collections
    def collection_info(self, scope: AgentScope) -> CollectionInfo | None:
        """Facts about the agent's collection, or None if it does not exist yet."""
        return self.store.collection_info(scope.collection)

    def check_model(self, collection: str) -> None:
        """Refuse to use our vectors on a collection built by another model."""
        if collection in self._checked:
            return
        info = self.store.collection_info(collection)
        if info is None:
            return
        theirs = canonical_model_name(info.embedding_model)
        ours = self.embedder.model_name
        if theirs is not None and theirs != ours:
            raise ModelMismatch(
                f"collection '{info.name}' was built with {info.embedding_model}; "
                f"this engine embeds with {ours}: its vectors cannot be mixed"
            )
        if info.vector_size is not None and info.vector_size != self.embedder.dim:
            raise ModelMismatch(
                f"collection '{info.name}' holds {info.vector_size}-dimensional vectors; "
                f"{ours} makes {self.embedder.dim}-dimensional ones"
            )
        if theirs is None and info.vector_size is not None:
            # No metadata: we always write it, so another tool built this collection.
            guess = detect_model(info, ours, self.embedder.dim).name or "an unknown model"
            raise ModelMismatch(
                f"collection '{info.name}' names no embedding_model; its "
                f"{info.vector_size}-dimensional vectors may come from {guess}: "
                f"{ours} vectors cannot be mixed in"
            )
        self._checked.add(collection)

    def _ensure(self, collection: str) -> None:
        self.check_model(collection)
        if collection not in self._checked:
            self.store.ensure_collection(collection, self.embedder.dim, self.embedder.model_name)
            self._checked.add(collection)

    # ------------------------------------------------------ real-store formats
    def collection_format(self, collection: str) -> PayloadFormat:
        """``mem0`` for a collection of mem0 memories, else ``amem`` (aliases resolved).

        Decided once per collection name: it is asked for every point read, so it
        must not cost a store call each time.
        """
        cached = self._formats.get(collection)
        if cached is not None:
            return cached
        real = self.store.resolve_alias(collection)
        cached = self._formats.get(real)
        if cached is not None:
            self._formats[collection] = cached
            return cached
        info = self.store.collection_info(real)
        if info is None:
            return "amem"
        if info.metadata.get("created_by") == "amem-tui":
            fmt: PayloadFormat = "amem"
        else:
            sample = self.store.scroll(real, None, limit=32)
            if not sample:  # decide once there is something to look at
                return "amem"
            fmt = detect_format(p.payload for p in sample)
        self._formats[real] = self._formats[collection] = fmt
        return fmt

    def note_from_point(
        self, collection: str, point_id: str, payload: dict[str, object] | None
    ) -> MemoryNote:
        """The note a stored point reads as: a note, or a read-only view of a mem0 memory."""
        return note_view(self.collection_format(collection), point_id, payload)

    def read_filter(self, scope: AgentScope, include_inactive: bool = False) -> Filter:
        """What ``scope`` may find in its collection, in the collection's own format."""
        if scope.mode == "A" and self.collection_format(scope.collection) == "mem0":
            users = self.mem0_user_ids(scope.collection)
            return rules.mem0_read_filter(scope.agent, users)
        return rules.read_filter(scope, include_inactive)

    def mem0_user_ids(self, collection: str) -> tuple[str, ...]:
        """Every ``user_id`` in a mem0 collection (mem0 keeps the agent inside it)."""
        return self._mem0_scan(collection)[0]

    def _mem0_scan(
        self, collection: str, page: int = 1024
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The user ids of a mem0 collection and the agents they (or agent_id) map to."""
        real = self.store.resolve_alias(collection)
        if self.store.collection_info(real) is None:
            return (), ()
        total = self.store.count(real)
        cached = self._user_ids.get(real)
        if cached is not None and cached[0] == total:
            return cached[1], cached[2]
        users: set[str] = set()
        agents: set[str] = set()
        for point in scan_points(self.store, real, None, page=page):
            user = point.payload.get("user_id")
            if isinstance(user, str):
                users.add(user)
            agent = rules.mem0_agent(user, point.payload.get("agent_id"))
            if agent:
                agents.add(agent)
        found = (tuple(sorted(users)), tuple(sorted(agents)))
        self._user_ids[real] = (total, *found)
        return found

    def model_info(self, collection: str) -> ModelInfo | None:
        """The model that built a collection (metadata, else vector size), or None."""
        info = self.store.collection_info(collection)
        if info is None:
            return None
        return detect_model(info, self.embedder.model_name, self.embedder.dim)

    def model_status(self, collection: str) -> tuple[bool, str]:
        """Whether a collection can be searched by vector here, and why (or why not).

        Usable: the collection is missing (ours to create), or was built by our
        model, or by a model fastembed already has on this machine. Otherwise
        search must fall back to keywords; listing and reading always work.
        """
        real = self.store.resolve_alias(collection)
        if real in self._model_status:
            return self._model_status[real]
        info = self.store.collection_info(real)
        ours = self.embedder.model_name
        if info is None:
            return True, f"collection '{collection}' does not exist yet; {ours} will build it"
        model = detect_model(info, ours, self.embedder.dim)
        size = f"{model.vector_size}-dimensional" if model.vector_size else "unknown-size"
        named = model.name or "an unknown model"
        if model.source != "metadata":
            named = f"{named} (no embedding_model metadata; judged by vector size)"
        same_model = canonical_model_name(model.name) == ours
        if same_model and model.vector_size in (None, self.embedder.dim):
            status = (True, f"collection '{real}' was built with {ours}")
        elif self._foreign_embedder(model) is not None:
            status = (
                True,
                f"collection '{real}' was built with {named}; searching with it "
                "from the local fastembed cache",
            )
        else:
            status = (
                False,
                f"collection '{real}' was built with {named} ({size} vectors), which is not "
                f"available offline; this engine embeds with {ours}: keyword search only",
            )
        self._model_status[real] = status
        return status

    def _foreign_embedder(self, model: ModelInfo) -> Embedder | None:
        name = model.fastembed_name
        if not name:
            return None
        if name in self._foreign:
            return self._foreign[name]
        if not available_offline(name):
            return None
        embedder = offline_embedder(name)
        if model.vector_size is not None and embedder.dim != model.vector_size:
            return None
        self._foreign[name] = embedder
        return embedder

    def embedder_for(self, collection: str) -> Embedder | None:
        """The embedder whose vectors fit a collection: ours, a local one, or None."""
        usable, _ = self.model_status(collection)
        if not usable:
            return None
        model = self.model_info(collection)
        if model is None or canonical_model_name(model.name) == self.embedder.model_name:
            return self.embedder
        return self._foreign_embedder(model)

    def collections(self) -> list[CollectionView]:
        """Every collection in the store and every one the configuration names."""
        from amem_tui.engine.audit import collection_views

        return collection_views(self)

    def audit(
        self, collections: Sequence[str] | None = None, *, all_collections: bool = False
    ) -> AuditReport:
        """Scan collections (default: the configured ones; ``all_collections``: every
        collection of notes in the store) and report what needs a look."""
        from amem_tui.engine.audit import build_audit
        from amem_tui.engine.consolidate import is_runs_collection

        if all_collections:  # consolidation's run logs hold no notes
            collections = [n for n in self.store.list_collections() if not is_runs_collection(n)]
        return build_audit(self, collections)

    def status(self, agent: str | None = None) -> StoreStatus:
        """Which configuration, store, agent and collection are in use, and their model."""
        from amem_tui.engine.audit import StoreStatus

        scope = self.scope(agent)
        usable, reason = self.model_status(scope.collection)
        config_file = self.settings.config_file
        return StoreStatus(
            config_file=str(config_file) if config_file else None,
            store=self.settings.store_label,
            read_only=self.read_only,
            agent=scope.agent,
            mode=scope.mode,
            collection=scope.collection,
            resolved_collection=self.store.resolve_alias(scope.collection),
            exists=self.store.collection_info(scope.collection) is not None,
            collections=self.store.list_collections(),
            format=self.collection_format(scope.collection),
            model=self.embedder.model_name,
            searchable=usable,
            model_reason=reason,
        )

    def export_lines(self, collection: str, vectors: bool = False) -> Iterator[dict[str, Any]]:
        """Every point of a collection (aliases resolved), in id order, as export records
        (``{"id", "payload"}``, plus ``"vector"`` and ``"model"`` with ``vectors``)."""
        from amem_tui.engine.transfer import export_lines

        return export_lines(self, collection, vectors=vectors)

    def import_lines(
        self,
        lines: Iterable[str],
        collection: str,
        *,
        source: str = "-",
        skip_invalid: bool = False,
        replace: bool = False,
        dry_run: bool = False,
    ) -> ImportResult:
        """Validate export lines, then write them into ``collection`` (see ``transfer``).

        Writes nothing when any line is rejected, unless ``skip_invalid``; existing ids
        are rejected unless ``replace``.
        """
        from amem_tui.engine.transfer import import_lines

        return import_lines(
            self,
            lines,
            collection,
            source=source,
            skip_invalid=skip_invalid,
            replace=replace,
            dry_run=dry_run,
        )

    # ------------------------------------------------------------- reading
    def _load(
        self, collection: str, note_id: str, with_vector: bool = False
    ) -> tuple[MemoryNote, list[float] | None]:
        if self.store.collection_info(collection) is None:
            raise NotFound(note_id)
        points = self.store.retrieve(collection, [note_id], with_vectors=with_vector)
        if not points:
            raise NotFound(note_id)
        note = self.note_from_point(collection, points[0].id, points[0].payload)
        return note, points[0].vector

    def get(self, agent: str | AgentScope, note_id: str) -> MemoryNote:
        """A note by id, if the read rule lets the agent see it (soft-deleted included)."""
        scope = self._scope(agent)
        try:
            note, _ = self._load(scope.collection, note_id)
        except NotFound:
            raise NotFound(note_id, scope.agent) from None
        if not rules.can_read(scope, note, scope.collection):
            raise NotFound(note_id, scope.agent)
        return note

    def linked(
        self, agent: str | AgentScope, note: MemoryNote
    ) -> list[tuple[str, MemoryNote | None]]:
        """Each link of a note with its target, or None where the read rule hides it."""
        scope = self._scope(agent)
        if not note.links:
            return []
        points = {p.id: p for p in self.store.retrieve(scope.collection, note.links)}
        out: list[tuple[str, MemoryNote | None]] = []
        for link in note.links:
            point = points.get(link)
            target = (
                self.note_from_point(scope.collection, point.id, point.payload) if point else None
            )
            if target is not None and not rules.can_read(scope, target, scope.collection):
                target = None
            out.append((link, target))
        return out

    def list_filter(
        self,
        scope: AgentScope,
        which: ListScope,
        include_inactive: bool = False,
        *,
        owner: str | None = None,
        low_quality: bool = False,
    ) -> Filter:
        """The filter behind each listing, narrowed to one ``owner`` and/or to notes
        flagged ``low_quality`` when asked."""
        base = self._base_list_filter(scope, which, include_inactive, owner)
        narrow: tuple[rules.Condition, ...] = ()
        if owner and which != "shared":  # the shared filter narrows by owner itself
            narrow += (rules.Match("owner", owner),)
        if low_quality:
            narrow += (rules.Match("low_quality", True),)
        return Filter(must=(base, *narrow)) if narrow else base

    def _base_list_filter(
        self, scope: AgentScope, which: ListScope, include_inactive: bool, owner: str | None
    ) -> Filter:
        if self.collection_format(scope.collection) == "mem0":
            # mem0 has no shared scope: a filter that matches nothing stands for it.
            if which == "shared":
                never = rules.Match("agent_id", SHARED)
                return Filter(must=(never,), must_not=(never,))
            return self.read_filter(scope, include_inactive)
        if which == "private":
            return rules.private_filter(scope, include_inactive)
        if which == "shared":
            return rules.shared_filter(owner, include_inactive=include_inactive)
        return self.read_filter(scope, include_inactive)

    def list_notes(
        self,
        agent: str | AgentScope,
        which: ListScope = "visible",
        limit: int = 50,
        offset: int = 0,
        include_inactive: bool = False,
        *,
        owner: str | None = None,
        low_quality: bool = False,
    ) -> NotePage:
        """A page of the agent's private, shared or all visible notes, with the total.

        ``owner`` keeps only the notes that agent wrote (e.g. whose shared notes are
        these?); ``low_quality`` only the notes flagged by the content check.
        """
        scope = self._scope(agent)
        if owner is not None:
            rules.validate_agent_id(owner)
        if which == "shared" and not scope.has_shared_scope:
            return NotePage(total=0, offset=offset, notes=[])
        if self.store.collection_info(scope.collection) is None:
            return NotePage(total=0, offset=offset, notes=[])
        flt = self.list_filter(scope, which, include_inactive, owner=owner, low_quality=low_quality)
        points = self.store.scroll(scope.collection, flt, limit=limit, offset=offset)
        total = self.store.count(scope.collection, flt)
        notes = [self.note_from_point(scope.collection, p.id, p.payload) for p in points]
        # What a filter cannot judge (wrong types Qdrant still matches) never shows.
        notes = [n for n in notes if rules.fits_listing(scope, n, which)]
        if owner is not None:
            notes = [n for n in notes if n.owner == owner]
        return NotePage(total=total, offset=offset, notes=notes)

    def count(self, agent: str | AgentScope, which: ListScope = "visible") -> int:
        """How many notes a listing holds."""
        scope = self._scope(agent)
        if which == "shared" and not scope.has_shared_scope:
            return 0
        if self.store.collection_info(scope.collection) is None:
            return 0
        return self.store.count(scope.collection, self.list_filter(scope, which))

    def search(
        self,
        agent: str | AgentScope | None,
        query: str,
        limit: int = 10,
        mode: SearchMode = "hybrid",
        hidden: bool = False,
        session_key: str | None = None,
        *,
        exact: bool = True,
        links: bool = True,
    ) -> SearchResult:
        """What the agent finds for ``query``, best first and explained; changes nothing.

        ``mode`` is ``hybrid`` (dense + BM25, fused) or ``dense``; without a usable
        model it falls back to keyword-only and says so in ``notice``. ``hidden``
        adds the best matches the agent cannot see, with the reason. ``agent`` may
        be None with a ``session_key`` (``agent:<id>:<rest>``). See
        :mod:`amem_tui.engine.search`.
        """
        scope, key = searching.resolve_search_scope(self, agent, session_key)
        return searching.search(
            self,
            scope,
            query,
            limit=limit,
            mode=mode,
            hidden=hidden,
            exact=exact,
            links=links,
            session_key=key,
        )

    def hidden_matches(
        self,
        agent: str | AgentScope,
        query: str,
        limit: int = 10,
        mode: SearchMode = "hybrid",
        *,
        exact: bool = True,
    ) -> tuple[list[HiddenMatch], str | None]:
        """The hidden matches a search with ``hidden=True`` would add, and its notice.

        Lets an app show the hits first (``search(hidden=False)``) and these after.
        """
        return searching.hidden_matches(
            self, self._scope(agent), query, limit=limit, mode=mode, exact=exact
        )

    def warm_up(self, agent: str | AgentScope | None = None) -> None:
        """Read and index what the agent's searches use, so its next search is quick.

        For an app to call in the background after start and after writes; a search
        that comes while this runs waits for it instead of reading the store again.
        """
        searching.prepare(self, self._scope(agent))

    # ------------------------------------------------------------- writing
    def check_writable(self, collection: str | None = None) -> None:
        """Raise :class:`ReadOnlyStore` when writes are off (``--read-only``, or a mem0
        collection, which is only ever read)."""
        self._writable(collection)

    def _writable(self, collection: str | None = None) -> None:
        if self.read_only:
            raise ReadOnlyStore("the store is opened read-only (--read-only): writes are off")
        if collection is not None and self.collection_format(collection) == "mem0":
            raise ReadOnlyStore(
                f"collection '{collection}' holds mem0 memories: amem-tui reads them "
                "but never writes them"
            )

    def add(
        self,
        agent: str | AgentScope,
        content: str,
        *,
        shared: bool = False,
        tags: Sequence[str] = (),
        keywords: Sequence[str] = (),
        context: str = "",
        category: str = "General",
        note_type: Literal["memory", "knowledge"] = "memory",
        links: Sequence[str] = (),
        extra: dict[str, object] | None = None,
    ) -> MemoryNote:
        """Write a note: private by default, shared only when asked.

        Content under 10 characters (trimmed) is rejected; time-bound wording is
        flagged ``ephemeral``; content identical to a note already in the same
        scope returns that note instead of writing a copy.
        """
        self._writable()
        scope = self._scope(agent)
        self._writable(scope.collection)
        check_content(content)
        tags, keywords, links = (
            check_texts(tags, "tags"),
            check_texts(keywords, "keywords"),
            check_texts(links, "links"),
        )
        check_text(context, "context")
        check_text(category, "category")
        if note_type not in ("memory", "knowledge"):
            raise InvalidInput(f"note_type must be 'memory' or 'knowledge', got {note_type!r}")
        if shared and not scope.has_shared_scope:
            raise InvalidInput(
                f"agent '{scope.agent}' is Mode B (collection {scope.collection}): "
                "it has no shared scope, so it cannot write shared notes"
            )
        access = rules.shared_access(scope.agent) if shared else rules.private_access(scope.agent)
        digest = content_hash(content)
        with self._write_lock:
            self._ensure(scope.collection)
            existing = self._find_same_content(scope, access.agent_id, digest)
            if existing is not None:
                return existing
            now = self.now()
            note = MemoryNote(
                id=self.new_id(),
                content=content,
                keywords=list(keywords),
                tags=list(tags),
                context=context,
                links=list(links),
                timestamp=now,
                last_accessed=now,
                hash=digest,
                retrieval_count=0,
                evolution_history=[],
                category=category,
                note_type=note_type,
                topics=[],
                pending_merge=False,
                evolution_type="NEW",
                conflict=False,
                conflicts_with=[],
                conflict_reason="",
                conflict_scanned_at="",
                subjects=[],
                ephemeral=is_time_bound(content),
                low_quality=self.looks_low_quality(content),
                is_active=True,
                agent_id=access.agent_id,
                owner=access.owner,
                readers=access.readers,
                writers=access.writers,
                **(extra or {}),
            )
            vector = self.embedder.embed_documents([content])[0].tolist()
            self.store.upsert(scope.collection, [StoredPoint(note.id, note.to_payload(), vector)])
        return note

    def add_shared(self, agent: str | AgentScope, content: str, **fields: object) -> MemoryNote:
        """Write a note to the shared scope (Mode A only)."""
        return self.add(agent, content, shared=True, **fields)  # type: ignore[arg-type]

    def _find_same_content(
        self, scope: AgentScope, agent_id: str, digest: str
    ) -> MemoryNote | None:
        flt = Filter(
            must=(rules.Match("agent_id", agent_id), rules.Match("hash", digest)),
            must_not=(rules.NOT_DELETED,),
        )
        for point in self.store.scroll(scope.collection, flt, limit=1):
            return self.note_from_point(scope.collection, point.id, point.payload)
        return None

    def _modify(
        self,
        agent: str | AgentScope,
        note_id: str,
        action: str,
        change: Callable[[AgentScope, MemoryNote], bool],
        owner_only: bool = False,
    ) -> MemoryNote:
        """Load, check the write rule, apply ``change``, and store (re-embedding if asked)."""
        self._writable()
        scope = self._scope(agent)
        self._writable(scope.collection)
        with self._write_lock:
            note = self.get(scope, note_id)
            if owner_only:
                rules.require_owner(scope.agent, note, action)
            else:
                rules.require_write(scope.agent, note, action)
            owner_before = note.effective_owner
            note.materialize_access()
            reembed = change(scope, note)
            if note.owner != owner_before:  # pragma: no cover - a bug, never a user error
                raise PermissionDenied(scope.agent, note.id, action, "owner never changes")
            self._save(scope.collection, note, reembed)
        return note

    def _save(self, collection: str, note: MemoryNote, reembed: bool) -> None:
        if reembed:
            self.check_model(collection)
            vector = self.embedder.embed_documents([note.content])[0].tolist()
            self.store.upsert(collection, [StoredPoint(note.id, note.to_payload(), vector)])
        else:
            self.store.set_payload(collection, note.id, note.to_payload())

    def _record(self, note: MemoryNote, action: str, agent: str, **fields: object) -> None:
        entry = EvolutionEntry(triggeredBy=agent, triggeredAt=self.now(), action=action, **fields)
        note.evolution_history = [*note.evolution_history, entry]

    def publish(self, agent: str | AgentScope, note_id: str) -> MemoryNote:
        """Make a private note shared, in place: owner kept, ``writers=[owner]``."""

        def change(scope: AgentScope, note: MemoryNote) -> bool:
            if not scope.has_shared_scope:
                raise InvalidInput(
                    f"agent '{scope.agent}' is Mode B: it has no shared scope to publish to"
                )
            if note.is_shared:
                raise InvalidInput(f"note {note.id} is already shared")
            owner = note.effective_owner or scope.agent
            rules.apply_access(note, rules.shared_access(owner))
            self._record(
                note, "publish", scope.agent, oldContext=note.context, newContext=note.context
            )
            return False

        return self._modify(agent, note_id, "publish", change, owner_only=True)

    def unpublish(self, agent: str | AgentScope, note_id: str) -> MemoryNote:
        """Make a shared note private to its owner again (owner only)."""

        def change(scope: AgentScope, note: MemoryNote) -> bool:
            if not note.is_shared:
                raise InvalidInput(f"note {note.id} is not shared")
            owner = note.effective_owner or scope.agent
            rules.apply_access(note, rules.private_access(owner))
            self._record(note, "unpublish", scope.agent)
            return False

        return self._modify(agent, note_id, "unpublish", change, owner_only=True)

    def update(
        self,
        agent: str | AgentScope,
        note_id: str,
        *,
        content: str | None = None,
        tags: Sequence[str] | None = None,
        expected_hash: str | None = None,
    ) -> MemoryNote:
        """Change a note's content and/or tags (write rule); new content is re-embedded.

        ``expected_hash`` guards against overwriting a change made elsewhere since
        the note was loaded.
        """
        if content is None and tags is None:
            raise InvalidInput("nothing to update: give new content or tags")
        if content is not None:
            check_content(content)
        if tags is not None:
            tags = check_texts(tags, "tags")

        def change(scope: AgentScope, note: MemoryNote) -> bool:
            if expected_hash is not None and note.hash != expected_hash:
                raise InvalidInput(
                    f"note {note.id} was changed elsewhere since it was loaded; reload and retry"
                )
            old_content, old_tags = note.content, list(note.tags)
            reembed = False
            if content is not None and content != note.content:
                note.content = content
                note.hash = content_hash(content)
                note.ephemeral = is_time_bound(content)
                if self.looks_low_quality(content):  # flags, never clears another's flag
                    note.low_quality = True
                reembed = True
            if tags is not None:
                note.tags = list(tags)
            self._record(
                note,
                "crud_update",
                scope.agent,
                oldContent=old_content,
                oldTags=old_tags,
                newTags=list(note.tags),
            )
            return reembed

        return self._modify(agent, note_id, "update", change)

    def delete(self, agent: str | AgentScope, note_id: str) -> MemoryNote:
        """Soft-delete a note (``is_active=false``); nothing is ever hard-deleted."""

        def change(scope: AgentScope, note: MemoryNote) -> bool:
            note.is_active = False
            return False

        return self._modify(agent, note_id, "delete", change)

    def restore(self, agent: str | AgentScope, note_id: str) -> MemoryNote:
        """Undo a soft delete."""

        def change(scope: AgentScope, note: MemoryNote) -> bool:
            note.is_active = True
            return False

        return self._modify(agent, note_id, "restore", change)

    def put_notes(
        self,
        collection: str,
        notes: Sequence[MemoryNote],
        vectors: Sequence[Sequence[float] | None] | None = None,
    ) -> None:
        """Store notes exactly as given (demo data, imports); embeds where no vector is given.

        This bypasses the per-agent rules on purpose: it is how whole stores are
        loaded, never how an agent writes.
        """
        self._writable(collection)
        if not notes:
            return
        given = list(vectors) if vectors is not None else [None] * len(notes)
        missing = [i for i, vec in enumerate(given) if vec is None]
        with self._write_lock:
            self._ensure(collection)
            if missing:
                embedded = self.embedder.embed_documents([notes[i].content for i in missing])
                for row, i in enumerate(missing):
                    given[i] = embedded[row].tolist()
            points = [
                StoredPoint(note.id, note.to_payload(), list(vec or []))
                for note, vec in zip(notes, given, strict=True)
            ]
            for start in range(0, len(points), 256):
                self.store.upsert(collection, points[start : start + 256])

    # ---------------------------------------------------------- internals
    def _scope(self, agent: str | AgentScope) -> AgentScope:
        return agent if isinstance(agent, AgentScope) else self.scope(agent)

    def vectors_of(self, collection: str, ids: Iterable[str]) -> dict[str, np.ndarray]:
        """Stored vectors by note id (for consolidation and explanations)."""
        points = self.store.retrieve(collection, list(ids), with_vectors=True)
        return {p.id: np.asarray(p.vector, dtype=np.float32) for p in points if p.vector}

    # -------------------------------------------------------- consolidation
    def consolidate(
        self,
        agent: str | AgentScope,
        dry_run: bool = False,
        threshold: float | None = None,
        progress: Callable[[int, int], None] | None = None,
        trigger: str = "manual",
    ) -> ConsolidationRun:
        """Merge the agent's near-duplicate private notes; record the run in the store.

        Only the agent's private, active ``memory`` notes are candidates. A dry run
        returns the planned merges and writes nothing. An interrupted earlier run
        of the agent is finished first. ``progress(done, total)`` counts merges.
        """
        from amem_tui.engine.consolidate import Consolidator

        scope = self._scope(agent)
        if not dry_run:
            self._writable()
        if not dry_run or self.collection_format(scope.collection) == "mem0":
            self._writable(scope.collection)  # mem0 memories are never consolidated
        limit = self.settings.consolidation_threshold if threshold is None else threshold
        with self._write_lock:
            return Consolidator(self, self.judge).consolidate(
                scope, dry_run=dry_run, threshold=limit, progress=progress, trigger=trigger
            )

    def history(self, agent: str | None = None) -> list[ConsolidationRun]:
        """Consolidation runs, newest first: ours from the store, openclaw-amem's from notes."""
        from amem_tui.engine.consolidate import Consolidator

        scopes = [self.scope(agent)] if agent is not None else self.agents()
        return Consolidator(self, self.judge).history(scopes, agent)

    def undo(
        self, agent: str | AgentScope, run_id: str, merge_keeper: str | None = None
    ) -> ConsolidationRun:
        """Revert a run, or its one merge into ``merge_keeper``; returns the recorded undo run.

        Refused (InvalidInput) when a keeper changed since the run.
        """
        from amem_tui.engine.consolidate import Consolidator

        self._writable()
        scope = self._scope(agent)
        self._writable(scope.collection)
        with self._write_lock:
            return Consolidator(self, self.judge).undo(scope, run_id, merge_keeper)

    @property
    def scheduler(self) -> ConsolidationScheduler:
        """The nightly consolidation scheduler (created on first use, not started)."""
        if self._scheduler is None:
            from amem_tui.engine.scheduler import ConsolidationScheduler

            self._scheduler = ConsolidationScheduler(self)
        return self._scheduler
