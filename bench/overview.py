"""``stats`` and the overview against a CLI search process, on one built store, in one run.

The floor is what a person already waits for on this store: one ``amem-tui search``
process (interpreter, imports, the store opened, the model loaded, one hybrid
search). Alternated with it, ``--runs`` times each:

- ``stats``: the whole ``amem-tui stats`` process (its figures counted from the
  store's indexes; malformed points are left to ``stats --check``);
- ``stats --check``: the same with every figure, malformed points included (found by
  the note index where the store keeps one, else by reading every note).

Then the overview in the app (tmux, as a person sees it; bench/terminal.py), ``--runs``
times: the app is started and left to fill its panes and load its model, ``o`` is
pressed, and the time runs until the first figures are on screen (its status line
counts the agents and points), then until nothing is still coming (the malformed
points and the consolidation history).

Each figure is given as min / median / max with its ratio (of medians) to the search
process. Usage:

    python bench/overview.py --store FOLDER [--agent main] [--runs 5] [--builds 5]
        [--against CHECKOUT]

``--builds N`` also times the overview's builds (the first figures, every count, the
complete figures) in one process, alternated N times, each counted afresh (the
engine keeps counts while a collection's revision stays: that is timed apart, as
"kept").

``--against CHECKOUT`` runs every figure twice, alternated: with this code and with the
code of another checkout of amem_tui (put first on ``PYTHONPATH``), so a change is
measured against what it replaces on the same machine at the same time.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402
from terminal import TerminalApp, environment  # noqa: E402

#: The overview's status line once its counts are drawn: "8 agents · 100,000 points".
COUNTED = re.compile(r"\d+ agents · [\d,]+ points")


def run(command: list[str], env: dict[str, str] | None = None) -> float:
    """Seconds the whole process took (it must succeed)."""
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    took = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    return took


def spread(samples: list[float]) -> dict[str, Any]:
    """min, median and max of a figure, with its samples."""
    return {
        "min": min(samples),
        "median": statistics.median(samples),
        "max": max(samples),
        "samples": [round(s, 3) for s in samples],
    }


def overview_in_app(
    exe: str, store: Path, agent: str, size: tuple[int, int], code: str | None = None
) -> dict[str, float]:
    """One app start: seconds from pressing ``o`` to the first figures and to the last
    (``code``: a checkout whose amem_tui runs instead)."""
    command = [exe, "--store", str(store), "--agent", agent]
    app = TerminalApp(command, size=size, env=environment(PYTHONPATH=code or ""))
    app.start()
    out: dict[str, float] = {}
    try:
        app.wait_for(lambda s: "visible" in s, timeout=600)
        app.wait_for(lambda s: "Private" in s and "loading" not in s.lower(), timeout=600)
        time.sleep(1.0)  # the warm-up after the panes fill (the note index) settles
        app.keys("o")
        began = time.perf_counter()
        app.wait_for(lambda s: COUNTED.search(s) is not None, timeout=600)
        out["first_s"] = time.perf_counter() - began
        app.wait_for(
            lambda s: COUNTED.search(s) is not None and "still coming" not in s, timeout=600
        )
        out["complete_s"] = time.perf_counter() - began
        app.keys("escape")
    finally:
        app.stop()
    return out


#: The builds timed in one process by ``--builds``: (label, keyword arguments).
BUILDS: tuple[tuple[str, dict[str, bool]], ...] = (
    (
        "counted_stats(history=False, quick=True): the first figures",
        {"history": False, "quick": True},
    ),
    (
        "counted_stats(complete=True, history=False, recalls=False): the second stage",
        {"complete": True, "history": False, "recalls": False},
    ),
    (
        "counted_stats(complete=True): with what gets recalled and the history",
        {"complete": True},
    ),
)


def builds_in_process(store: Path, rounds: int) -> dict[str, Any]:
    """The overview's builds in this process, alternated ``rounds`` times (seconds)."""
    from amem_tui.config import Settings
    from amem_tui.engine import MemoryEngine

    engine = MemoryEngine(Settings(store_path=store))
    engine.agents()
    times: dict[str, list[float]] = {label: [] for label, _ in BUILDS}
    kept = "counted_stats(complete=True) again: kept (no collection written)"
    times[kept] = []
    try:
        for _ in range(rounds):
            for label, how in BUILDS:
                engine._count_cache = None  # counted afresh: the store asked every time
                began = time.perf_counter()
                engine.counted_stats(**how)
                times[label].append(time.perf_counter() - began)
            began = time.perf_counter()
            engine.counted_stats(complete=True)
            times[kept].append(time.perf_counter() - began)
    finally:
        engine.close()
    return {label: spread(samples) for label, samples in times.items()}


def measure(exe: str, store: Path, agent: str, query: str, code: str | None) -> dict[str, float]:
    """One round of every process figure (``code``: another checkout's amem_tui)."""
    env = {**os.environ, "PYTHONPATH": code} if code else None
    base = [exe, "--store", str(store)]
    return {
        "search_process_s": run([*base, "--agent", agent, "search", query], env),
        "stats_process_s": run([*base, "stats"], env),
        "stats_check_process_s": run([*base, "stats", "--check"], env),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--agent", default="main")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size", default="160x48")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--builds", type=int, default=0, help="also time the builds in one process, N rounds"
    )
    parser.add_argument(
        "--against", default=None, help="another checkout of amem_tui, timed alternated"
    )
    args = parser.parse_args()
    exe = str(Path(sys.executable).with_name("amem-tui"))
    queries = corpus.generate(10).queries
    codes: dict[str, str | None] = {"this code": None}
    if args.against:
        codes[f"against {args.against}"] = str(Path(args.against).resolve())
    run([exe, "--store", str(args.store), "--agent", args.agent, "search", queries[0]])
    samples: dict[str, dict[str, list[float]]] = {name: {} for name in codes}
    for i in range(args.runs):  # alternated: each sees the same machine load
        for name, code in codes.items():
            query = queries[i % len(queries)]
            for key, took in measure(exe, args.store, args.agent, query, code).items():
                samples[name].setdefault(key, []).append(took)
    width, height = (int(x) for x in args.size.split("x"))
    for _ in range(args.runs):
        for name, code in codes.items():
            shown = overview_in_app(exe, args.store, args.agent, (width, height), code)
            for key in ("first_s", "complete_s"):
                samples[name].setdefault(f"overview_{key}", []).append(shown[key])
    in_process = builds_in_process(args.store, args.builds) if args.builds else {}
    report: dict[str, Any] = {}
    for name, found in samples.items():
        figures = {key: spread(values) for key, values in found.items()}
        floor = figures["search_process_s"]["median"]
        for key in ("stats_process_s", "stats_check_process_s", "overview_complete_s"):
            figures[key]["to_search"] = figures[key]["median"] / floor
        report[name] = figures
    if args.json:
        print(json.dumps({**report, "builds_in_process_s": in_process}))
        return
    print(f"stats and the overview against a CLI search process, store {args.store}")
    for name, figures in report.items():
        print(f" {name}:")
        for key, row in figures.items():
            ratio = f"  {row['to_search']:.2f}x the search process" if "to_search" in row else ""
            print(
                f"  {key:24} min {row['min']:.2f} s  median {row['median']:.2f} s  "
                f"max {row['max']:.2f} s{ratio}"
            )
    for label, row in in_process.items():
        print(
            f"  in process: {label}: min {row['min'] * 1000:.0f} ms, "
            f"median {row['median'] * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
