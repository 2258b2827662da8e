"""The scoped memory engine: a library with no UI dependencies.

What a program needs to use it is exported here: the engine and one agent's view of
it, their settings, the results their calls return, and the errors they raise. The
CLI and the TUI also use ``amem_tui.engine.for_apps``, which holds what only an app
needs (parts of results to draw, the follow mode, the nightly pass's records, text
helpers); import contracts keep both apps to these two modules.

Each public name is written once, as an import of the ``TYPE_CHECKING`` block below:
that is what a type checker reads. At run time each is imported on first use
(``amem_tui.lazy_exports``), so importing the package loads none of the engine and
the TUI's first frame waits for none of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from amem_tui.engine.agent_view import AgentView
    from amem_tui.engine.audit import AuditReport
    from amem_tui.engine.compare import Comparison
    from amem_tui.engine.conflicts import ConflictDesk, ConflictList
    from amem_tui.engine.consolidation import ConsolidationPlan
    from amem_tui.engine.consolidation.nightly import NightlyPass
    from amem_tui.engine.consolidation.runlock import PassBusy
    from amem_tui.engine.embedding.report import QueryEmbedding
    from amem_tui.engine.engine import MemoryEngine
    from amem_tui.engine.errors import (
        AmemError,
        InvalidInput,
        ModelMismatch,
        ModelUnavailable,
        NotFound,
        PermissionDenied,
        PlanOutdated,
        ReadOnlyStore,
        StaleNote,
        StoreLocked,
        StoreUnavailable,
    )
    from amem_tui.engine.health import HealthReport
    from amem_tui.engine.inventory import CollectionView, StoreStatus
    from amem_tui.engine.isolation import CheckRun, LeakReport, WhatIf
    from amem_tui.engine.models import MemoryNote, NotePage
    from amem_tui.engine.run_records import ConsolidationRun
    from amem_tui.engine.scope import AgentScope
    from amem_tui.engine.search.early import SavedIndexSearch
    from amem_tui.engine.search_results import HiddenMatch, SearchHit, SearchResult
    from amem_tui.engine.settings import AgentConfig, EngineSettings
    from amem_tui.engine.stats import StoreStats
    from amem_tui.engine.transfer import ImportResult
    from amem_tui.engine.versions import NoteHistory
else:
    from amem_tui.lazy_exports import lazy_exports

    __getattr__, __dir__ = lazy_exports(globals())
