"""How long consolidating one agent takes at 1k and 10k private notes.

Usage: python bench/consolidation.py [--sizes 1000,10000] [--dup-rate 0.2] [--naive-sample 100]

For each size N, fills an in-memory qdrant-client store (local mode) with N
private notes of agent ``main`` (384-dimensional vectors; a share of them in
near-duplicate groups of 2-3), plus N/4 notes of ``dev`` and N/4 shared notes
that must be left alone, then times, side by side in the same run:
- plan: a dry run (reads the agent's notes with their vectors, clusters them
  with a block-wise similarity matrix, builds the merges; writes nothing);
- run: a real run (records the plan, applies the merges, rewrites links);
- check: what applying a plan made earlier (the TUI's preview) adds to a run: one
  read of the agent's candidates, without vectors, and a digest of each payload,
  to confirm they are the notes the plan was made from (a run that plans and
  applies at once, as "run" here and the CLI do, skips it); with its share of "run";
- naive plan: what one nearest-neighbour query per note would cost (one store
  search per candidate), timed on --naive-sample notes and scaled to all of them.
Figures are wall-clock seconds (CPU seconds of this process in brackets; local
mode runs in-process, so CPU time is the steadier figure on a busy machine) and
ratios (each size against the first, and naive against plan); this machine is
shared and noisy, so compare ratios, not absolute numbers.
"""

from __future__ import annotations

import argparse
import time
import uuid
from collections.abc import Callable
from typing import TypeVar

import numpy as np

from amem_tui.config import AgentConfig, Settings
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.consolidation import DEFAULT_THRESHOLD
from amem_tui.engine.consolidation.basis import current_basis
from amem_tui.engine.embed import HashEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.modelinfo import Embedders, ModelChoices
from amem_tui.engine.models import MemoryNote, content_hash
from amem_tui.engine.scope import consolidation_filter
from amem_tui.engine.store.qdrant import QdrantStore

T = TypeVar("T")
DIM = 384
CATEGORIES = ("Technical", "Project", "Personal", "Business")


def _note(i: int, agent: str, rng: np.random.Generator) -> MemoryNote:
    owner = "main" if agent == "shared" else agent
    content = f"Bench note {i} of {agent}: " + " ".join(
        rng.choice(["deploy", "tests", "billing", "review", "cache", "auth"], size=8)
    )
    return MemoryNote(
        id=str(uuid.UUID(int=i + 1)),
        content=content,
        tags=[f"t{i % 7}"],
        keywords=[f"k{i % 11}"],
        links=[str(uuid.UUID(int=int(rng.integers(1, i + 2))))] if i % 10 == 0 else [],
        timestamp="2026-11-01T00:00:00.000Z",
        last_accessed="2026-11-02T00:00:00.000Z",
        agent_id=agent,
        hash=content_hash(content),
        category=CATEGORIES[i % len(CATEGORIES)],
        is_active=True,
        owner=owner,
        readers=["*"] if agent == "shared" else [owner],
        writers=[owner],
    )


def fill(engine: MemoryEngine, size: int, dup_rate: float, seed: int = 7) -> int:
    """N private notes of main (a share in near-duplicate groups), N/4 of dev, N/4 shared."""
    rng = np.random.default_rng(seed)
    notes: list[MemoryNote] = []
    vectors: list[list[float]] = []
    base: np.ndarray | None = None
    base_category = ""
    for i in range(size + size // 2):
        agent = "main" if i < size else ("dev" if i % 2 else "shared")
        note = _note(i, agent, rng)
        vec = rng.standard_normal(DIM)
        if agent == "main" and base is not None and rng.random() < dup_rate:
            vec = base + 0.25 * vec / np.sqrt(DIM)  # cosine about 0.97 to the group's first
            note.category = base_category
        else:
            base, base_category = vec, note.category
        notes.append(note)
        vectors.append((vec / np.linalg.norm(vec)).tolist())
    engine.put_notes("amem_notes", notes, vectors)
    return len(notes)


def new_engine() -> MemoryEngine:
    return MemoryEngine(
        Settings(agents=[AgentConfig(agent="dev")]),
        store=QdrantStore(path=":memory:"),
        embedder=HashEmbedder(dim=DIM),
    )


def naive_plan(engine: MemoryEngine, threshold: float, sample: int) -> float:
    """Seconds for one nearest-neighbour query per candidate, scaled from ``sample`` queries."""
    scope = engine.scope("main")
    flt = consolidation_filter(scope)
    points = engine.store.scroll(scope.collection, flt, limit=1_000_000, with_vectors=True)
    chosen = points[: max(1, sample)]
    start = time.perf_counter()
    for point in chosen:
        hits = engine.store.search(scope.collection, point.vector or [], flt, limit=10)
        _ = [h for h in hits if h.id != point.id and h.score >= threshold]
    return (time.perf_counter() - start) * len(points) / len(chosen)


def _timed(fn: Callable[[], T]) -> tuple[T, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def service_of(engine: MemoryEngine, collection: str) -> CollectionService:
    """A collection of the engine's store as the engine's parts read it (the engine
    itself never hands its collection services out)."""
    return CollectionService(engine.store, collection, Embedders(engine.embedder), ModelChoices())


def measure(size: int, dup_rate: float, sample: int) -> dict[str, float]:
    """Seconds for a dry run, a real run and the naive plan (scaled)."""
    engine = new_engine()
    total = fill(engine, size, dup_rate)
    out: dict[str, float] = {"notes": float(total)}
    plan, out["plan"], out["plan_cpu"] = _timed(
        lambda: engine.agent("main").consolidate(dry_run=True, threshold=DEFAULT_THRESHOLD)
    )
    out["merges"] = float(len(plan.merges))
    out["dropped"] = float(sum(len(m.dropped) for m in plan.merges))
    scope = engine.scope("main")
    _, out["check"], out["check_cpu"] = _timed(
        lambda: current_basis(service_of(engine, scope.collection), scope)
    )
    run, out["run"], out["run_cpu"] = _timed(
        lambda: engine.agent("main").consolidate(threshold=DEFAULT_THRESHOLD)
    )
    assert len(run.merges) == len(plan.merges)
    fresh = new_engine()
    fill(fresh, size, dup_rate)
    out["naive"] = naive_plan(fresh, DEFAULT_THRESHOLD, sample)
    fresh.close()
    engine.close()
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the figures for each size, and their ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000", help="private-note counts")
    parser.add_argument("--dup-rate", type=float, default=0.2, help="share of near-duplicates")
    parser.add_argument("--naive-sample", type=int, default=100, help="queries timed naively")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    print(
        f"consolidation of agent main, qdrant-client local mode (:memory:), {DIM} dims, "
        f"threshold {DEFAULT_THRESHOLD}, near-duplicate share {args.dup_rate}"
    )
    print(
        "compared against: the same run at the first size, and one search per note "
        f"(naive, timed on {args.naive_sample} notes and scaled)"
    )
    rows = [(size, measure(size, args.dup_rate, args.naive_sample)) for size in sizes]
    first = rows[0][1]
    print(
        f"{'private':>8} {'in store':>8} {'merges':>7} {'dropped':>7} {'plan s (cpu)':>14} "
        f"{'run s (cpu)':>14} {'check s (cpu)':>14} {'check/run':>9} {'plan x':>7} {'run x':>7} "
        f"{'naive s':>9} {'naive/plan':>10}"
    )
    for size, row in rows:
        plan = f"{row['plan']:.2f} ({row['plan_cpu']:.2f})"
        run = f"{row['run']:.2f} ({row['run_cpu']:.2f})"
        check = f"{row['check']:.2f} ({row['check_cpu']:.2f})"
        print(
            f"{size:>8} {int(row['notes']):>8} {int(row['merges']):>7} {int(row['dropped']):>7} "
            f"{plan:>14} {run:>14} {check:>14} {row['check_cpu'] / row['run_cpu']:>9.2f} "
            f"{row['plan_cpu'] / first['plan_cpu']:>7.1f} "
            f"{row['run_cpu'] / first['run_cpu']:>7.1f} {row['naive']:>9.1f} "
            f"{row['naive'] / row['plan']:>10.1f}"
        )
    print("plan x / run x: CPU time relative to the first size")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
