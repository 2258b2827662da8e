"""Per-agent consolidation of near-duplicate notes: plan, apply, undo, history, nightly.

``plan`` finds clusters and asks the judge; ``basis`` keeps what a plan was
made from, so that applying it later applies what was shown or nothing; ``runlog``
records every run in the store before a note changes; ``apply`` carries runs out
as compare-and-set changes (safe to repeat after a crash); ``undo`` reverts a run
or one merge; ``history`` also rebuilds openclaw-amem's own merges;
``scheduler`` runs every configured agent nightly. ``Consolidator`` ties them together.
"""

from __future__ import annotations

from amem_tui.engine.consolidation.basis import ConsolidationPlan, PlanChanges
from amem_tui.engine.consolidation.consolidator import Consolidator
from amem_tui.engine.consolidation.plan import (
    DEFAULT_THRESHOLD,
    RUN_KEY,
    Cluster,
    Judge,
    MergeDecision,
    RuleJudge,
)
from amem_tui.engine.consolidation.runlog import (
    RunNotFound,
    dumps,
    is_runs_collection,
    run_json,
    runs_collection,
)

__all__ = [
    "DEFAULT_THRESHOLD",
    "RUN_KEY",
    "Cluster",
    "ConsolidationPlan",
    "Consolidator",
    "Judge",
    "MergeDecision",
    "PlanChanges",
    "RuleJudge",
    "RunNotFound",
    "dumps",
    "is_runs_collection",
    "run_json",
    "runs_collection",
]
