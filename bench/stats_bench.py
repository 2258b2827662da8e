"""The store overview (``stats``) and ``compare`` against a plain full scan of the same store.

Usage: python bench/stats_bench.py [--sizes 10000,100000] [--backends edge,qdrant-local]
       [--runs 3] [--tui]

This is a script, not a test. For each size it builds a store of the generated
multi-agent corpus (bench/corpus.py: eight Mode A agents, shared notes, notes shared
with chosen readers, soft-deleted and legacy notes), then times, side by side in the
same process and run:

- ``scan``: a plain full scan of the points (payloads, no vectors): the floor;
- ``notes``: the same scan with every point read into a note (what any rule needs);
- ``stats``: ``engine.stats()`` as ``amem-tui stats`` runs it;
- ``watched``: the same with a progress callback, as the overview runs it (it then
  reads in small pages, so that no store call holds the interpreter lock for long);
- ``compare``: ``engine.compare("main", "dev")`` (the three groups, a page of each).

Each figure is the median of ``--runs`` runs, with its ratio to ``scan``. Neither
``stats`` nor ``compare`` reads vectors, so the points get seeded random unit
vectors instead of real-model embeddings: the store is built in seconds, and the
figures are those of the payload reads alone. With ``--tui`` the real overview
screen is built under Pilot on the Edge store, and a timer that should tick every
50 ms measures how late the screen's event loop gets while the worker reads:
the overview must never freeze the app.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import corpus as corpus_mod  # noqa: E402
import numpy as np  # noqa: E402

from amem_tui.config import AgentConfig, Settings  # noqa: E402
from amem_tui.engine.collections import CollectionService  # noqa: E402
from amem_tui.engine.embed import HashEmbedder  # noqa: E402
from amem_tui.engine.engine import MemoryEngine  # noqa: E402
from amem_tui.engine.modelinfo import Embedders, ModelChoices  # noqa: E402
from amem_tui.engine.store.base import StoredPoint  # noqa: E402
from bench import COLLECTION, note_payload  # noqa: E402

DIM = 384
TICK = 0.05


def open_backend(backend: str, folder: Path) -> Any:
    """The store a backend keeps in ``folder``."""
    if backend == "edge":
        from amem_tui.engine.store.edge import EdgeStore

        return EdgeStore(folder, optimize_after=10**12, background=False)
    from amem_tui.engine.store.qdrant import QdrantStore

    return QdrantStore(path=str(folder))


def build(backend: str, size: int, folder: Path) -> float:
    """Write ``size`` generated notes (random unit vectors); returns the seconds taken."""
    c = corpus_mod.generate(size)
    rng = np.random.default_rng(7)
    started = time.perf_counter()
    store = open_backend(backend, folder)
    store.ensure_collection(COLLECTION, DIM, "sentence-transformers/all-MiniLM-L6-v2")
    for start in range(0, size, 1024):
        stop = min(size, start + 1024)
        vectors = rng.standard_normal((stop - start, DIM)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        points = [
            StoredPoint(c.ids[i], note_payload(c, i), vectors[i - start].tolist())
            for i in range(start, stop)
        ]
        store.upsert(COLLECTION, points)
    if backend == "edge":
        store.optimize(COLLECTION)
    store.close()
    return time.perf_counter() - started


def settings(folder: Path, backend: str) -> Settings:
    """The corpus's agents, all Mode A on one collection."""
    agents = [AgentConfig(agent=name) for name in corpus_mod.AGENTS[1:]]
    return Settings(store_path=folder, backend=backend, agents=agents)  # type: ignore[arg-type]


def median_time(run: Callable[[], object], runs: int) -> float:
    """The median seconds of ``runs`` calls."""
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def measure(engine: MemoryEngine, runs: int) -> dict[str, float]:
    """Every figure of the module docstring, in seconds."""
    store = engine.store
    # The collection as the engine's parts read it (the engine never hands it out).
    service = CollectionService(store, COLLECTION, Embedders(engine.embedder), ModelChoices())

    def scan() -> int:
        return sum(1 for _ in store.scan(COLLECTION))

    def notes() -> int:
        return sum(1 for _ in service.notes())

    progress_calls = []
    engine.agents()  # discover the agents once, as the app has by the time it asks
    out = {
        "scan": median_time(scan, runs),
        "notes": median_time(notes, runs),
        "stats": median_time(engine.stats, runs),
        "watched": median_time(lambda: engine.stats(lambda d, t: progress_calls.append(d)), runs),
        "compare": median_time(lambda: engine.compare("main", "dev", limit=50), runs),
    }
    out["progress_calls"] = len(progress_calls) / runs
    return out


async def tui_lag(engine: MemoryEngine) -> dict[str, float]:
    """Build the overview in the real app; how late a 50 ms timer ran meanwhile."""
    from amem_tui.tui.app import AmemApp
    from amem_tui.tui.screens.overview import OverviewScreen

    app = AmemApp(engine, user_config=False)
    lags: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(1.0)
        last = [time.perf_counter()]

        def tick() -> None:
            now = time.perf_counter()
            lags.append(now - last[0] - TICK)
            last[0] = now

        timer = app.set_interval(TICK, tick)
        began = time.perf_counter()
        await pilot.press("o")
        while not (isinstance(app.screen, OverviewScreen) and app.screen.stats is not None):
            await asyncio.sleep(0.01)
        built = time.perf_counter() - began
        timer.stop()
    ordered = sorted(lags)
    return {
        "overview_s": built,
        "ticks": len(lags),
        "lag_p50_ms": statistics.median(ordered) * 1000 if ordered else 0.0,
        "lag_max_ms": ordered[-1] * 1000 if ordered else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    """Build, measure and print each size and backend."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000")
    parser.add_argument("--backends", default="edge,qdrant-local")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tui", action="store_true", help="also the overview in the real app")
    args = parser.parse_args(argv)
    print("stats and compare vs a plain full scan, same store, same run (median seconds)")
    for size in (int(s) for s in args.sizes.split(",")):
        for backend in args.backends.split(","):
            folder = Path(tempfile.mkdtemp(prefix=f"stats-{backend}-{size}-"))
            try:
                built = build(backend, size, folder / "store")
                engine = MemoryEngine(settings(folder / "store", backend), embedder=HashEmbedder())
                figures = measure(engine, args.runs)
                base = figures["scan"]
                print(
                    f"{size:>7,} notes  {backend:<12} built {built:6.1f}s  "
                    f"scan {base:6.2f}s  notes {figures['notes']:6.2f}s "
                    f"({figures['notes'] / base:4.1f}x)  stats {figures['stats']:6.2f}s "
                    f"({figures['stats'] / base:4.1f}x)  watched {figures['watched']:6.2f}s "
                    f"({figures['watched'] / base:4.1f}x, {figures['progress_calls']:.0f} progress "
                    f"reports)  compare {figures['compare']:6.2f}s "
                    f"({figures['compare'] / base:4.1f}x)"
                )
                if args.tui and backend == "edge":
                    lag = asyncio.run(tui_lag(engine))
                    print(
                        f"{'':>14}{'overview in the app':<18} built in {lag['overview_s']:.1f}s; "
                        f"a 50 ms timer ticked {lag['ticks']:.0f} times meanwhile, late by "
                        f"{lag['lag_p50_ms']:.0f} ms (median), {lag['lag_max_ms']:.0f} ms (worst)"
                    )
                engine.close()
            finally:
                shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
