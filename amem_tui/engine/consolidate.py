"""Per-agent consolidation, its history in the store, and undo.

A run merges clusters of near-duplicate notes of one agent (its private, active
``memory`` notes, see :func:`amem_tui.engine.scope.may_consolidate`). Every run is
written to a bookkeeping collection ``<collection>__amem_runs`` *before* any note
changes, as a list of compare-and-set changes (:class:`NoteChange`). Applying a
change twice is harmless, so an interrupted run is finished by the next one and
ends in the same state; every dropped note is only soft-deleted, and every
change keeps what it replaced, so a run (or one merge) can be undone.
"""

from __future__ import annotations

import base64
import json
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from amem_tui.engine import scope as rules
from amem_tui.engine.errors import InvalidInput, NotFound
from amem_tui.engine.models import (
    SHARED,
    ConsolidationRun,
    MemoryNote,
    MergeRecord,
    NoteChange,
    content_hash,
    parse_evolution_history,
    parse_time,
)
from amem_tui.engine.scope import AgentScope, Filter, Match, MatchAny
from amem_tui.engine.store.base import StoredPoint, scan_points

if TYPE_CHECKING:
    from amem_tui.engine.engine import MemoryEngine

#: Cosine similarity at or above which two notes count as near-duplicates.
#: openclaw-amem uses 0.75 with its bge-m3 model; with all-MiniLM-L6-v2 distinct
#: facts on one topic reach 0.81-0.84 while paraphrases score 0.88 and up.
DEFAULT_THRESHOLD = 0.85
#: openclaw-amem's own threshold, shown on runs rebuilt from its history.
OPENCLAW_THRESHOLD = 0.75
#: Suffix of the bookkeeping collection that holds the run log of a collection.
RUNS_SUFFIX = "__amem_runs"
RUNS_MODEL = "amem-tui/run-log"
#: Evolution-entry key that marks our own merges (openclaw-amem ignores unknown keys).
RUN_KEY = "amemRun"
#: Entries of openclaw-amem further apart than this are shown as separate runs.
OPENCLAW_RUN_GAP = timedelta(hours=1)

_BLOCK = 1024
_BATCH = 32
_RUN_NS = uuid.UUID("0b6f5d3c-8e0a-4c1b-9a55-2d7e4f1c6a10")

Progress = Callable[[int, int], None]


def runs_collection(collection: str) -> str:
    """The bookkeeping collection that logs consolidation runs of ``collection``."""
    return collection + RUNS_SUFFIX


def is_runs_collection(name: str) -> bool:
    """True for a run-log collection (not a collection of notes)."""
    return name.endswith(RUNS_SUFFIX)


# ----------------------------------------------------------------- the judge
@dataclass(frozen=True)
class Cluster:
    """Near-duplicate notes of one category, sorted by id, with their similarities."""

    agent: str
    category: str
    notes: tuple[MemoryNote, ...]
    similarity: np.ndarray


@dataclass(frozen=True)
class MergeDecision:
    """Merge ``dropped`` into ``keeper``; ``content`` replaces the keeper's if given."""

    keeper: str
    dropped: tuple[str, ...]
    content: str | None = None
    reason: str = ""


class Judge(Protocol):
    """Decides which notes of a cluster to merge, and into what.

    A judge only decides; the engine applies, records and can undo. An LLM judge
    can return new ``content`` for the keeper or split a cluster into several
    decisions, or none.
    """

    name: str

    def decide(self, cluster: Cluster) -> list[MergeDecision]:
        """The merges to make in one cluster (each note in at most one decision)."""
        ...


class RuleJudge:
    """openclaw-amem's rule: the longest note is kept (ties: the smallest id)."""

    name = "rule"

    def decide(self, cluster: Cluster) -> list[MergeDecision]:
        """One merge per cluster, into its longest note."""
        keeper = min(cluster.notes, key=lambda n: (-len(n.content), n.id))
        dropped = tuple(n.id for n in cluster.notes if n.id != keeper.id)
        return [MergeDecision(keeper.id, dropped, reason="longest content kept")]


# --------------------------------------------------------------- small helpers
def _encode_vector(vector: np.ndarray) -> str:
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")


def _decode_vector(text: str) -> list[float]:
    return np.frombuffer(base64.b64decode(text), dtype="<f4").astype(float).tolist()


def _union(*lists: Iterable[str]) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    for items in lists:
        for item in items:
            if item not in seen:
                seen.add(item)
                out.append(item)
    return out


def rewrite_links(links: Sequence[str], mapping: dict[str, str], self_id: str) -> list[str]:
    """Links with dropped ids replaced by their keepers.

    A replaced link is left out when its keeper is the note itself or is linked
    already; links that are not replaced stay exactly as they were (so an empty
    mapping gives the same list back, which undo relies on).
    """
    out: list[str] = []
    for link in links:
        target = mapping.get(link)
        if target is None:
            out.append(link)
        elif target != self_id and target not in out and target not in links:
            out.append(target)
    return out


def _latest(values: Iterable[str]) -> str:
    best = ""
    best_time: datetime | None = None
    for value in values:
        moment = parse_time(value)
        if moment is None:
            continue
        if best_time is None or moment > best_time:
            best, best_time = value, moment
    return best


_MISSING = object()


def _holds(payload: dict[str, Any], values: dict[str, Any], absent: Iterable[str]) -> bool:
    return all(payload.get(k, _MISSING) == v for k, v in values.items()) and all(
        k not in payload for k in absent
    )


def make_change(
    role: str,
    note_id: str,
    payload: dict[str, Any],
    new: dict[str, Any],
    unset: Iterable[str] = (),
    guard: Iterable[str] = (),
    vector: str | None = None,
) -> NoteChange:
    """A change from ``payload`` to ``payload`` with ``new`` set and ``unset`` removed."""
    changed = {k: v for k, v in new.items() if payload.get(k, _MISSING) != v}
    removed = [k for k in unset if k in payload]
    keys = _union(changed, removed, guard)
    return NoteChange(
        note=note_id,
        role=role,  # type: ignore[arg-type]
        before={k: payload[k] for k in keys if k in payload},
        absent=[k for k in keys if k not in payload],
        set=changed,
        unset=removed,
        vector=vector,
    )


def change_is_done(change: NoteChange, payload: dict[str, Any]) -> bool:
    """True when the note already holds the change's new values."""
    return _holds(payload, change.set, change.unset)


def change_can_apply(change: NoteChange, payload: dict[str, Any]) -> bool:
    """True when the note still holds the values the change was planned against."""
    return _holds(payload, change.before, change.absent)


def applied(change: NoteChange, payload: dict[str, Any]) -> dict[str, Any]:
    """The payload with the change applied."""
    out = {k: v for k, v in payload.items() if k not in change.unset}
    out.update(change.set)
    return out


# ------------------------------------------------------------------ the plan
@dataclass
class _Candidate:
    note: MemoryNote
    payload: dict[str, Any]
    vector: np.ndarray


@dataclass
class _Plan:
    candidates: int
    merges: list[MergeRecord] = field(default_factory=list)
    links: list[NoteChange] = field(default_factory=list)


def find_clusters(
    vectors: np.ndarray, threshold: float, block: int = _BLOCK
) -> list[tuple[list[int], list[tuple[int, int]]]]:
    """Connected components of the graph "cosine >= threshold" over row-normalised vectors.

    Returns each component of two or more rows (sorted), with the edges found.
    Works in blocks of rows, so memory stays at ``block x n`` similarities.
    """
    n = len(vectors)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    edges: list[tuple[int, int]] = []
    for start in range(0, n, block):
        sims = vectors[start : start + block] @ vectors.T
        rows, cols = np.nonzero(sims >= threshold)
        for r, c in zip(rows.tolist(), cols.tolist(), strict=True):
            i = r + start
            if c <= i:
                continue
            edges.append((i, c))
            a, b = find(i), find(c)
            if a != b:
                parent[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    by_root: dict[int, list[tuple[int, int]]] = {}
    for i, c in edges:
        by_root.setdefault(find(i), []).append((i, c))
    return [(rows, by_root.get(root, [])) for root, rows in sorted(groups.items()) if len(rows) > 1]


class Consolidator:
    """Consolidation, history and undo for one engine (use it through the engine)."""

    def __init__(self, engine: MemoryEngine, judge: Judge | None = None) -> None:
        self.engine = engine
        self.store = engine.store
        self.judge: Judge = judge or RuleJudge()

    # ----------------------------------------------------------------- reading
    def _candidates(self, scope: AgentScope) -> list[_Candidate]:
        flt = rules.consolidation_filter(scope)
        found: list[_Candidate] = []
        for point in scan_points(self.store, scope.collection, flt, with_vectors=True):
            note = MemoryNote.from_payload(point.id, point.payload)
            if note.malformed or not point.vector or not rules.may_consolidate(scope, note):
                continue
            found.append(_Candidate(note, dict(point.payload), np.asarray(point.vector)))
        found.sort(key=lambda c: c.note.id)  # storage order must not matter
        return found

    # ---------------------------------------------------------------- planning
    def plan(self, scope: AgentScope, threshold: float, run_id: str, now: str) -> _Plan:
        """The merges and link rewrites a run would make (reads only)."""
        candidates = self._candidates(scope)
        plan = _Plan(candidates=len(candidates))
        by_category: dict[str, list[_Candidate]] = {}
        for cand in candidates:
            by_category.setdefault(cand.note.category, []).append(cand)
        decisions: list[tuple[Cluster, MergeDecision]] = []
        for category in sorted(by_category):
            group = by_category[category]
            if len(group) < 2:
                continue
            matrix = np.stack([c.vector for c in group]).astype(np.float32)
            norms = np.linalg.norm(matrix, axis=1, keepdims=True)
            norms[norms == 0] = 1.0
            matrix /= norms
            for rows, _edges in find_clusters(matrix, threshold):
                sub = matrix[rows]
                cluster = Cluster(
                    scope.agent, category, tuple(group[r].note for r in rows), sub @ sub.T
                )
                for decision in self.judge.decide(cluster):
                    decisions.append((cluster, self._checked(cluster, decision)))
        by_id = {c.note.id: c for c in candidates}
        mapping = {d: dec.keeper for _, dec in decisions for d in dec.dropped}
        used: set[str] = set()
        for cluster, dec in decisions:
            plan.merges.append(self._merge(scope, cluster, dec, by_id, mapping, run_id, now))
            used.update((dec.keeper, *dec.dropped))
        for cand in candidates:
            note = cand.note
            if note.id in used or not any(link in mapping for link in note.links):
                continue
            if not rules.may_rewrite_links(scope, note):
                continue
            links = rewrite_links(note.links, mapping, note.id)
            plan.links.append(make_change("links", note.id, cand.payload, {"links": links}))
        return plan

    def _checked(self, cluster: Cluster, decision: MergeDecision) -> MergeDecision:
        ids = {n.id for n in cluster.notes}
        members = [decision.keeper, *decision.dropped]
        if not decision.dropped or not set(members) <= ids or len(set(members)) != len(members):
            raise InvalidInput(
                f"judge {self.judge.name!r} returned a merge outside its cluster: {members}"
            )
        if decision.content is not None and len(decision.content.strip()) < 10:
            raise InvalidInput(f"judge {self.judge.name!r} returned content under 10 characters")
        return MergeDecision(
            decision.keeper, tuple(sorted(decision.dropped)), decision.content, decision.reason
        )

    def _merge(
        self,
        scope: AgentScope,
        cluster: Cluster,
        decision: MergeDecision,
        by_id: dict[str, _Candidate],
        mapping: dict[str, str],
        run_id: str,
        now: str,
    ) -> MergeRecord:
        keeper = by_id[decision.keeper]
        dropped = [by_id[d] for d in decision.dropped]
        index = {n.id: i for i, n in enumerate(cluster.notes)}
        k = index[keeper.note.id]
        sims = {
            d.note.id: round(float(cluster.similarity[k, index[d.note.id]]), 6) for d in dropped
        }
        before = keeper.note
        content = decision.content if decision.content is not None else before.content
        tags = _union(before.tags, *(d.note.tags for d in dropped))
        keywords = _union(before.keywords, *(d.note.keywords for d in dropped))
        source = _union(before.links, *(d.note.links for d in dropped))
        links = rewrite_links(source, mapping, before.id)
        after = before.model_copy(deep=True)
        after.materialize_access()
        after.content = content
        after.hash = content_hash(content)
        after.tags = tags
        after.keywords = keywords
        after.links = links
        after.retrieval_count = before.retrieval_count + sum(
            d.note.retrieval_count for d in dropped
        )
        after.last_accessed = (
            _latest([before.last_accessed, *(d.note.last_accessed for d in dropped)])
            or before.last_accessed
        )
        entries = [
            {
                "triggeredBy": d.note.id,
                "triggeredAt": now,
                "action": "consolidate",
                "oldContext": before.context,
                "newContext": before.context,
                "oldTags": list(before.tags),
                "newTags": list(tags),
                "oldContent": before.content,
                RUN_KEY: run_id,
            }
            for d in dropped
        ]
        after.evolution_history = [*before.evolution_history, *entries]
        after.touch("content", "hash", "tags", "keywords", "links", "evolution_history")
        after.touch("retrieval_count", "last_accessed")
        vector = None
        if content != before.content:
            self.engine.check_model(scope.collection)
            vector = _encode_vector(self.engine.embedder.embed_documents([content])[0])
        new_payload = after.to_payload()
        changes = [
            make_change(
                "keeper",
                before.id,
                keeper.payload,
                new_payload,
                guard=("content", "hash", "is_active"),
                vector=vector,
            )
        ]
        for d in dropped:
            changes.append(make_change("dropped", d.note.id, d.payload, {"is_active": False}))
        return MergeRecord(
            keeper=before.id,
            dropped=[d.note.id for d in dropped],
            similarity=min(sims.values()),
            similarities=sims,
            category=cluster.category,
            content_before=before.content,
            content_after=content,
            dropped_content={d.note.id: d.note.content for d in dropped},
            hash_before=before.hash,
            hash_after=after.hash,
            tags_before=list(before.tags),
            tags_after=tags,
            keywords_before=list(before.keywords),
            keywords_after=keywords,
            links_before=list(before.links),
            links_after=links,
            links_source=source,
            reason=decision.reason,
            status="planned",
            changes=changes,
        )

    # ------------------------------------------------------------ run records
    def _log(self, collection: str) -> str:
        name = runs_collection(collection)
        self.store.ensure_collection(name, 1, RUNS_MODEL, ("kind", "agent", "run_id"))
        return name

    @staticmethod
    def _point(point_id: str, payload: dict[str, Any]) -> StoredPoint:
        return StoredPoint(point_id, payload, [1.0])

    @staticmethod
    def _merge_id(run_id: str, index: int) -> str:
        return str(uuid.uuid5(uuid.UUID(run_id), f"merge:{index}"))

    @staticmethod
    def _link_id(run_id: str, index: int) -> str:
        return str(uuid.uuid5(uuid.UUID(run_id), f"link:{index}"))

    def _write_header(self, run: ConsolidationRun) -> None:
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
        self.store.upsert(self._log(run.collection), [self._point(run.id, payload)])

    def _write_merges(self, run: ConsolidationRun, indexes: Iterable[int]) -> None:
        points = [
            self._point(
                self._merge_id(run.id, i),
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
        for start in range(0, len(points), _BATCH * 8):
            self.store.upsert(log, points[start : start + _BATCH * 8])

    def _write_links(self, run: ConsolidationRun) -> None:
        points = [
            self._point(
                self._link_id(run.id, i),
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
        for start in range(0, len(points), _BATCH * 8):
            self.store.upsert(log, points[start : start + _BATCH * 8])

    def _scroll_all(self, collection: str, flt: Filter | None) -> list[StoredPoint]:
        return list(scan_points(self.store, collection, flt))

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
        for point in self._scroll_all(log, flt("run", run_ids)):
            run = ConsolidationRun.model_validate(point.payload["run"])
            runs[run.id] = run
        if not runs:
            return []
        # Only the selected runs' merges (a whole history is read only when asked for).
        selected = sorted(runs) if run_ids is not None or unfinished else None
        merges: dict[str, list[tuple[int, MergeRecord]]] = {}
        for point in self._scroll_all(log, flt("merge", selected)):
            merges.setdefault(point.payload["run_id"], []).append(
                (int(point.payload["index"]), MergeRecord.model_validate(point.payload["merge"]))
            )
        links: dict[str, list[tuple[int, NoteChange]]] = {}
        for point in self._scroll_all(log, flt("link", selected)):
            links.setdefault(point.payload["run_id"], []).append(
                (int(point.payload["index"]), NoteChange.model_validate(point.payload["change"]))
            )
        for run_id, run in runs.items():
            run.merges = [m for _, m in sorted(merges.get(run_id, []), key=lambda t: t[0])]
            run.link_changes = [c for _, c in sorted(links.get(run_id, []), key=lambda t: t[0])]
        return list(runs.values())

    def _drop_plan(self, run: ConsolidationRun) -> None:
        """Remove the partly written plan of a run that never changed a note."""
        log = runs_collection(run.collection)
        ids = [p.id for p in self._scroll_all(log, Filter(must=(Match("run_id", run.id),)))]
        ids = [i for i in ids if i != run.id]
        if ids:
            self.store.delete_points(log, ids)

    # ---------------------------------------------------------------- applying
    def _apply_merges(
        self,
        run: ConsolidationRun,
        indexes: list[int],
        progress: Progress | None,
        on_done: Callable[[int], None] | None = None,
    ) -> None:
        total = len(run.merges)
        done = total - len(indexes)
        if progress is not None:
            progress(done, total)
        for start in range(0, len(indexes), _BATCH):
            batch = indexes[start : start + _BATCH]
            ids = [c.note for i in batch for c in run.merges[i].changes]
            current = {p.id: p for p in self.store.retrieve(run.collection, ids)}
            for i in batch:
                merge = run.merges[i]
                self._apply_merge(run.collection, merge, current)
                if on_done is not None and merge.status == "done":
                    on_done(i)
            self._write_merges(run, batch)
            done += len(batch)
            if progress is not None:
                progress(done, total)

    def _apply_merge(
        self, collection: str, merge: MergeRecord, current: dict[str, StoredPoint]
    ) -> None:
        for change in merge.changes:
            if change.status != "planned":
                continue
            point = current.get(change.note)
            if point is None:
                change.status = "skipped"
                change.message = "the note no longer exists"
            else:
                self._apply_change(collection, change, point)
            if change.role == "keeper" and change.status == "skipped":
                merge.status = "skipped"
                merge.message = f"keeper {change.note}: {change.message}"
                for other in merge.changes:
                    if other.status == "planned":
                        other.status = "skipped"
                        other.message = "its keeper was skipped"
                return
        merge.status = "done"

    def _apply_change(self, collection: str, change: NoteChange, point: StoredPoint) -> None:
        payload = point.payload
        if change_is_done(change, payload):
            change.status = "done"
            return
        # A dropped note edited meanwhile still only has its is_active flipped: nothing is lost.
        if change.role != "dropped" and not change_can_apply(change, payload):
            change.status = "skipped"
            change.message = "the note changed since the run was planned"
            return
        new = applied(change, payload)
        if change.vector is not None:
            self.store.upsert(
                collection, [StoredPoint(point.id, new, _decode_vector(change.vector))]
            )
        else:
            self.store.set_payload(collection, point.id, new)
        point.payload = new
        change.status = "done"

    def _apply_links(self, run: ConsolidationRun) -> None:
        pending = [c for c in run.link_changes if c.status == "planned"]
        for start in range(0, len(pending), _BATCH):
            batch = pending[start : start + _BATCH]
            current = {
                p.id: p for p in self.store.retrieve(run.collection, [c.note for c in batch])
            }
            for change in batch:
                point = current.get(change.note)
                if point is None:
                    change.status = "skipped"
                    change.message = "the note no longer exists"
                    continue
                self._apply_change(run.collection, change, point)
        if pending:
            self._write_links(run)

    def _execute(self, run: ConsolidationRun, progress: Progress | None) -> ConsolidationRun:
        """Apply what is left of a recorded run, then mark it done."""
        on_done = self._marker(run) if run.trigger == "undo" else None
        pending = [i for i, m in enumerate(run.merges) if m.status == "planned"]
        self._apply_merges(run, pending, progress, on_done)
        self._apply_links(run)
        if on_done is not None:
            for i, merge in enumerate(run.merges):
                if merge.status == "done":
                    on_done(i)
        skipped = [m for m in run.merges if m.status == "skipped"]
        if skipped:
            run.messages.append(f"{len(skipped)} merge(s) skipped: their notes changed meanwhile")
        run.status = "done"
        run.finished_at = self.engine.now()
        self._write_header(run)
        return run

    def _marker(self, undo: ConsolidationRun) -> Callable[[int], None]:
        """Marks the reverted merges of the original run as undone (idempotent)."""
        assert undo.undoes is not None
        log = self._log(undo.collection)
        marked: set[int] = set()

        def mark(i: int) -> None:
            index = undo.merges[i].source_index
            if index is None or index in marked:
                return
            point_id = self._merge_id(undo.undoes or "", index)
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

    def _record_and_run(self, run: ConsolidationRun, progress: Progress | None) -> ConsolidationRun:
        """Write the plan before touching a note, then apply it."""
        run.status = "planning"
        self._write_header(run)
        self._write_merges(run, range(len(run.merges)))
        self._write_links(run)
        run.status = "started"
        self._write_header(run)
        return self._execute(run, progress)

    def resume(self, scope: AgentScope) -> list[ConsolidationRun]:
        """Finish the agent's interrupted runs (so a new run starts from a settled store)."""
        finished: list[ConsolidationRun] = []
        unfinished = self.load_runs(scope.collection, scope.agent, unfinished=True)
        for run in sorted(unfinished, key=lambda r: (r.started_at, r.id)):
            if run.status == "planning":
                self._drop_plan(run)
                run.merges, run.link_changes = [], []
                run.status = "abandoned"
                run.finished_at = self.engine.now()
                run.messages.append("interrupted while recording its plan: no note was changed")
                self._write_header(run)
                finished.append(run)
            elif run.status == "started":
                run.messages.append(f"interrupted, finished at {self.engine.now()}")
                finished.append(self._execute(run, None))
        return finished

    # -------------------------------------------------------------- consolidate
    def consolidate(
        self,
        scope: AgentScope,
        *,
        dry_run: bool,
        threshold: float,
        progress: Progress | None,
        trigger: str,
    ) -> ConsolidationRun:
        """One run for one agent (see :meth:`MemoryEngine.consolidate`)."""
        if trigger not in ("manual", "scheduled"):
            raise InvalidInput(f"trigger must be 'manual' or 'scheduled', not {trigger!r}")
        if not 0.0 < threshold <= 1.0:
            raise InvalidInput(f"threshold must be above 0 and at most 1, got {threshold}")
        exists = self.store.collection_info(scope.collection) is not None
        if not dry_run and exists:
            self.resume(scope)
        run = ConsolidationRun(
            id=self.engine.new_id(),
            agent=scope.agent,
            collection=scope.collection,
            trigger=trigger,  # type: ignore[arg-type]
            started_at=self.engine.now(),
            threshold=threshold,
            dry_run=dry_run,
            judge=self.judge.name,
        )
        if exists:
            plan = self.plan(scope, threshold, run.id, run.started_at)
            run.candidates = plan.candidates
            run.merges = plan.merges
            run.link_changes = plan.links
        if dry_run or not exists:
            run.status = "planned" if dry_run else "done"
            run.finished_at = self.engine.now()
            if progress is not None:
                progress(len(run.merges), len(run.merges))
            return run
        return self._record_and_run(run, progress)

    # -------------------------------------------------------------------- undo
    def undo(self, scope: AgentScope, run_id: str, merge_keeper: str | None) -> ConsolidationRun:
        """Revert a run or one of its merges (see :meth:`MemoryEngine.undo`)."""
        try:
            uuid.UUID(run_id)
        except ValueError:
            raise RunNotFound(run_id, scope.agent) from None
        if self.store.collection_info(scope.collection) is None:
            raise RunNotFound(run_id, scope.agent)
        resumed = self.resume(scope)
        runs = {r.id: r for r in self.load_runs(scope.collection, scope.agent, [run_id])}
        run = runs.get(run_id)
        if run is None:
            if any(r.id == run_id for r in self.openclaw_runs(scope.collection, scope.agent)):
                raise InvalidInput(
                    f"run {run_id} was made by openclaw-amem and recorded only in notes' "
                    "evolution history: restore a dropped note with `restore ID` instead"
                )
            raise RunNotFound(run_id, scope.agent)
        if run.trigger == "undo":
            raise InvalidInput(f"run {run_id} is itself an undo; it cannot be undone")
        live = [i for i, m in enumerate(run.merges) if m.status == "done" and not m.undone]
        # An interrupted undo of this run, just finished by resume(), is the answer.
        for earlier in resumed:
            if earlier.undoes == run.id and earlier.status == "done":
                keepers = {m.keeper for m in earlier.merges}
                if (merge_keeper is None and not live) or merge_keeper in keepers:
                    return earlier
        if merge_keeper is not None:
            chosen = [i for i in live if run.merges[i].keeper == merge_keeper]
            if not chosen:
                known = [m for m in run.merges if m.keeper == merge_keeper]
                if not known:
                    raise InvalidInput(f"run {run_id} has no merge into keeper {merge_keeper}")
                raise InvalidInput(
                    f"the merge into {merge_keeper} of run {run_id} is already undone "
                    "or was never applied"
                )
        else:
            chosen = live
            if not chosen:
                raise InvalidInput(f"run {run_id} has nothing left to undo")
        undo = ConsolidationRun(
            id=self.engine.new_id(),
            agent=scope.agent,
            collection=scope.collection,
            trigger="undo",
            started_at=self.engine.now(),
            threshold=run.threshold,
            undoes=run.id,
            judge=run.judge,
        )
        undo.merges, undo.link_changes = self._undo_plan(scope, run, chosen, live)
        return self._record_and_run(undo, None)

    def _undo_plan(
        self, scope: AgentScope, run: ConsolidationRun, chosen: list[int], live: list[int]
    ) -> tuple[list[MergeRecord], list[NoteChange]]:
        keep = [i for i in live if i not in chosen]
        map_now = {d: run.merges[i].keeper for i in live for d in run.merges[i].dropped}
        map_left = {d: run.merges[i].keeper for i in keep for d in run.merges[i].dropped}
        ids = [c.note for i in chosen for c in run.merges[i].changes]
        ids += [m.keeper for m in run.merges] + [c.note for c in run.link_changes]
        current = {p.id: p for p in self.store.retrieve(scope.collection, _union(ids))}
        problems: list[str] = []
        merges: list[MergeRecord] = []
        for i in chosen:
            merge = run.merges[i]
            record = self._undo_merge(scope, run, i, merge, current, map_now, map_left, problems)
            if record is not None:
                merges.append(record)
        if problems:
            raise InvalidInput("undo refused: " + "; ".join(problems))
        links: list[NoteChange] = []
        # Other keepers of this run (merged still, or restored by an earlier undo) may
        # link to the notes being restored.
        for i, merge in enumerate(run.merges):
            if i in chosen or merge.status != "done":
                continue
            keeper_change = next(c for c in merge.changes if c.role == "keeper")
            if i in keep:
                original = merge.links_source
            elif "links" in keeper_change.before:
                original = list(keeper_change.before["links"])
            else:
                continue
            point = current.get(merge.keeper)
            if point is None:
                continue
            was = rewrite_links(original, map_now, merge.keeper)
            now = rewrite_links(original, map_left, merge.keeper)
            if was != now and point.payload.get("links") == was:
                links.append(make_change("links", merge.keeper, point.payload, {"links": now}))
        for change in run.link_changes:
            point = current.get(change.note)
            if change.status != "done" or point is None:
                continue
            original = change.before.get("links", [])
            was = rewrite_links(original, map_now, change.note)
            now = rewrite_links(original, map_left, change.note)
            if was == now:
                continue
            if point.payload.get("links") != was:
                links.append(
                    NoteChange(
                        note=change.note,
                        role="links",
                        status="skipped",
                        message="its links changed since the run; left as they are",
                    )
                )
                continue
            links.append(make_change("links", change.note, point.payload, {"links": now}))
        return merges, links

    def _undo_merge(
        self,
        scope: AgentScope,
        run: ConsolidationRun,
        index: int,
        merge: MergeRecord,
        current: dict[str, StoredPoint],
        map_now: dict[str, str],
        map_left: dict[str, str],
        problems: list[str],
    ) -> MergeRecord | None:
        keeper_change = next(c for c in merge.changes if c.role == "keeper")
        point = current.get(merge.keeper)
        if point is None:
            problems.append(f"keeper {merge.keeper} no longer exists")
            return None
        note = MemoryNote.from_payload(point.id, point.payload)
        rules.require_write(scope.agent, note, "undo a merge into")
        payload = point.payload
        expected = dict(keeper_change.set)
        if "links" in expected:
            expected["links"] = rewrite_links(merge.links_source, map_now, merge.keeper)
        changed = [
            key
            for key in ("content", "hash", "tags", "keywords", "evolution_history", "links")
            if key in expected and payload.get(key, _MISSING) != expected[key]
        ]
        if payload.get("is_active") is False:
            changed.append("is_active")
        if changed:
            problems.append(
                f"keeper {merge.keeper} changed since run {run.id} ({', '.join(changed)}); "
                "undo later changes first"
            )
            return None
        restore: dict[str, Any] = dict(keeper_change.before)
        if "links" in restore:
            restore["links"] = rewrite_links(restore["links"], map_left, merge.keeper)
        # Retrievals counted since the merge stay counted.
        count_now, count_after = (
            payload.get("retrieval_count"),
            keeper_change.set.get("retrieval_count"),
        )
        if (
            isinstance(count_now, int)
            and isinstance(count_after, int)
            and isinstance(restore.get("retrieval_count"), int)
            and count_now > count_after
        ):
            restore["retrieval_count"] += count_now - count_after
        if (
            "last_accessed" in keeper_change.set
            and "last_accessed" in payload
            and payload["last_accessed"] != keeper_change.set["last_accessed"]
        ):
            restore["last_accessed"] = payload["last_accessed"]
        vector = None
        if "content" in keeper_change.set:
            self.engine.check_model(scope.collection)
            old = str(keeper_change.before.get("content", ""))
            vector = _encode_vector(self.engine.embedder.embed_documents([old])[0])
        changes = [
            make_change(
                "keeper",
                merge.keeper,
                payload,
                restore,
                unset=keeper_change.absent,
                guard=("content", "hash"),
                vector=vector,
            )
        ]
        for change in merge.changes:
            if change.role != "dropped" or change.status != "done":
                continue
            dropped = current.get(change.note)
            if dropped is None:
                continue
            if "is_active" in change.absent:
                changes.append(
                    make_change("dropped", change.note, dropped.payload, {}, ["is_active"])
                )
            else:
                value = change.before.get("is_active", True)
                changes.append(
                    make_change("dropped", change.note, dropped.payload, {"is_active": value})
                )
        return MergeRecord(
            keeper=merge.keeper,
            dropped=list(merge.dropped),
            similarity=merge.similarity,
            similarities=dict(merge.similarities),
            category=merge.category,
            content_before=str(payload.get("content", "")),
            content_after=merge.content_before,
            dropped_content=dict(merge.dropped_content),
            hash_before=str(payload.get("hash", "")),
            hash_after=merge.hash_before,
            tags_before=merge.tags_after,
            tags_after=merge.tags_before,
            keywords_before=merge.keywords_after,
            keywords_after=merge.keywords_before,
            links_before=list(payload.get("links") or []),
            links_after=list(restore.get("links", payload.get("links") or [])),
            links_source=merge.links_source,
            reason=f"undo of run {run.id}",
            status="planned",
            source_index=index,
            changes=changes,
        )

    # ----------------------------------------------------------------- history
    def history(self, scopes: Sequence[AgentScope], agent: str | None) -> list[ConsolidationRun]:
        """Recorded runs and openclaw-amem's merges, newest first."""
        collections = _union(s.collection for s in scopes)
        runs: list[ConsolidationRun] = []
        for collection in collections:
            runs += self.load_runs(collection, agent)
            runs += self.openclaw_runs(collection, agent)
        runs.sort(key=lambda r: (r.started_at, r.id), reverse=True)
        return runs

    def openclaw_runs(self, collection: str, agent: str | None) -> list[ConsolidationRun]:
        """Merges openclaw-amem recorded in notes' evolution history, grouped into runs."""
        if self.store.collection_info(collection) is None:
            return []
        if agent is not None:
            flt = Filter(must=(Match("agent_id", agent),))
        else:
            flt = Filter(must_not=(MatchAny("agent_id", (SHARED,)),))
        found: list[tuple[str, str, MergeRecord]] = []
        for point in self._scroll_all(collection, flt):
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
        self._fill_similarities(collection, [m for _, _, m in found])
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

    def _fill_similarities(self, collection: str, merges: list[MergeRecord]) -> None:
        ids = _union(*([m.keeper, *m.dropped] for m in merges))
        if not ids:
            return
        vectors = self.engine.vectors_of(collection, ids)
        points = {p.id: p for p in self.store.retrieve(collection, ids)}
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


class RunNotFound(NotFound):
    """No consolidation run with this id for this agent."""

    def __init__(self, run_id: str, agent: str) -> None:
        super().__init__(run_id, agent)
        self.message = f"no consolidation run {run_id} for agent '{agent}'"
        self.args = (self.message,)


def run_json(run: ConsolidationRun, full: bool = False) -> dict[str, Any]:
    """A run as JSON (see :meth:`ConsolidationRun.to_json`)."""
    return run.to_json(full)


def dumps(run: ConsolidationRun) -> str:
    """A run as compact JSON text."""
    return json.dumps(run_json(run), ensure_ascii=False, separators=(",", ":"))
