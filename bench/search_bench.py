"""How long a live search takes, by mode, with the note cache cold and warm.

Usage: python bench/search_bench.py [--notes N] [--store local|edge] [--real-model]

Fills a store (qdrant-client local mode in memory, or Qdrant Edge in a temporary
folder, optimized) with N notes from three agents, then times, side by side in
the same run:
- dense: the vector search alone (no note scan);
- hybrid, cold: the first search after a write (scans and tokenizes the notes);
- hybrid, warm: later searches (notes cached until the next write);
- hybrid + hidden: warm, with the hidden matches.
Figures are medians in milliseconds and ratios to the dense search; this machine
is shared and noisy, so compare ratios, not absolute numbers.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
import uuid

from amem_tui.config import AgentConfig, Settings
from amem_tui.engine.embed import HashEmbedder, make_embedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.base import NoteStore
from amem_tui.engine.store.qdrant import QdrantStore

WORDS = (
    "deploy",
    "freeze",
    "release",
    "billing",
    "vendor",
    "standup",
    "tests",
    "lint",
    "docker",
    "cache",
    "invoice",
    "offsite",
    "flight",
    "payments",
    "hotfix",
    "auth",
    "middleware",
    "token",
    "expiry",
    "staging",
    "database",
    "credentials",
    "rotate",
    "monday",
    "branch",
    "review",
    "merge",
    "ticket",
    "sandbox",
    "plugin",
    "experiment",
)


def fill(engine: MemoryEngine, count: int, rng: random.Random) -> None:
    notes = []
    for i in range(count):
        agent = rng.choice(["main", "dev", "shared"])
        owner = "main" if agent == "shared" else agent
        notes.append(
            MemoryNote(
                id=str(uuid.UUID(int=i + 1)),
                content=" ".join(rng.choices(WORDS, k=12)) + f" note {i}",
                keywords=rng.sample(WORDS, 3),
                tags=rng.sample(WORDS, 2),
                context="bench note",
                agent_id=agent,
                owner=owner,
                readers=["*"] if agent == "shared" else [owner],
                writers=[owner],
                is_active=rng.random() > 0.05,
            )
        )
    engine.put_notes("amem_notes", notes)


def timed(call: object, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()  # type: ignore[operator]
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--notes", type=int, default=3000)
    parser.add_argument("--queries", type=int, default=5)
    parser.add_argument("--store", choices=["local", "edge"], default="local")
    parser.add_argument("--real-model", action="store_true", help="use the fastembed model")
    args = parser.parse_args()
    rng = random.Random(0)
    embedder = make_embedder(None) if args.real_model else HashEmbedder()
    settings = Settings(agents=[AgentConfig(agent="dev")])
    folder = tempfile.TemporaryDirectory(prefix="amem-search-bench-")
    store: NoteStore
    if args.store == "edge":
        from amem_tui.engine.store.edge import EdgeStore

        store = EdgeStore(folder.name, background=False)
    else:
        store = QdrantStore(path=":memory:")
    engine = MemoryEngine(settings, store=store, embedder=embedder)
    fill(engine, args.notes, rng)
    if args.store == "edge":
        store.optimize()  # type: ignore[attr-defined]
    queries = [" ".join(rng.sample(WORDS, 3)) for _ in range(args.queries)]
    engine.agent("dev").search("warm up the model")

    def cold() -> None:
        # Simulate a write: the store's generation moves, so the note cache is rebuilt.
        engine.store.write_generation += 2
        engine.agent("dev").search(rng.choice(queries))

    rows = {
        "dense": timed(lambda: engine.agent("dev").search(rng.choice(queries), mode="dense"), 5),
        "hybrid, cold": timed(cold, 3),
        "hybrid, warm": timed(lambda: engine.agent("dev").search(rng.choice(queries)), 5),
        "hybrid + hidden": timed(
            lambda: engine.agent("dev").search(rng.choice(queries), hidden=True), 5
        ),
    }
    base = statistics.median(rows["dense"])
    where = "Qdrant Edge (optimized)" if args.store == "edge" else "qdrant-client local mode"
    print(f"{args.notes} notes, {where}, embedder {embedder.model_name}")
    print("compared against: the dense-only search in the same run")
    for name, values in rows.items():
        median = statistics.median(values)
        print(f"{name:<16} {median:9.1f} ms   x{median / base:5.2f} of dense")
    engine.close()
    folder.cleanup()


if __name__ == "__main__":
    main()
