"""Near-verbatim copies by meaning: private notes whose stored vector has a cosine of at
least ``NEAR`` with a note readable beyond its writer, in one vector space (the
vectors of one model).

No vector is embedded again: the stored ones are read once. Comparing every private
note with every readable one would cost a product of 384 numbers per pair; instead each
vector keeps its first ``KEPT`` coordinates in a basis fitted to the store's own
vectors, and the length of the rest. For unit vectors ``s`` and ``t`` the cosine is the
product of the kept parts plus that of the rest, which is at most the product of the
two lengths, so a pair whose bound stays under the threshold cannot reach it: the
products of the kept parts, in chunks, rule out all but a few pairs exactly, and those
few are compared in full. Above ``BUDGET`` products the private notes are sampled
(a seeded sample), and the report says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from amem_tui.engine.isolation.findings import Coverage

#: The cosine at or above which two notes are near-verbatim copies.
NEAR = 0.95
#: Coordinates kept per vector for the bound: the fewest that hold ``ENERGY`` of the
#: fitted vectors' squared length, at least ``FEWEST`` and at most ``KEPT``.
KEPT = 64
FEWEST = 16
ENERGY = 0.6
#: Vectors the basis is fitted to (the first ones read).
FIT = 2048
#: Products of kept parts the comparison may make (private x readable notes).
BUDGET = 4_000_000_000
#: Bounds computed at a time (private notes x readable ones), at most ``CHUNK`` private
#: notes and at least ``FEWEST_ROWS``: a block this small stays in the processor's cache
#: between the product that writes it and the comparison that reads it, where a block
#: of a thousand private notes went out to memory and back.
BLOCK = 1 << 20
CHUNK = 1024
FEWEST_ROWS = 32
#: Slack for float rounding in the bound.
SLACK = 1e-4

#: Reads the full stored vectors of notes (by their index in the audit).
FetchVectors = Callable[[Sequence[int]], dict[int, np.ndarray]]
#: Whether a (private, readable) pair could make a finding at all (cheap, asked first).
Worth = Callable[[int, int], bool]


def _unit(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    unit: np.ndarray = rows / norms
    return unit


@dataclass
class VectorSpace:
    """The vectors of one model: private notes as bounds, readable ones in full."""

    name: str
    _basis: np.ndarray | None = None
    _waiting: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = field(
        default_factory=list
    )
    _sources: list[np.ndarray] = field(default_factory=list)
    _source_kept: list[np.ndarray] = field(default_factory=list)
    _targets: list[np.ndarray] = field(default_factory=list)
    _target_rows: list[np.ndarray] = field(default_factory=list)

    def add(
        self, notes: np.ndarray, vectors: np.ndarray, source: np.ndarray, target: np.ndarray
    ) -> None:
        """Add a page of vectors; ``source`` / ``target`` mark the private notes and the
        notes readable beyond their writer (a note may be both)."""
        if len(notes) == 0:
            return
        rows = _unit(np.asarray(vectors, dtype=np.float32))
        self._waiting.append((notes, rows, source, target))
        if self._basis is None and sum(len(w[0]) for w in self._waiting) < FIT:
            return
        self._flush()

    def _flush(self) -> None:
        if not self._waiting:
            return
        if self._basis is None:
            sample = np.concatenate([w[1] for w in self._waiting])[:FIT].astype(np.float64)
            # The sample's principal directions, from its small Gram matrix.
            energy, directions = np.linalg.eigh(sample.T @ sample)
            energy, directions = energy[::-1], directions[:, ::-1]
            share = np.cumsum(energy) / max(float(np.sum(energy)), 1e-12)
            kept = int(np.searchsorted(share, ENERGY)) + 1
            kept = max(FEWEST, min(KEPT, kept, len(sample)))
            self._basis = np.ascontiguousarray(directions[:, :kept], dtype=np.float32)
        for notes, rows, source, target in self._waiting:
            kept = rows @ self._basis
            rest = np.sqrt(np.clip(1.0 - np.einsum("ij,ij->i", kept, kept), 0.0, None))
            packed = np.hstack([kept, rest[:, None]]).astype(np.float32)
            if source.any():
                self._sources.append(notes[source])
                self._source_kept.append(packed[source])
            if target.any():
                self._targets.append(notes[target])
                self._target_rows.append(rows[target])
        self._waiting.clear()

    def near_pairs(
        self, fetch: FetchVectors, worth: Worth, skip: set[tuple[int, int]]
    ) -> tuple[list[tuple[int, int, float]], Coverage]:
        """Every (private, readable, cosine) pair at or above ``NEAR`` that ``worth``
        accepts and ``skip`` does not hold, and how much was compared."""
        self._flush()
        if not self._sources or not self._targets or self._basis is None:
            return [], Coverage(check=f"cosine ({self.name})", compared=0, total=0, how="")
        sources = np.concatenate(self._sources)
        packed = np.concatenate(self._source_kept)
        targets = np.concatenate(self._targets)
        full = np.concatenate(self._target_rows)
        kept_t = full @ self._basis
        rest_t = np.sqrt(np.clip(1.0 - np.einsum("ij,ij->i", kept_t, kept_t), 0.0, None))
        # The bound in one product: (kept_s, rest_s) . (kept_t, rest_t).
        packed_t = np.ascontiguousarray(np.hstack([kept_t, rest_t[:, None]]).T, np.float32)
        order = np.arange(len(sources))
        allowed = max(1, BUDGET // max(1, len(targets)))
        if len(sources) > allowed:  # a seeded sample, said in the coverage
            order = np.sort(np.random.default_rng(0).choice(len(sources), allowed, replace=False))
        candidates: list[tuple[int, int]] = []
        step = max(FEWEST_ROWS, min(CHUNK, BLOCK // len(targets)))
        for start in range(0, len(order), step):
            rows = order[start : start + step]
            bound = packed[rows] @ packed_t
            near = np.flatnonzero(bound.max(axis=1) >= NEAR - SLACK)
            if len(near) == 0:
                continue
            hit_rows, hit_cols = np.nonzero(bound[near] >= NEAR - SLACK)
            for r, c in zip(near[hit_rows].tolist(), hit_cols.tolist(), strict=True):
                s, t = int(sources[rows[r]]), int(targets[c])
                if s != t and (s, t) not in skip and worth(s, t):
                    candidates.append((s, t))
        pairs = self._confirm(candidates, targets, full, fetch)
        how = (
            "every private note against every readable note"
            if len(order) == len(sources)
            else f"a seeded sample of {len(order):,} of {len(sources):,} private notes "
            f"against every readable note ({BUDGET:,} comparisons at most)"
        )
        coverage = Coverage(
            check=f"cosine ({self.name})", compared=len(order), total=len(sources), how=how
        )
        return pairs, coverage

    @staticmethod
    def _confirm(
        candidates: list[tuple[int, int]],
        targets: np.ndarray,
        full: np.ndarray,
        fetch: FetchVectors,
    ) -> list[tuple[int, int, float]]:
        """The candidates whose full vectors reach ``NEAR``."""
        if not candidates:
            return []
        row_of = {int(t): i for i, t in enumerate(targets.tolist())}
        found = fetch(sorted({s for s, _ in candidates}))
        out: list[tuple[int, int, float]] = []
        for s, t in candidates:
            vector = found.get(s)
            if vector is None:  # deleted since it was read
                continue
            norm = float(np.linalg.norm(vector)) or 1.0
            cosine = float(np.dot(vector / norm, full[row_of[t]]))
            if cosine >= NEAR:
                out.append((s, t, cosine))
        return out
