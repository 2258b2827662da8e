"""The scoped memory engine: a library with no UI dependencies, and the only way in
for the CLI and the TUI (an import contract keeps it so).

Every public name is typed for the type checker, and imported on first use at run time,
so that importing the package (or the settings module, which needs only errors and
scope) does not load the whole engine, and the TUI's first frame waits for none of it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from amem_tui.engine.activity import (
        Activity,
        ActivityKind,
        PaneUpdate,
        changes,
        name_merges,
        new_runs,
        relisted,
        run_activity,
    )
    from amem_tui.engine.agent_view import AgentView
    from amem_tui.engine.agents import label as agent_label
    from amem_tui.engine.audit import AuditReport, NoteRef
    from amem_tui.engine.compare import (
        COMPARE_SCOPES,
        ComparedAgent,
        ComparedHit,
        ComparedNote,
        CompareScope,
        Comparison,
        GroupName,
        SideAccess,
    )
    from amem_tui.engine.conflicts import (
        ConflictDesk,
        ConflictList,
        ConflictPair,
        ConflictSide,
        DanglingFlag,
        PairKeep,
        Settlement,
    )
    from amem_tui.engine.consolidation import ConsolidationPlan
    from amem_tui.engine.consolidation.nightly import (
        NightlyPass,
        PassProgress,
        PassRecord,
        PassResult,
    )
    from amem_tui.engine.consolidation.nightly_time import parse_hhmm, zone_of
    from amem_tui.engine.consolidation.runlock import (
        BUSY_EXIT_CODE,
        Holder,
        LockLost,
        PassBusy,
    )
    from amem_tui.engine.consolidation.scheduler import ConsolidationScheduler
    from amem_tui.engine.embed import load_in_background
    from amem_tui.engine.engine import MemoryEngine
    from amem_tui.engine.errors import (
        AmemError,
        ConfigError,
        ConflictNoteMissing,
        InvalidInput,
        ModelMismatch,
        ModelUnavailable,
        NotAConflictPair,
        NotFound,
        PermissionDenied,
        PlanOutdated,
        ReadOnlyStore,
        SearchStopped,
        StaleNote,
        StoreLocked,
        StoreUnavailable,
        UserNotChosen,
    )
    from amem_tui.engine.formats.mem0 import is_mem0_note, is_subagent_session, parse_namespace
    from amem_tui.engine.graph import Neighbour, Neighbourhood
    from amem_tui.engine.inventory import CollectionView, StoreStatus
    from amem_tui.engine.keywords import tokenize
    from amem_tui.engine.models import (
        NOTE_FIELDS,
        WEAK_SIMILARITY,
        ConflictSettlement,
        ConsolidationRun,
        HiddenMatch,
        MemoryNote,
        MergeRecord,
        NotePage,
        SearchHit,
        SearchResult,
    )
    from amem_tui.engine.prefetch import start as start_prefetch
    from amem_tui.engine.prefetch import stop as stop_prefetch
    from amem_tui.engine.reading import ListScope
    from amem_tui.engine.redact import redact_text, redact_url
    from amem_tui.engine.scope import (
        DEFAULT_AGENT,
        AgentScope,
        agent_from_session_key,
        selective_sentence,
    )
    from amem_tui.engine.search import SearchMode
    from amem_tui.engine.search.early import EarlyAnswer, EarlyHit, SavedIndexSearch
    from amem_tui.engine.search.explain import explain_hit
    from amem_tui.engine.settings import AgentConfig, EngineSettings
    from amem_tui.engine.stats import AGENT_FIGURES, AgentStats, RecalledNote, StoreStats
    from amem_tui.engine.transfer import ImportResult, dump_line
    from amem_tui.engine.versions import DiffPart, NoteHistory, NoteVersion, plain_diff, word_diff
    from amem_tui.engine.watch import Probe
    from amem_tui.engine.wiring import open_store

#: Each public name: the module that defines it, and its name there.
_EXPORTS: dict[str, tuple[str, str]] = {
    "AGENT_FIGURES": ("amem_tui.engine.stats", "AGENT_FIGURES"),
    "BUSY_EXIT_CODE": ("amem_tui.engine.consolidation.runlock", "BUSY_EXIT_CODE"),
    "ConsolidationScheduler": ("amem_tui.engine.consolidation.scheduler", "ConsolidationScheduler"),
    "Holder": ("amem_tui.engine.consolidation.runlock", "Holder"),
    "LockLost": ("amem_tui.engine.consolidation.runlock", "LockLost"),
    "NightlyPass": ("amem_tui.engine.consolidation.nightly", "NightlyPass"),
    "PassBusy": ("amem_tui.engine.consolidation.runlock", "PassBusy"),
    "PassProgress": ("amem_tui.engine.consolidation.nightly", "PassProgress"),
    "PassRecord": ("amem_tui.engine.consolidation.nightly", "PassRecord"),
    "PassResult": ("amem_tui.engine.consolidation.nightly", "PassResult"),
    "parse_hhmm": ("amem_tui.engine.consolidation.nightly_time", "parse_hhmm"),
    "zone_of": ("amem_tui.engine.consolidation.nightly_time", "zone_of"),
    "Activity": ("amem_tui.engine.activity", "Activity"),
    "ActivityKind": ("amem_tui.engine.activity", "ActivityKind"),
    "AgentConfig": ("amem_tui.engine.settings", "AgentConfig"),
    "AgentScope": ("amem_tui.engine.scope", "AgentScope"),
    "AgentStats": ("amem_tui.engine.stats", "AgentStats"),
    "AgentView": ("amem_tui.engine.agent_view", "AgentView"),
    "Neighbour": ("amem_tui.engine.graph", "Neighbour"),
    "Neighbourhood": ("amem_tui.engine.graph", "Neighbourhood"),
    "AmemError": ("amem_tui.engine.errors", "AmemError"),
    "AuditReport": ("amem_tui.engine.audit", "AuditReport"),
    "COMPARE_SCOPES": ("amem_tui.engine.compare", "COMPARE_SCOPES"),
    "CollectionView": ("amem_tui.engine.inventory", "CollectionView"),
    "CompareScope": ("amem_tui.engine.compare", "CompareScope"),
    "ComparedAgent": ("amem_tui.engine.compare", "ComparedAgent"),
    "ComparedHit": ("amem_tui.engine.compare", "ComparedHit"),
    "ComparedNote": ("amem_tui.engine.compare", "ComparedNote"),
    "Comparison": ("amem_tui.engine.compare", "Comparison"),
    "ConfigError": ("amem_tui.engine.errors", "ConfigError"),
    "ConsolidationPlan": ("amem_tui.engine.consolidation", "ConsolidationPlan"),
    "ConflictDesk": ("amem_tui.engine.conflicts", "ConflictDesk"),
    "ConflictList": ("amem_tui.engine.conflicts", "ConflictList"),
    "ConflictNoteMissing": ("amem_tui.engine.errors", "ConflictNoteMissing"),
    "ConflictPair": ("amem_tui.engine.conflicts", "ConflictPair"),
    "ConflictSettlement": ("amem_tui.engine.models", "ConflictSettlement"),
    "ConflictSide": ("amem_tui.engine.conflicts", "ConflictSide"),
    "DanglingFlag": ("amem_tui.engine.conflicts", "DanglingFlag"),
    "NotAConflictPair": ("amem_tui.engine.errors", "NotAConflictPair"),
    "PairKeep": ("amem_tui.engine.conflicts", "PairKeep"),
    "Settlement": ("amem_tui.engine.conflicts", "Settlement"),
    "ConsolidationRun": ("amem_tui.engine.models", "ConsolidationRun"),
    "DEFAULT_AGENT": ("amem_tui.engine.scope", "DEFAULT_AGENT"),
    "EngineSettings": ("amem_tui.engine.settings", "EngineSettings"),
    "GroupName": ("amem_tui.engine.compare", "GroupName"),
    "HiddenMatch": ("amem_tui.engine.models", "HiddenMatch"),
    "ImportResult": ("amem_tui.engine.transfer", "ImportResult"),
    "InvalidInput": ("amem_tui.engine.errors", "InvalidInput"),
    "ListScope": ("amem_tui.engine.reading", "ListScope"),
    "MemoryEngine": ("amem_tui.engine.engine", "MemoryEngine"),
    "MemoryNote": ("amem_tui.engine.models", "MemoryNote"),
    "MergeRecord": ("amem_tui.engine.models", "MergeRecord"),
    "ModelMismatch": ("amem_tui.engine.errors", "ModelMismatch"),
    "ModelUnavailable": ("amem_tui.engine.errors", "ModelUnavailable"),
    "NOTE_FIELDS": ("amem_tui.engine.models", "NOTE_FIELDS"),
    "NotFound": ("amem_tui.engine.errors", "NotFound"),
    "NotePage": ("amem_tui.engine.models", "NotePage"),
    "NoteRef": ("amem_tui.engine.audit", "NoteRef"),
    "PaneUpdate": ("amem_tui.engine.activity", "PaneUpdate"),
    "PermissionDenied": ("amem_tui.engine.errors", "PermissionDenied"),
    "PlanOutdated": ("amem_tui.engine.errors", "PlanOutdated"),
    "Probe": ("amem_tui.engine.watch", "Probe"),
    "ReadOnlyStore": ("amem_tui.engine.errors", "ReadOnlyStore"),
    "RecalledNote": ("amem_tui.engine.stats", "RecalledNote"),
    "SavedIndexSearch": ("amem_tui.engine.search.early", "SavedIndexSearch"),
    "EarlyAnswer": ("amem_tui.engine.search.early", "EarlyAnswer"),
    "EarlyHit": ("amem_tui.engine.search.early", "EarlyHit"),
    "SearchHit": ("amem_tui.engine.models", "SearchHit"),
    "SearchMode": ("amem_tui.engine.search", "SearchMode"),
    "SearchResult": ("amem_tui.engine.models", "SearchResult"),
    "SearchStopped": ("amem_tui.engine.errors", "SearchStopped"),
    "SideAccess": ("amem_tui.engine.compare", "SideAccess"),
    "StaleNote": ("amem_tui.engine.errors", "StaleNote"),
    "StoreLocked": ("amem_tui.engine.errors", "StoreLocked"),
    "StoreStats": ("amem_tui.engine.stats", "StoreStats"),
    "StoreStatus": ("amem_tui.engine.inventory", "StoreStatus"),
    "StoreUnavailable": ("amem_tui.engine.errors", "StoreUnavailable"),
    "UserNotChosen": ("amem_tui.engine.errors", "UserNotChosen"),
    "WEAK_SIMILARITY": ("amem_tui.engine.models", "WEAK_SIMILARITY"),
    "agent_from_session_key": ("amem_tui.engine.scope", "agent_from_session_key"),
    "agent_label": ("amem_tui.engine.agents", "label"),
    "changes": ("amem_tui.engine.activity", "changes"),
    "dump_line": ("amem_tui.engine.transfer", "dump_line"),
    "explain_hit": ("amem_tui.engine.search.explain", "explain_hit"),
    "is_mem0_note": ("amem_tui.engine.formats.mem0", "is_mem0_note"),
    "is_subagent_session": ("amem_tui.engine.formats.mem0", "is_subagent_session"),
    "load_in_background": ("amem_tui.engine.embed", "load_in_background"),
    "start_prefetch": ("amem_tui.engine.prefetch", "start"),
    "stop_prefetch": ("amem_tui.engine.prefetch", "stop"),
    "name_merges": ("amem_tui.engine.activity", "name_merges"),
    "new_runs": ("amem_tui.engine.activity", "new_runs"),
    "open_store": ("amem_tui.engine.wiring", "open_store"),
    "parse_namespace": ("amem_tui.engine.formats.mem0", "parse_namespace"),
    "redact_text": ("amem_tui.engine.redact", "redact_text"),
    "redact_url": ("amem_tui.engine.redact", "redact_url"),
    "relisted": ("amem_tui.engine.activity", "relisted"),
    "run_activity": ("amem_tui.engine.activity", "run_activity"),
    "selective_sentence": ("amem_tui.engine.scope", "selective_sentence"),
    "tokenize": ("amem_tui.engine.keywords", "tokenize"),
    "DiffPart": ("amem_tui.engine.versions", "DiffPart"),
    "NoteHistory": ("amem_tui.engine.versions", "NoteHistory"),
    "NoteVersion": ("amem_tui.engine.versions", "NoteVersion"),
    "plain_diff": ("amem_tui.engine.versions", "plain_diff"),
    "word_diff": ("amem_tui.engine.versions", "word_diff"),
}

__all__ = [
    "AGENT_FIGURES",
    "BUSY_EXIT_CODE",
    "COMPARE_SCOPES",
    "DEFAULT_AGENT",
    "NOTE_FIELDS",
    "WEAK_SIMILARITY",
    "Activity",
    "ActivityKind",
    "AgentConfig",
    "AgentScope",
    "AgentStats",
    "AgentView",
    "AmemError",
    "AuditReport",
    "CollectionView",
    "CompareScope",
    "ComparedAgent",
    "ComparedHit",
    "ComparedNote",
    "Comparison",
    "ConfigError",
    "ConflictDesk",
    "ConflictList",
    "ConflictNoteMissing",
    "ConflictPair",
    "ConflictSettlement",
    "ConflictSide",
    "ConsolidationPlan",
    "ConsolidationRun",
    "ConsolidationScheduler",
    "DanglingFlag",
    "DiffPart",
    "EarlyAnswer",
    "EarlyHit",
    "EngineSettings",
    "GroupName",
    "HiddenMatch",
    "Holder",
    "ImportResult",
    "InvalidInput",
    "ListScope",
    "LockLost",
    "MemoryEngine",
    "MemoryNote",
    "MergeRecord",
    "ModelMismatch",
    "ModelUnavailable",
    "Neighbour",
    "Neighbourhood",
    "NightlyPass",
    "NotAConflictPair",
    "NotFound",
    "NoteHistory",
    "NotePage",
    "NoteRef",
    "NoteVersion",
    "PairKeep",
    "PaneUpdate",
    "PassBusy",
    "PassProgress",
    "PassRecord",
    "PassResult",
    "PermissionDenied",
    "PlanOutdated",
    "Probe",
    "ReadOnlyStore",
    "RecalledNote",
    "SavedIndexSearch",
    "SearchHit",
    "SearchMode",
    "SearchResult",
    "SearchStopped",
    "Settlement",
    "SideAccess",
    "StaleNote",
    "StoreLocked",
    "StoreStats",
    "StoreStatus",
    "StoreUnavailable",
    "UserNotChosen",
    "agent_from_session_key",
    "agent_label",
    "changes",
    "dump_line",
    "explain_hit",
    "is_mem0_note",
    "is_subagent_session",
    "load_in_background",
    "name_merges",
    "new_runs",
    "open_store",
    "parse_hhmm",
    "parse_namespace",
    "plain_diff",
    "redact_text",
    "redact_url",
    "relisted",
    "run_activity",
    "selective_sentence",
    "start_prefetch",
    "stop_prefetch",
    "tokenize",
    "word_diff",
    "zone_of",
]


def __getattr__(name: str) -> Any:
    """Import a public name on first use (and keep it, so the next use is a lookup)."""
    try:
        module, attr = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'amem_tui.engine' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
