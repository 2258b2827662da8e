"""The consolidation history: our recorded runs, and the merges openclaw-amem made.

openclaw-amem records its merges only in the keeper's ``evolution_history``
(action ``consolidate``, ``triggeredBy`` the dropped note); they are rebuilt here
into runs (trigger ``openclaw``), entries further apart than an hour being
separate runs. They cannot be undone as runs: a dropped note is restored alone.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import numpy as np

from amem_tui.engine.collections import CollectionService
from amem_tui.engine.consolidation.changes import union
from amem_tui.engine.consolidation.plan import RUN_KEY
from amem_tui.engine.consolidation.runlog import RunLog
from amem_tui.engine.models import SHARED, content_hash, parse_evolution_history, parse_time
from amem_tui.engine.run_records import ConsolidationRun, MergeRecord
from amem_tui.engine.store.filters import Filter, Match, MatchAny

#: openclaw-amem's own threshold, shown on runs rebuilt from its history.
OPENCLAW_THRESHOLD = 0.75
#: Entries of openclaw-amem further apart than this are shown as separate runs.
OPENCLAW_RUN_GAP = timedelta(hours=1)
_RUN_NS = uuid.UUID("0b6f5d3c-8e0a-4c1b-9a55-2d7e4f1c6a10")


def history(
    log: RunLog, services: Sequence[CollectionService], agent: str | None
) -> list[ConsolidationRun]:
    """Recorded runs and openclaw-amem's merges in these collections, newest first."""
    runs: list[ConsolidationRun] = []
    seen: set[str] = set()
    for service in services:
        if service.name in seen:
            continue
        seen.add(service.name)
        runs += log.load_runs(service.name, agent)
        runs += openclaw_runs(service, agent)
    runs.sort(key=lambda r: (r.started_at, r.id), reverse=True)
    return runs


def _owned(payload: dict[str, Any], agent: str | None) -> bool:
    """The scan's filter, for one payload: the agent's notes (None: any but shared)."""
    owner = payload.get("agent_id")
    return owner == agent if agent is not None else owner != SHARED


def openclaw_runs(service: CollectionService, agent: str | None) -> list[ConsolidationRun]:
    """Merges openclaw-amem recorded in notes' evolution history, grouped into runs."""
    collection = service.name
    if not service.exists():
        return []
    if agent is not None:
        flt = Filter(must=(Match("agent_id", agent),))
    else:
        flt = Filter(must_not=(MatchAny("agent_id", (SHARED,)),))
    found: list[tuple[str, str, MergeRecord]] = []
    # The note index knows which notes hold a consolidation: only those are read.
    known = service.index.consolidated_note_ids()
    points = (
        service.store.scan(collection, flt)
        if known is None
        else (p for p in service.store.retrieve(collection, known) if _owned(p.payload, agent))
    )
    for point in points:
        raw = point.payload.get("evolution_history")
        if not raw or "consolidate" not in str(raw):
            continue
        try:
            entries = [e.to_dict() for e in parse_evolution_history(raw)]
        except (ValueError, TypeError):
            continue
        owner = point.payload.get("agent_id")
        if not isinstance(owner, str):
            continue
        for pos, entry in enumerate(entries):
            if entry.get("action") != "consolidate" or RUN_KEY in entry:
                continue
            later = [e.get("oldContent") for e in entries[pos + 1 :] if e.get("oldContent")]
            after = later[0] if later else point.payload.get("content", "")
            dropped = str(entry.get("triggeredBy", ""))
            found.append(
                (
                    owner,
                    str(entry.get("triggeredAt", "")),
                    MergeRecord(
                        keeper=point.id,
                        dropped=[dropped] if dropped else [],
                        similarity=0.0,
                        content_before=str(entry.get("oldContent") or ""),
                        content_after=str(after),
                        tags_before=list(entry.get("oldTags") or []),
                        tags_after=list(entry.get("newTags") or []),
                        category=str(point.payload.get("category", "")),
                        reason="openclaw-amem",
                    ),
                )
            )
    _fill_similarities(service, [m for _, _, m in found])
    runs: list[ConsolidationRun] = []
    found.sort(key=lambda t: (t[0], t[1], t[2].keeper))
    for owner, at, merge in found:
        moment = parse_time(at)
        last = runs[-1] if runs else None
        last_time = parse_time(last.finished_at) if last else None
        if (
            last is not None
            and last.agent == owner
            and moment is not None
            and last_time is not None
            and moment - last_time <= OPENCLAW_RUN_GAP
        ):
            last.merges.append(merge)
            last.finished_at = at
            continue
        run_id = str(uuid.uuid5(_RUN_NS, f"openclaw:{collection}:{owner}:{at}"))
        runs.append(
            ConsolidationRun(
                id=run_id,
                agent=owner,
                collection=collection,
                trigger="openclaw",
                started_at=at,
                finished_at=at,
                threshold=OPENCLAW_THRESHOLD,
                judge="openclaw-amem",
                merges=[merge],
            )
        )
    return runs


def _fill_similarities(service: CollectionService, merges: list[MergeRecord]) -> None:
    ids = union(*([m.keeper, *m.dropped] for m in merges))
    if not ids:
        return
    vectors = service.vectors_of(ids)
    points = {p.id: p for p in service.store.retrieve(service.name, ids)}
    for merge in merges:
        for dropped in merge.dropped:
            if dropped in points:
                merge.dropped_content[dropped] = str(points[dropped].payload.get("content", ""))
            a, b = vectors.get(merge.keeper), vectors.get(dropped)
            if a is None or b is None:
                continue
            denom = float(np.linalg.norm(a) * np.linalg.norm(b)) or 1.0
            merge.similarities[dropped] = round(float(a @ b) / denom, 6)
        if merge.similarities:
            merge.similarity = min(merge.similarities.values())
        merge.hash_after = content_hash(merge.content_after)
