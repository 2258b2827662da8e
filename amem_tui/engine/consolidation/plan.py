"""Planning a consolidation run: candidates, clusters of near-duplicates, the judge's
merges, and the compare-and-set changes that carry them out.

Only the agent's private, active ``memory`` notes are candidates (see
``amem_tui.engine.scope.may_consolidate``). Notes of one category whose cosine
similarity reaches the threshold form a cluster (chains included); the judge decides
what each cluster becomes. Planning only reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

import amem_tui.engine.scope as rules
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.consolidation.basis import digest, is_candidate
from amem_tui.engine.consolidation.changes import (
    encode_vector,
    latest,
    make_change,
    rewrite_links,
    union,
)
from amem_tui.engine.errors import InvalidInput
from amem_tui.engine.models import EvolutionEntry, MemoryNote, content_hash
from amem_tui.engine.run_records import MergeRecord, NoteChange
from amem_tui.engine.scope import AgentScope

#: Cosine similarity at or above which two notes count as near-duplicates.
#: openclaw-amem uses 0.75 with its bge-m3 model; with all-MiniLM-L6-v2 distinct
#: facts on one topic reach 0.81-0.84 while paraphrases score 0.88 and up.
DEFAULT_THRESHOLD = 0.85
#: Evolution-entry key that marks our own merges (openclaw-amem ignores unknown keys).
RUN_KEY = "amemRun"
#: Rows of the similarity matrix computed at a time while clustering.
CLUSTER_BLOCK = 1024


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


# ------------------------------------------------------------------ clusters
@dataclass
class Candidate:
    """A note that may be merged, with its payload as stored and its vector."""

    note: MemoryNote
    payload: dict[str, Any]
    vector: np.ndarray


@dataclass
class Plan:
    """What a run would do: its merges and the link rewrites they need."""

    candidates: int
    merges: list[MergeRecord] = field(default_factory=list)
    links: list[NoteChange] = field(default_factory=list)
    #: Every candidate's payload digest, as read (see ``basis``).
    basis: dict[str, str] = field(default_factory=dict)


def find_clusters(
    vectors: np.ndarray, threshold: float, block: int = CLUSTER_BLOCK
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


class Planner:
    """Plans one agent's consolidation in one collection (reads only)."""

    def __init__(self, service: CollectionService, judge: Judge) -> None:
        self.service = service
        self.judge = judge

    def candidates(self, scope: AgentScope, basis: dict[str, str]) -> list[Candidate]:
        """The agent's notes that may be merged, by id (storage order must not matter);
        ``basis`` gets the digest of every candidate's payload."""
        flt = rules.consolidation_filter(scope)
        found: list[Candidate] = []
        for point in self.service.store.scan(scope.collection, flt, with_vectors=True):
            note = MemoryNote.from_payload(point.id, point.payload)
            if not is_candidate(scope, note):
                continue
            basis[point.id] = digest(point.payload)
            if point.vector:
                found.append(Candidate(note, dict(point.payload), np.asarray(point.vector)))
        found.sort(key=lambda c: c.note.id)
        return found

    def plan(self, scope: AgentScope, threshold: float, run_id: str, now: str) -> Plan:
        """The merges and link rewrites a run would make (reads only)."""
        basis: dict[str, str] = {}
        candidates = self.candidates(scope, basis)
        plan = Plan(candidates=len(candidates), basis=basis)
        by_category: dict[str, list[Candidate]] = {}
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
        by_id: dict[str, Candidate],
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
        tags = union(before.tags, *(d.note.tags for d in dropped))
        keywords = union(before.keywords, *(d.note.keywords for d in dropped))
        source = union(before.links, *(d.note.links for d in dropped))
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
            latest([before.last_accessed, *(d.note.last_accessed for d in dropped)])
            or before.last_accessed
        )
        entries = [
            EvolutionEntry.model_validate(
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
            )
            for d in dropped
        ]
        after.evolution_history = [*before.evolution_history, *entries]
        after.touch("content", "hash", "tags", "keywords", "links", "evolution_history")
        after.touch("retrieval_count", "last_accessed")
        vector = None
        if content != before.content:
            vector = encode_vector(self.service.model.embed_documents([content])[0])
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
