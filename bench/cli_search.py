"""The CLI's search as a whole process, dense against hybrid, side by side in one run.

A person (or a script) runs ``amem-tui search`` once and waits for the process: the
interpreter, the imports, opening the store, the model, and the search itself. Hybrid
search also needs the keyword index of what the agent may search; with the index
saved beside the store it is loaded, caught up and used, instead of every note being
read and tokenized again. This prints, for the same queries on the same store:

- ``search --mode dense`` (the floor: no keyword index at all);
- ``search`` (hybrid) with the saved index;
- ``search`` (hybrid) with no saved index (the first search after it was removed:
  what every search paid before the index was saved), for ``--cold`` queries;
- in a long-lived process (an app): opening the engine and the store, then
  ``engine.warm_up`` for the agent (the saved index loaded and caught up), each
  against one dense search process.

Usage: python bench/cli_search.py --store FOLDER [--queries 10] [--agent main]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402


def run(command: list[str]) -> float:
    """Seconds the whole process took (it must succeed)."""
    begun = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    took = time.perf_counter() - begun
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    return took


def drop_saved_indexes(store: Path) -> None:
    for saved in {p.parent for p in store.rglob("index.json")}:
        shutil.rmtree(saved)


WARM_UP = """
import json, sys, time
began = time.perf_counter()
from amem_tui.config import Settings
from amem_tui.engine.engine import MemoryEngine
engine = MemoryEngine(Settings(store_path=sys.argv[1]))
scope = engine.scope(sys.argv[2])
opened = time.perf_counter()
engine.agent(scope).warm_up()
print(json.dumps({"open_s": opened - began, "warm_up_s": time.perf_counter() - opened}))
"""


def warm_up(store: Path, agent: str) -> dict[str, float]:
    """Seconds to open the engine, and for ``engine.warm_up``, in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", WARM_UP, str(store), agent],
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True, help="an embedded store folder")
    parser.add_argument("--queries", type=int, default=10)
    parser.add_argument("--agent", default="main")
    parser.add_argument("--cold", type=int, default=2, help="cold hybrid runs (index removed)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    exe = str(Path(sys.executable).with_name("amem-tui"))
    queries = corpus.generate(10, seed=7).queries[: args.queries]
    base = [exe, "--store", str(args.store), "--agent", args.agent, "search"]
    dense: list[float] = []
    hybrid: list[float] = []
    cold: list[float] = []
    # One hybrid search first: the saved index is built (or caught up) and saved.
    run([exe, "--store", str(args.store), "--agent", args.agent, "search", queries[0]])
    for query in queries:  # alternated, so both see the same machine load
        dense.append(run([*base, query, "--mode", "dense"]))
        hybrid.append(run([*base, query]))
    for query in queries[: args.cold]:
        drop_saved_indexes(args.store)
        cold.append(run([exe, "--store", str(args.store), "--agent", args.agent, "search", query]))
    warm = [warm_up(args.store, args.agent) for _ in range(3)]
    figures = {
        "queries": len(queries),
        "open_p50_s": statistics.median(w["open_s"] for w in warm),
        "warm_up_p50_s": statistics.median(w["warm_up_s"] for w in warm),
        "dense_p50_s": statistics.median(dense),
        "hybrid_saved_index_p50_s": statistics.median(hybrid),
        "hybrid_no_saved_index_p50_s": statistics.median(cold) if cold else None,
    }
    figures["hybrid_over_dense"] = figures["hybrid_saved_index_p50_s"] / figures["dense_p50_s"]
    if cold:
        figures["cold_over_dense"] = figures["hybrid_no_saved_index_p50_s"] / figures["dense_p50_s"]
    if args.json:
        print(json.dumps(figures))
        return
    print(f"CLI search, whole process, {len(queries)} queries, store {args.store}")
    print(f"  dense (floor)                 p50 {figures['dense_p50_s']:.2f} s")
    print(
        f"  hybrid, saved keyword index   p50 {figures['hybrid_saved_index_p50_s']:.2f} s "
        f"({figures['hybrid_over_dense']:.2f}x dense)"
    )
    if cold:
        print(
            f"  hybrid, no saved index        p50 {figures['hybrid_no_saved_index_p50_s']:.2f} s "
            f"({figures['cold_over_dense']:.2f}x dense)"
        )
    dense_s = figures["dense_p50_s"]
    print(
        f"  in an app: open {figures['open_p50_s']:.2f} s "
        f"({figures['open_p50_s'] / dense_s:.2f}x a dense search process), "
        f"warm-up {figures['warm_up_p50_s']:.2f} s ({figures['warm_up_p50_s'] / dense_s:.2f}x)"
    )


if __name__ == "__main__":
    main()
