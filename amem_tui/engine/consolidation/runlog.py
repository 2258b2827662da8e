"""The run log: every consolidation run, recorded in the store before any note changes.

Runs of a collection live in a bookkeeping collection ``<collection>__amem_runs``
(so the history works on a Qdrant server too): one point for the run's header,
one per merge and one per link rewrite, each keyed by the run id. Writing the plan
first is what lets an interrupted run be finished, and any run be undone.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from amem_tui.engine.bookkeeping import RUNS_SUFFIX
from amem_tui.engine.errors import NotFound
from amem_tui.engine.run_records import ConsolidationRun, MergeRecord, NoteChange
from amem_tui.engine.store.base import NoteStore, StoredPoint
from amem_tui.engine.store.filters import Filter, Match, MatchAny

RUNS_MODEL = "amem-tui/run-log"
#: Log points written in one store call.
WRITE_BATCH = 256


def runs_collection(collection: str) -> str:
    """The bookkeeping collection that logs consolidation runs of ``collection``."""
    return collection + RUNS_SUFFIX


def is_runs_collection(name: str) -> bool:
    """True for a run-log collection (not a collection of notes)."""
    return name.endswith(RUNS_SUFFIX)


class RunNotFound(NotFound):
    """No consolidation run with this id for this agent."""

    FACTS = ("agent", "run_id")  # a run's id, under its own name

    def __init__(self, run_id: str, agent: str) -> None:
        super().__init__(run_id, agent)
        self.run_id = run_id
        self.message = f"no consolidation run {run_id} for agent '{agent}'"
        self.args = (self.message,)


def run_json(run: ConsolidationRun, full: bool = False) -> dict[str, Any]:
    """A run as JSON (see ``ConsolidationRun.to_json``)."""
    return run.to_json(full)


def dumps(run: ConsolidationRun) -> str:
    """A run as compact JSON text."""
    return json.dumps(run_json(run), ensure_ascii=False, separators=(",", ":"))


def merge_point_id(run_id: str, index: int) -> str:
    """The log point of a run's ``index``-th merge."""
    return str(uuid.uuid5(uuid.UUID(run_id), f"merge:{index}"))


def link_point_id(run_id: str, index: int) -> str:
    """The log point of a run's ``index``-th link rewrite."""
    return str(uuid.uuid5(uuid.UUID(run_id), f"link:{index}"))


def _point(point_id: str, payload: dict[str, Any]) -> StoredPoint:
    return StoredPoint(point_id, payload, [1.0])


class RunLog:
    """The recorded runs of one store's collections."""

    def __init__(self, store: NoteStore) -> None:
        self.store = store

    def _log(self, collection: str) -> str:
        name = runs_collection(collection)
        self.store.ensure_collection(name, 1, RUNS_MODEL, ("kind", "agent", "run_id"), notes=False)
        return name

    def write_header(self, run: ConsolidationRun) -> None:
        body = run.model_dump(mode="json", exclude={"merges", "link_changes"})
        payload = {
            "kind": "run",
            "agent": run.agent,
            "run_id": run.id,
            "started_at": run.started_at,
            "status": run.status,
            "merge_count": len(run.merges),
            "link_count": len(run.link_changes),
            "run": body,
        }
        self.store.upsert(self._log(run.collection), [_point(run.id, payload)])

    def write_merges(self, run: ConsolidationRun, indexes: Iterable[int]) -> None:
        points = [
            _point(
                merge_point_id(run.id, i),
                {
                    "kind": "merge",
                    "agent": run.agent,
                    "run_id": run.id,
                    "index": i,
                    "merge": run.merges[i].model_dump(mode="json"),
                },
            )
            for i in indexes
        ]
        log = self._log(run.collection)
        for start in range(0, len(points), WRITE_BATCH):
            self.store.upsert(log, points[start : start + WRITE_BATCH])

    def write_links(self, run: ConsolidationRun) -> None:
        points = [
            _point(
                link_point_id(run.id, i),
                {
                    "kind": "link",
                    "agent": run.agent,
                    "run_id": run.id,
                    "index": i,
                    "change": change.model_dump(mode="json"),
                },
            )
            for i, change in enumerate(run.link_changes)
        ]
        log = self._log(run.collection)
        for start in range(0, len(points), WRITE_BATCH):
            self.store.upsert(log, points[start : start + WRITE_BATCH])

    def load_runs(
        self,
        collection: str,
        agent: str | None = None,
        run_ids: Sequence[str] | None = None,
        unfinished: bool = False,
    ) -> list[ConsolidationRun]:
        """The runs recorded for ``collection``: all, one agent's, some ids, or unfinished ones."""
        log = runs_collection(collection)
        if self.store.collection_info(log) is None:
            return []

        def flt(kind: str, ids: Sequence[str] | None) -> Filter:
            must: tuple[Match | MatchAny, ...] = (Match("kind", kind),)
            if agent is not None:
                must += (Match("agent", agent),)
            if ids is not None:
                must += (MatchAny("run_id", tuple(ids)),)
            if kind == "run" and unfinished:
                must += (MatchAny("status", ("planning", "started")),)
            return Filter(must=must)

        runs: dict[str, ConsolidationRun] = {}
        for point in self.store.scan(log, flt("run", run_ids)):
            run = ConsolidationRun.model_validate(point.payload["run"])
            runs[run.id] = run
        if not runs:
            return []
        # Only the selected runs' merges (a whole history is read only when asked for).
        selected = sorted(runs) if run_ids is not None or unfinished else None
        merges: dict[str, list[tuple[int, MergeRecord]]] = {}
        for point in self.store.scan(log, flt("merge", selected)):
            merges.setdefault(point.payload["run_id"], []).append(
                (int(point.payload["index"]), MergeRecord.model_validate(point.payload["merge"]))
            )
        links: dict[str, list[tuple[int, NoteChange]]] = {}
        for point in self.store.scan(log, flt("link", selected)):
            links.setdefault(point.payload["run_id"], []).append(
                (int(point.payload["index"]), NoteChange.model_validate(point.payload["change"]))
            )
        for run_id, run in runs.items():
            run.merges = [m for _, m in sorted(merges.get(run_id, []), key=lambda t: t[0])]
            run.link_changes = [c for _, c in sorted(links.get(run_id, []), key=lambda t: t[0])]
        return list(runs.values())

    def drop_plan(self, run: ConsolidationRun) -> None:
        """Remove the partly written plan of a run that never changed a note."""
        log = runs_collection(run.collection)
        ids = [p.id for p in self.store.scan(log, Filter(must=(Match("run_id", run.id),)))]
        ids = [i for i in ids if i != run.id]
        if ids:
            self.store.delete_points(log, ids)

    def undone_marker(self, undo: ConsolidationRun) -> Callable[[int], None]:
        """Marks the reverted merges of the original run as undone (idempotent)."""
        assert undo.undoes is not None
        log = self._log(undo.collection)
        marked: set[int] = set()

        def mark(i: int) -> None:
            index = undo.merges[i].source_index
            if index is None or index in marked:
                return
            point_id = merge_point_id(undo.undoes or "", index)
            points = self.store.retrieve(log, [point_id])
            if not points:
                return
            record = MergeRecord.model_validate(points[0].payload["merge"])
            if not (record.undone and record.undone_by == undo.id):
                record.undone = True
                record.undone_by = undo.id
                payload = {**points[0].payload, "merge": record.model_dump(mode="json")}
                self.store.set_payload(log, point_id, payload)
            marked.add(index)

        return mark
