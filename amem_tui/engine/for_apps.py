"""What the CLI and the TUI need of the engine beyond its library surface.

``amem_tui.engine`` exports what a program needs to use the engine. An app that
shows the engine's answers needs more: the parts of results it draws one by one (a
compared note, a version, a neighbour), the follow mode's probes and the activity
they add up to, the nightly pass's progress and records, and small pure helpers that
word things the engine's way (an agent's label, a diff, a redacted URL, why a search
hit matched). Those are here, so that the library surface stays small while the apps
still come in through the engine's package only (import contracts keep them to these
two modules). A program may use them too; they change more freely than the names of
``amem_tui.engine``.

As in ``amem_tui.engine``, each name is written once, as an import of the
``TYPE_CHECKING`` block (what a type checker reads), and imported on first use at run
time (``amem_tui.lazy_exports``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
    from amem_tui.engine.agents import label as agent_label
    from amem_tui.engine.audit import CrossScopeLink, NoteRef
    from amem_tui.engine.compare import (
        COMPARE_SCOPES,
        ComparedAgent,
        ComparedHit,
        ComparedNote,
        CompareScope,
        GroupName,
        SideAccess,
    )
    from amem_tui.engine.conflicts import (
        ConflictPair,
        ConflictSide,
        DanglingFlag,
        PairKeep,
        Settlement,
    )
    from amem_tui.engine.consolidation.nightly_time import parse_hhmm, zone_of
    from amem_tui.engine.consolidation.pass_records import PassProgress, PassRecord, PassResult
    from amem_tui.engine.consolidation.runlock import BUSY_EXIT_CODE, Holder, LockLost
    from amem_tui.engine.consolidation.scheduler import ConsolidationScheduler
    from amem_tui.engine.embed import load_in_background
    from amem_tui.engine.errors import (
        AmbiguousId,
        CheckFileError,
        ConfigError,
        ConflictNoteMissing,
        NotAConflictPair,
        SearchStopped,
        UserNotChosen,
    )
    from amem_tui.engine.export_files import ExportFile, export_records, write_export
    from amem_tui.engine.formats.mem0 import is_mem0_note, parse_namespace
    from amem_tui.engine.graph import Neighbour, Neighbourhood
    from amem_tui.engine.health import (
        PROBLEM_KINDS,
        SEVERITIES,
        AgentHealth,
        CheckResult,
        NightlyRun,
        Problem,
        ProblemKind,
        Severity,
        SideFile,
        WriteSeries,
    )
    from amem_tui.engine.isolation import (
        LEAK_KINDS,
        Change,
        CheckFile,
        CheckFlip,
        CheckVerdict,
        Consolidate,
        Coverage,
        Delete,
        FoundHidden,
        FoundHit,
        LeakFinding,
        LeakKind,
        LeakPath,
        Publish,
        QueryDelta,
        QueryHistory,
        RecordedQuery,
        SetReaders,
        Unpublish,
        load_checks,
        parse_checks,
    )
    from amem_tui.engine.isolation import SEVERITIES as LEAK_SEVERITIES
    from amem_tui.engine.isolation import SEVERITY_OF as LEAK_SEVERITY_OF
    from amem_tui.engine.isolation import Certainty as LeakCertainty
    from amem_tui.engine.isolation import Severity as LeakSeverity
    from amem_tui.engine.keywords import tokenize
    from amem_tui.engine.models import NOTE_FIELDS
    from amem_tui.engine.notes import access_before_publish
    from amem_tui.engine.prefetch import start as start_prefetch
    from amem_tui.engine.prefetch import stop as stop_prefetch
    from amem_tui.engine.reading import ListScope
    from amem_tui.engine.redact import redact_text, redact_url
    from amem_tui.engine.run_records import ConflictSettlement, MergeRecord, NoteChange
    from amem_tui.engine.scope import (
        DEFAULT_AGENT,
        agent_from_session_key,
        publish_sentence,
        selective_sentence,
    )
    from amem_tui.engine.search import SearchMode
    from amem_tui.engine.search.early import EarlyAnswer, EarlyHit
    from amem_tui.engine.search.explain import explain_hit
    from amem_tui.engine.search_results import WEAK_SIMILARITY
    from amem_tui.engine.stats import AGENT_FIGURES, AgentStats
    from amem_tui.engine.transfer import dump_line
    from amem_tui.engine.versions import DiffPart, NoteVersion, plain_diff, word_diff
    from amem_tui.engine.watch import Probe
    from amem_tui.engine.words import json_escaped
else:
    from amem_tui.lazy_exports import lazy_exports

    __getattr__, __dir__ = lazy_exports(globals())
