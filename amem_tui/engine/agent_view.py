"""One agent's memory, its scope resolved once: what ``MemoryEngine.agent()`` returns.

An ``AgentView`` reads as its agent (listings, notes by id, search, follow-mode
probes), writes as its agent (every write refused on a read-only store or a mem0
collection, and checked against the write rule of ``amem_tui.engine.scope``
before ``NoteWriter`` changes the store) and consolidates
the agent's private notes. It is made of the narrow parts it needs (the agent's
collection, its search space, the note writer, the clock), never the engine facade.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

import amem_tui.engine.graph as graph
import amem_tui.engine.reading as reading
import amem_tui.engine.scope as rules
import amem_tui.engine.search as searching
from amem_tui.engine.clock import Timekeeper
from amem_tui.engine.embedding.report import QueryEmbedding
from amem_tui.engine.errors import READ_ONLY_MESSAGE, AmemError, ReadOnlyStore
from amem_tui.engine.formats import PayloadFormat, mem0
from amem_tui.engine.models import MemoryNote, NotePage
from amem_tui.engine.note_input import shared_note_readers_refusal, shared_readers_refusal
from amem_tui.engine.notes import NoteType, NoteWriter
from amem_tui.engine.reading import ListScope
from amem_tui.engine.run_records import ConsolidationRun, RunTrigger
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.search import SearchMode, SearchSpace
from amem_tui.engine.search_results import HiddenMatch, SearchResult, VisibleBecause
from amem_tui.engine.versions import NoteHistory

if TYPE_CHECKING:
    from amem_tui.engine.collections import CollectionService
    from amem_tui.engine.conflicts import ConflictDesk
    from amem_tui.engine.consolidation import ConsolidationPlan, Consolidator
    from amem_tui.engine.watch import Probe

Progress = Callable[[int, int], None]

#: Actions only a note's owner may take (choosing readers shares a note, as publishing does).
READERS_ACTION = "set the readers of"
OWNER_ACTIONS = frozenset({"publish", "unpublish", READERS_ACTION})


class AgentView:
    """One agent's reads and writes, in the scope it was made with.

    Cheap to make: an app makes one per call (``engine.agent(scope).list_notes()``) or
    keeps one while its agent stays the same. A view keeps the store it was made on.
    """

    def __init__(
        self,
        scope: AgentScope,
        *,
        space: SearchSpace,
        writer: NoteWriter,
        time: Timekeeper,
        lock: threading.RLock,
        read_only: bool,
        threshold: float,
        session_key: str | None = None,
    ) -> None:
        #: Whose memory this is, resolved as the plugin that wrote the store resolves it.
        self.scope = scope
        #: The session key the scope was resolved from (None: the agent was named).
        self.session_key = session_key
        self._space = space
        self._writer = writer
        self._time = time
        self._lock = lock
        self._read_only = read_only
        self._threshold = threshold

    def __repr__(self) -> str:
        return f"AgentView({self.scope.agent!r}, mode={self.scope.mode}, {self.scope.collection!r})"

    @property
    def name(self) -> str:
        """The agent's id."""
        return self.scope.agent

    @property
    def _service(self) -> CollectionService:
        """The agent's collection (its format, model and read rules)."""
        return self._space.own

    @property
    def format(self) -> PayloadFormat:
        """The payload format of the agent's collection: ``amem`` (openclaw-amem notes)
        or ``mem0`` (mem0 memories, read as the mem0 plugin reads them, never written)."""
        return self._service.format

    def collection_exists(self) -> bool:
        """True once the agent's collection exists (its first write creates it)."""
        return self._service.exists()

    def visible_because(self, note: MemoryNote) -> VisibleBecause | None:
        """Why the agent's searches and listings find ``note`` (its own private note, a
        shared one, or its Mode B collection's), or None when they never return it."""
        return self._service.visible_because(self.scope, note)

    # -------------------------------------------------------------- reading
    def list_notes(
        self,
        which: ListScope = "visible",
        limit: int = 50,
        offset: int = 0,
        include_inactive: bool = False,
        *,
        owner: str | None = None,
        low_quality: bool = False,
        run_id: str | None = None,
    ) -> NotePage:
        """A page of the agent's private, shared or all visible notes, with the total.

        ``owner`` keeps only the notes that agent wrote (e.g. whose shared notes are
        these?); ``low_quality`` only the notes flagged by the content check;
        ``run_id`` only one session's short-term memories (mem0's ``run_id``).
        """
        return reading.list_notes(
            self._service,
            self.scope,
            which,
            limit,
            offset,
            include_inactive,
            owner=owner,
            low_quality=low_quality,
            run_id=run_id,
        )

    def count(self, which: ListScope = "visible") -> int:
        """How many notes a listing holds."""
        return reading.count(self._service, self.scope, which)

    def get(self, note_id: str) -> MemoryNote:
        """A note by id, if the read rule lets the agent see it (soft-deleted included)."""
        return reading.read_note(self._service, self.scope, note_id)

    def get_only_sentence(self, note: MemoryNote) -> str | None:
        """What an openclaw-amem agent gets of a note it reads only by id (its
        ``getNote`` returns it; its search, listing and count never do), in one
        sentence; None when the agent finds the note, or in a mem0 collection."""
        if self._service.format != "amem":
            return None
        return rules.get_only_sentence(self.scope, note)

    def linked(self, note: MemoryNote) -> list[tuple[str, MemoryNote | None]]:
        """Each link of a note with its target, or None where the read rule hides it."""
        return reading.linked(self._service, self.scope, note)

    def versions(self, note_id: str) -> NoteHistory:
        """Every version of a note the agent may read (the get rule), oldest first: each
        write amem-tui made, and the changes other tools made between them (``outside``;
        the last one unrecorded when the note changed since amem-tui last wrote it)."""
        return reading.note_history(self._service, self.scope, note_id)

    def neighbourhood(self, note_id: str, depth: int = graph.DEPTH) -> graph.Neighbourhood:
        """The notes ``note_id`` links to and those linking to it, ``depth`` links out,
        as the agent may see them (the unreadable ones counted, never named)."""
        return graph.neighbourhood(self._service, self.scope, self.get(note_id), depth)

    def redact(self, notes: Sequence[MemoryNote]) -> list[MemoryNote]:
        """Copies of ``notes`` fit to show the agent: links and conflicts to notes it may
        not read are dropped and counted (``unreadable_links``, ``unreadable_conflicts``)."""
        return reading.redact(self._service, self.scope, notes)

    def probe(self, watch: Sequence[str] = (), since: Probe | None = None) -> Probe:
        """A cheap look at the agent's memory, to follow it while others write it.

        Counts of its panes and run log, the ``watch``-ed notes as stored now, and the
        notes created since the previous probe ``since`` (see ``watch``). On an
        embedded store nothing is read while nothing was written.
        """
        from amem_tui.engine.watch import probe

        return probe(self._service, self.scope, watch, since, self._time.clock)

    # ------------------------------------------------------------ searching
    def search_limit(self, mode: SearchMode | None = None) -> int:
        """The matches ``search`` returns when no limit is named: memory_search's 5, or
        in the mem0 plugin's ranking its ``topK``."""
        return searching.default_limit(self._space, mode)

    def search(
        self,
        query: str,
        limit: int | None = None,
        mode: SearchMode | None = None,
        hidden: bool = False,
        *,
        exact: bool | None = None,
        links: bool = True,
        first_turn: bool = False,
        stop: Callable[[], bool] | None = None,
        wait: bool = True,
        subject: str | None = None,
        topics: Sequence[str] | None = None,
    ) -> SearchResult:
        """What the agent finds for ``query``, best first and explained; changes nothing.

        ``mode`` None ranks as the system that wrote the store: openclaw-amem's
        ``hybrid`` (dense + BM25 fused, heat boost, links), or in a mem0 collection the
        mem0 plugin's ``plugin`` ranking (memory_search, or with the scope's ``recall``
        view what auto-recall injects; ``first_turn``: on a session's first turn).
        ``hybrid`` and ``dense`` may be asked for anywhere (on mem0: amem-tui's own, and
        labelled so in ``result.ranking``). ``limit`` None is the agent's own default
        (``search_limit``). Without a usable model it falls back to keyword-only and
        says so in ``notice``. ``hidden`` adds the best matches the agent cannot see,
        with the reason. ``exact`` True compares the query with every vector, False
        walks the HNSW graph, None scans up to 250,000 notes (``result.exact`` says
        which it was). ``stop`` is asked between the stages; when it says True,
        ``SearchStopped`` is raised (an app stops a search whose query was typed
        over). ``wait`` False answers from what is loaded rather than wait for the model
        or the keyword index (``result.partial`` says what was left out). ``subject`` and
        ``topics`` are openclaw-amem's memory_search filters (``subject``,
        ``topicsFilter``): notes about that person or nobody; knowledge notes holding
        every topic (see ``amem_tui.engine.scope.search_filters``). See
        ``amem_tui.engine.search``.
        """
        space = self._space
        if subject is not None or topics:
            space = replace(space, filters=rules.search_filters(subject, topics))
        return searching.search(
            space,
            query,
            now=self._time.clock(),
            limit=limit,
            mode=mode,
            hidden=hidden,
            exact=exact,
            links=links,
            session_key=self.session_key,
            first_turn=first_turn,
            stop=stop,
            wait=wait,
        )

    def hidden_matches(
        self,
        query: str,
        limit: int | None = None,
        mode: SearchMode | None = None,
        *,
        exact: bool | None = None,
        first_turn: bool = False,
    ) -> tuple[list[HiddenMatch], str | None]:
        """The hidden matches a search with ``hidden=True`` would add, and its notice.

        Lets an app show the hits first (``search(hidden=False)``) and these after.
        """
        return searching.hidden_matches(
            self._space,
            query,
            limit=limit,
            mode=mode,
            exact=exact,
            session_key=self.session_key,
            first_turn=first_turn,
        )

    def query_embedding(self) -> QueryEmbedding:
        """How the agent's queries are embedded for its collection: the model, its
        pooling and weights file and where they were found, and whether its searches
        are exact, approximate or by words only, and why."""
        return self._service.model.query_embedding()

    def embed_query(self, query: str, stop: Callable[[], bool] | None = None) -> np.ndarray | None:
        """The vector the agent's searches use for ``query`` (None: words only).

        Made once per query text and kept (a search box asks again after a backspace);
        loads the model first if needed, so call it from a worker thread. ``stop`` is
        asked before the model runs, also after waiting for another query's run: when it
        says True (a newer query was typed), ``SearchStopped`` is raised instead.
        """
        from amem_tui.engine.embedding.query_vectors import embed_query

        embedder = self._service.model.embedder()
        if embedder is None:
            return None
        return embed_query(embedder, query, stop)

    def warm_up(self) -> None:
        """Read and index what the agent's searches use, so its next search is quick.

        For an app to call in the background after start and after writes; a search
        that comes while this runs waits for it instead of reading the store again.
        """
        searching.warm_up(self._space, self._time.clock())

    # ------------------------------------------------------------- writing
    def _check_writable(self, readers: bool = False) -> CollectionService:
        if self._read_only:
            raise ReadOnlyStore(READ_ONLY_MESSAGE)
        service = self._service
        if readers and service.format == "mem0":
            raise ReadOnlyStore(
                f"collection '{service.name}' holds mem0 memories: {mem0.NO_READERS}"
            )
        service.check_writable()
        return service

    def readers_refusal(
        self, readers: Sequence[str], *, note: MemoryNote | None = None, shared: bool = False
    ) -> AmemError | None:
        """Why this agent may not give a note of its own these readers (None: it may), so
        an app can say it while the readers are chosen: a read-only store, a mem0
        collection (the plugin has no readers), a Mode B agent or reader, ``*``.

        ``note``: the readers of that note, which must be the agent's own and private;
        ``shared``: of a new note written shared (which takes no readers).
        """
        try:
            self._check_writable(readers=True)
        except AmemError as exc:
            return exc
        if note is not None:
            denial = self.write_refusal(note, READERS_ACTION)
            if denial is not None:
                return denial
            if note.is_shared:
                return shared_note_readers_refusal(note.id)
        if shared and readers:
            return shared_readers_refusal()
        return rules.readers_denial(self.scope, readers, self._space.dedicated)

    def readers_sentence(self, readers: Sequence[str]) -> str | None:
        """What openclaw-amem will give ``readers`` of a private note of this agent, in one
        sentence (None when they name no other agent, or in a mem0 collection)."""
        if self._service.format != "amem":
            return None
        return rules.readers_sentence(self.scope.agent, rules.chosen_readers(self.name, readers))

    def write_refusal(self, note: MemoryNote, action: str) -> AmemError | None:
        """The refusal ``action`` on ``note`` would meet, or None: an app can say why an
        action is off before trying it. ``publish`` and ``unpublish`` are the owner's."""
        if self._read_only:
            return ReadOnlyStore(READ_ONLY_MESSAGE)
        if mem0.is_mem0_note(note):
            return ReadOnlyStore(f"note {note.id} is a mem0 memory: {mem0.READ_ONLY_REASON}")
        if action in OWNER_ACTIONS:
            return rules.owner_denial(self.scope.agent, note, action)
        return rules.write_denial(self.scope.agent, note, action)

    def add(
        self,
        content: str,
        *,
        shared: bool = False,
        tags: Sequence[str] = (),
        keywords: Sequence[str] = (),
        context: str = "",
        category: str = "General",
        note_type: NoteType = "memory",
        links: Sequence[str] = (),
        extra: dict[str, object] | None = None,
        readers: Sequence[str] = (),
    ) -> MemoryNote:
        """Write a note: private by default, shared only when asked (Mode A only).

        ``readers`` names other agents that may read the private note by id (for
        openclaw-amem: its ``getNote``, never their searches; see
        ``readers_sentence``). Content under 10 characters (trimmed) is rejected;
        time-bound wording is flagged ``ephemeral``; content identical to a note
        already in the same scope returns that note instead of writing a copy.
        """
        service = self._check_writable(readers=bool(readers))
        return self._writer.add(
            service,
            self.scope,
            content,
            shared=shared,
            tags=tags,
            keywords=keywords,
            context=context,
            category=category,
            note_type=note_type,
            links=links,
            extra=extra,
            readers=readers,
            dedicated=self._space.dedicated,
        )

    def publish(self, note_id: str) -> MemoryNote:
        """Make a private note shared, in place: owner kept, ``writers=[owner]``."""
        return self._writer.publish(self._check_writable(), self.scope, note_id)

    def unpublish(self, note_id: str) -> MemoryNote:
        """Make a shared note private to its owner again (owner only)."""
        return self._writer.unpublish(self._check_writable(), self.scope, note_id)

    def update(
        self,
        note_id: str,
        *,
        content: str | None = None,
        tags: Sequence[str] | None = None,
        expected_hash: str | None = None,
        readers: Sequence[str] | None = None,
    ) -> MemoryNote:
        """Change a note's content and/or tags (write rule); new content is re-embedded.

        ``readers`` replaces the other agents that may read the private note by id
        (``[]``: none but the owner); only the owner may choose them, as only the owner
        may publish. ``expected_hash`` guards against overwriting a change made
        elsewhere since the note was loaded.
        """
        return self._writer.update(
            self._check_writable(readers=readers is not None),
            self.scope,
            note_id,
            content=content,
            tags=tags,
            expected_hash=expected_hash,
            readers=readers,
            dedicated=self._space.dedicated,
        )

    def delete(self, note_id: str) -> MemoryNote:
        """Soft-delete a note (``is_active=false``); nothing is ever hard-deleted."""
        return self._writer.set_active(self._check_writable(), self.scope, note_id, active=False)

    def restore(self, note_id: str) -> MemoryNote:
        """Undo a soft delete."""
        return self._writer.set_active(self._check_writable(), self.scope, note_id, active=True)

    def revert(self, note_id: str, to: int, *, expected_hash: str | None = None) -> MemoryNote:
        """Bring a note back to how its version ``to`` left it (see ``versions``), as a
        new version: history is never rewritten, recall counts never wound back.

        The write rule applies, and the owner's alone when the revert changes who reads
        the note (shared, private, readers); ``expected_hash`` guards against a change
        made since the note was loaded.
        """
        return self._writer.revert(
            self._check_writable(), self.scope, note_id, to, expected_hash=expected_hash
        )

    # -------------------------------------------------------- consolidation
    def _consolidator(self) -> Consolidator:
        # Imported here: most sessions never consolidate, and start-up pays for imports.
        from amem_tui.engine.consolidation import Consolidator

        return Consolidator(self._service.store, self._time, self._lock)

    def plan_consolidation(
        self, threshold: float | None = None, *, trigger: RunTrigger = "manual"
    ) -> ConsolidationPlan:
        """What a consolidation of the agent's near-duplicate private notes would merge,
        as a plan to show and then ``apply`` (nothing is written).

        Only the agent's private, active ``memory`` notes are candidates; ``threshold``
        is the cosine similarity (default: the settings'). ``plan.run`` holds the
        merges, each with the content before and after.
        """
        if self._service.format == "mem0":
            self._service.check_writable()  # mem0 memories are never consolidated
        limit = self._threshold if threshold is None else threshold
        with self._lock:
            return self._consolidator().plan(
                self._service, self.scope, threshold=limit, trigger=trigger
            )

    def apply(self, plan: ConsolidationPlan, progress: Progress | None = None) -> ConsolidationRun:
        """Carry out exactly the merges of ``plan`` and record the run under its id.

        Refused with ``PlanOutdated``, which names the notes
        modified, deleted or added since, when the agent's candidates changed after the
        plan was made (nothing is merged then: plan again). An interrupted earlier run
        of the agent is finished first. ``progress(done, total)`` counts merges.
        """
        service = self._check_writable()
        with self._lock:
            return self._consolidator().apply(service, self.scope, plan, progress)

    def consolidate(
        self,
        dry_run: bool = False,
        threshold: float | None = None,
        progress: Progress | None = None,
        trigger: RunTrigger = "manual",
    ) -> ConsolidationRun:
        """Plan and apply at once: merge the agent's near-duplicate private notes and
        record the run in the store (see ``plan_consolidation`` and ``apply``).

        A dry run returns the planned run and writes nothing. An interrupted earlier
        run of the agent is finished first, before planning. ``progress(done, total)``
        counts merges.
        """
        if dry_run:
            if self._service.format == "mem0":
                self._service.check_writable()  # mem0 memories are never consolidated
        else:
            self._check_writable()
        limit = self._threshold if threshold is None else threshold
        with self._lock:
            return self._consolidator().consolidate(
                self._service,
                self.scope,
                dry_run=dry_run,
                threshold=limit,
                progress=progress,
                trigger=trigger,
            )

    def undo(self, run_id: str, merge_keeper: str | None = None) -> ConsolidationRun:
        """Revert a run, or its one merge into ``merge_keeper``; returns the recorded undo run.

        Refused (InvalidInput) when a keeper changed since the run.
        """
        service = self._check_writable()
        with self._lock:
            return self._consolidator().undo(service, self.scope, run_id, merge_keeper)

    def history(self) -> list[ConsolidationRun]:
        """The agent's consolidation runs, newest first: ours from the store,
        openclaw-amem's rebuilt from its notes; conflict decisions among them (``settles``)."""
        return self._consolidator().history([self._service], self.scope.agent)

    # ---------------------------------------------------------- conflicts
    @property
    def conflicts(self) -> ConflictDesk:
        """The agent's contradiction desk: the flagged pairs it can read, and decisions on
        them, each a recorded run ``undo`` takes back (see ``conflicts``)."""
        from amem_tui.engine.conflicts import ConflictDesk

        return ConflictDesk(
            self.scope,
            self._service,
            time=self._time,
            lock=self._lock,
            consolidator=self._consolidator,
            check_writable=self._check_writable,
        )
