"""Proving isolation: the leak audit, memory checks, and what a change would do.

- ``findings``: what the leak audit reports (kinds, severities, the report);
- ``reach``: who reaches each note, by the collection's own rules;
- ``survey``: the one read of the store the audit makes;
- ``copies``, ``vectors``, ``secrets``: text, meaning and credentials;
- ``exposure``, ``stray``: the findings of each kind;
- ``leaks``: the audit, from the collections to the report;
- ``checkfile``, ``checks``: memory checks (a TOML file) and their verdicts;
- ``overlay``, ``whatif``: what a change would do, worked out without writing;
- ``history``: each agent's recent queries, kept on disk.

Each public name is imported on first use (``amem_tui.lazy_exports``): the leak audit
loads none of the memory checks or what-if modules, which it does not use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from amem_tui.engine.isolation.checkfile import (
        CHECK_KEYS,
        DEFAULT_TOP,
        CheckFile,
        MemoryCheck,
        load_checks,
        parse_checks,
    )
    from amem_tui.engine.isolation.checks import (
        CheckRun,
        CheckVerdict,
        FoundHidden,
        FoundHit,
        run_checks,
    )
    from amem_tui.engine.isolation.checks import validate as validate_checks
    from amem_tui.engine.isolation.findings import (
        LEAK_KINDS,
        SEVERITIES,
        SEVERITY_OF,
        Certainty,
        Coverage,
        LeakFinding,
        LeakKind,
        LeakPath,
        LeakReport,
        Severity,
        at_least,
    )
    from amem_tui.engine.isolation.history import QueryHistory, RecordedQuery
    from amem_tui.engine.isolation.leaks import audit_leaks, audit_store, audited_collections
    from amem_tui.engine.isolation.overlay import OverlayStore
    from amem_tui.engine.isolation.stray import Setup
    from amem_tui.engine.isolation.whatif import (
        Change,
        CheckFlip,
        Consolidate,
        Delete,
        Publish,
        QueryDelta,
        SetReaders,
        Unpublish,
        WhatIf,
        what_if,
    )
else:
    from amem_tui.lazy_exports import lazy_exports

    __getattr__, __dir__ = lazy_exports(globals())
