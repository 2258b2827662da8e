"""Write health: whether each agent's memory is still being written, and kept well.

``writes`` reads when each agent wrote and judges its silence against its own
rhythm; ``note_checks`` finds, in one pass over the notes, hollow notes, flagged
leftovers, the merge backlog, notes the contradiction sweep never read and duplicate
hashes; ``side_files`` reads openclaw-amem's owed-agents file and consolidation
log; ``nightly`` turns those and amem-tui's own nightly records into problems;
``collections`` checks the collections' embedding models and aliases;
``build`` puts the report (``report``) together. ``engine.health()`` is the
way in.
"""

from __future__ import annotations

from amem_tui.engine.health.build import HealthInputs, build_health, write_series
from amem_tui.engine.health.report import (
    PROBLEM_KINDS,
    SEVERITIES,
    AgentHealth,
    CheckResult,
    HealthReport,
    NightlyRun,
    Problem,
    ProblemKind,
    Severity,
    SideFile,
    WriteSeries,
)

__all__ = [
    "PROBLEM_KINDS",
    "SEVERITIES",
    "AgentHealth",
    "CheckResult",
    "HealthInputs",
    "HealthReport",
    "NightlyRun",
    "Problem",
    "ProblemKind",
    "Severity",
    "SideFile",
    "WriteSeries",
    "build_health",
    "write_series",
]
