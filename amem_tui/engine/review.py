"""The store looked over as a whole: the audit, the leak audit, memory checks and
what-ifs, the flagged conflicts and the health report.

A part of ``MemoryEngine``, which makes one per call from its own pieces (its
collection services are rebuilt when the store changes) and keeps the public entry
points. Each entry reads only and hands the work to its package (``audit``,
``isolation``, ``conflicts``, ``health``). It sees the engine through
``ReviewedEngine``, the few public calls it makes, so that this module does not import
the facade that imports it; the what-if's shadow engine comes from a factory the
engine passes in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from amem_tui.paths import data_dir

if TYPE_CHECKING:
    from amem_tui.engine.agent_view import AgentView
    from amem_tui.engine.agents import AgentDirectory
    from amem_tui.engine.audit import AuditReport
    from amem_tui.engine.collections import Collections, CollectionService
    from amem_tui.engine.conflicts import ConflictList
    from amem_tui.engine.consolidation.nightly import NightlyEngine
    from amem_tui.engine.health import HealthInputs, HealthReport, WriteSeries
    from amem_tui.engine.isolation import (
        Change,
        CheckFile,
        CheckRun,
        LeakReport,
        QueryHistory,
        RecordedQuery,
        WhatIf,
    )
    from amem_tui.engine.isolation.whatif import Shadow

__all__ = ["StoreReview"]

if TYPE_CHECKING:  # the protocols are for the type checker: nothing more is imported

    class ReviewedEngine(NightlyEngine, Protocol):
        """What a review asks of the engine (the facade), through its public calls."""

        def note_collections(self) -> list[str]:
            """Every collection of notes in the store, by name."""
            ...

        def named_agent(self, name: str, *, user: str | None = None) -> AgentView:
            """An agent's view by name (an agent id, or a mem0 namespace)."""
            ...

    class ClosingShadow(Shadow, Protocol):
        """A shadow engine over an overlay of the store, closed once the what-if is done."""

        def close(self) -> None:
            """Let go of the overlay."""
            ...


Progress = Callable[[int, int], None]


class StoreReview:
    """Whole-store reviews of one engine: what needs a look, what leaks, what holds."""

    def __init__(
        self,
        engine: ReviewedEngine,
        collections: Collections,
        service: Callable[[str], CollectionService],
        directory: Callable[[], AgentDirectory],
        shadow: Callable[[], ClosingShadow],
    ) -> None:
        self.engine = engine
        self._shadow = shadow
        self._collections = collections
        self._service = service
        self._directory = directory

    def audit(
        self, collections: Sequence[str] | None = None, *, all_collections: bool = False
    ) -> AuditReport:
        """Scan collections (default: the configured ones; ``all_collections``: every
        collection of notes in the store) and report what needs a look."""
        from amem_tui.engine.audit import build_audit

        if all_collections:
            collections = self.engine.note_collections()
        return build_audit(self._collections, self.engine.settings, collections)

    def leaks(
        self, collections: Sequence[str] | None = None, *, progress: Progress | None = None
    ) -> LeakReport:
        """The leak audit: for every pair of agents (and mem0 namespaces), what of one's
        private memory the other can reach, by which path and how sure, and the settings
        that break isolation (see ``isolation``). ``collections`` None audits every
        collection of notes some agent reads; ``progress(done, total)`` counts points
        read. Reading only."""
        from amem_tui.engine.isolation import audit_store

        engine = self.engine
        names = engine.note_collections() if collections is None else list(collections)
        return audit_store(names, engine.agents(), self._service, engine.settings, progress)

    def check(self, checks: CheckFile | str | Path) -> CheckRun:
        """Run memory checks (a checks file, or one already read): each searches exactly
        as its agent searches. ``CheckFileError`` (exit status 2) names
        the line and key of a bad file, an unknown agent included; ``run.exit_code`` is 0
        when every check holds, else 1. See ``isolation.checks``."""
        from amem_tui.engine.isolation import load_checks, run_checks

        file = load_checks(checks) if isinstance(checks, str | Path) else checks
        self.check_ready(file)
        return run_checks(file, self.engine.named_agent, self._service)

    def what_if(
        self,
        change: Change,
        *,
        checks: CheckFile | str | Path | None = None,
        queries: Sequence[RecordedQuery] | None = None,
        top: int = 5,
    ) -> WhatIf:
        """What ``change`` (publish, unpublish, readers, delete, a consolidation plan)
        would do, worked out without writing anything: which ``checks`` would flip, and
        which notes would enter or leave the ``top`` hits of each of ``queries`` (no
        ``checks``: the settings' ``checks_file``, if any; no ``queries``: every agent's
        recent ones, from ``query_history``). A change the store would refuse raises the
        same error. See ``isolation.whatif``."""
        from amem_tui.engine.isolation import load_checks, what_if

        if checks is None:  # the configured file, if any (``checks_file``)
            checks = self.engine.settings.checks_file
        if queries is None:
            queries = self.query_history().everyone()
        file = load_checks(checks) if isinstance(checks, str | Path) else checks
        if file is not None:
            self.check_ready(file)
        shadow = self._shadow()
        try:
            return what_if(shadow, change, checks=file, queries=queries, top=top)
        finally:
            shadow.close()

    def check_ready(self, checks: CheckFile) -> None:
        """Raise ``CheckFileError`` when a check names an unknown agent or
        a view that cannot be made (what ``check`` refuses before searching)."""
        from amem_tui.engine.isolation import validate_checks

        directory = self._directory()
        known = {scope.agent for scope in self.engine.agents()}
        if directory.shared.format == "mem0":
            known |= set(directory.shared.namespaces())
        validate_checks(checks, known, self.engine.named_agent)

    def query_history(self, path: Path | None = None) -> QueryHistory:
        """This store's agents' recent queries, kept in ``path`` (default: the data
        folder's ``query_history.json``): what a search box records and recalls."""
        from amem_tui.engine.isolation import QueryHistory

        where = path or data_dir() / "query_history.json"
        return QueryHistory(where, self.engine.settings.store_label, self.engine.clock)

    def conflicts(self) -> ConflictList:
        """Every flagged pair and dangling flag in the agents' collections, with no read
        rule (one agent's, and its decisions: ``agent(name).conflicts``)."""
        from amem_tui.engine.conflicts import ConflictList, gather

        services = [self._service(s.collection) for s in self.engine.agents()]
        pairs, dangling = gather(services, None)
        names = list(dict.fromkeys(s.real_name for s in services if s.format == "amem"))
        return ConflictList(agent=None, collections=names, pairs=pairs, dangling=dangling)

    def health(self) -> HealthReport:
        """Whether memory is being written and kept well: per agent its writes and
        silence, and every problem found with its kind, severity, agent, notes and why
        (see ``health``). Reads the store and openclaw-amem's files, writes nothing."""
        from amem_tui.engine.health import build_health

        return build_health(self._health_inputs())

    def write_series(self, days: int = 30) -> WriteSeries:
        """Writes per agent per day over the last ``days`` UTC days (for a chart)."""
        from amem_tui.engine.health import write_series

        return write_series(self._health_inputs(), days)

    def _health_inputs(self) -> HealthInputs:
        from amem_tui.engine.consolidation.nightly import NightlyPass
        from amem_tui.engine.health import HealthInputs

        engine = self.engine
        now = engine.clock()
        nightly = NightlyPass(engine)
        return HealthInputs(
            scopes=engine.agents(),
            collection=self._service,
            store=engine.store,
            now=now,
            slot=nightly.slot(now),
            default_agent=engine.settings.default_agent,
            folder=engine.settings.openclaw_folder,
            records=nightly.records(),
            held=nightly.holder() is not None,
        )
