"""The nightly pass (``consolidate --all-agents``) on a built store, against its floor.

The floor is one nearest-neighbour query per private note: a process that opens the
same store, reads every agent's consolidation candidates (private, active ``memory``
notes) with their vectors, and asks the store for each note's 10 nearest candidates
of the same agent (the HNSW graph, as a search left to choose at that size). That is
what finding near-duplicates one note at a time costs; the pass finds them and also
applies and records the merges.

Each run copies the store afresh (the pass writes), then times the two whole
processes, alternated, so both see the same machine load:

- ``amem-tui --store COPY consolidate --all-agents`` (its progress lines kept);
- the floor, in a child process of this script.

With ``--baseline CHECKOUT`` the pass of earlier code (a ``git worktree add DIR
COMMIT``) is timed too, on its own fresh copy, in the same alternation.

Usage: python bench/nightly.py --store FOLDER [--runs 2] [--dry-run] [--baseline DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def floor(store: Path) -> dict[str, Any]:
    """One nearest-neighbour query per candidate of every Mode A agent (in this process)."""
    from amem_tui.config import Settings
    from amem_tui.engine.engine import MemoryEngine
    from amem_tui.engine.scope import consolidation_filter

    engine = MemoryEngine(Settings(store_path=store))
    queries = 0
    per_agent: dict[str, int] = {}
    try:
        for scope in engine.agents():
            if scope.namespace is not None or scope.user is not None:
                continue
            flt = consolidation_filter(scope)
            points = list(engine.store.scan(scope.collection, flt, with_vectors=True))
            for point in points:
                engine.store.search(
                    scope.collection, point.vector or [], flt, limit=10, exact=False
                )
            per_agent[scope.agent] = len(points)
            queries += len(points)
    finally:
        engine.close()
    return {"queries": queries, "per_agent": per_agent}


def fresh_copy(store: Path, into: Path) -> Path:
    """A copy of the store to write to (the pass merges notes)."""
    target = into / "store"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(store, target, symlinks=True)
    return target


def time_pass(store: Path, dry_run: bool, code: Path | None = None) -> dict[str, Any]:
    """The pass as a whole process: seconds, its answer, and its progress lines
    (``code``: another checkout's package first on the path, started outside this one)."""
    exe = str(Path(sys.executable).with_name("amem-tui"))
    command = [exe, "--store", str(store), "--json", "consolidate", "--all-agents"]
    if dry_run:
        command.append("--dry-run")
    env = dict(os.environ, PYTHONPATH=str(code)) if code is not None else None
    cwd = tempfile.gettempdir() if code is not None else None
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env, cwd=cwd)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"the pass failed ({done.returncode}):\n{done.stderr[-3000:]}")
    answer = json.loads(done.stdout)
    progress = [line for line in done.stderr.splitlines() if line.startswith("{")]
    return {"seconds": seconds, "answer": answer, "progress": progress}


def time_floor(store: Path) -> dict[str, Any]:
    """The floor as a whole process (this script, as a child)."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, __file__, "--store", str(store), "--floor"],
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"the floor failed:\n{done.stderr[-3000:]}")
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return {"seconds": seconds, **found}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--dry-run", action="store_true", help="time a dry run of the pass")
    parser.add_argument("--baseline", type=Path, help="a checkout of earlier code, timed too")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--floor", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.floor:
        print(json.dumps(floor(args.store)))
        return
    passes: list[dict[str, Any]] = []
    floors: list[dict[str, Any]] = []
    before: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(dir=args.store.parent) as tmp:
        for _ in range(args.runs):  # alternated: all see the same machine load
            floors.append(time_floor(fresh_copy(args.store, Path(tmp))))
            if args.baseline is not None:
                copy = fresh_copy(args.store, Path(tmp))
                before.append(time_pass(copy, args.dry_run, args.baseline))
            passes.append(time_pass(fresh_copy(args.store, Path(tmp)), args.dry_run))
    pass_s = [p["seconds"] for p in passes]
    floor_s = [f["seconds"] for f in floors]
    answer = passes[-1]["answer"]
    out = {
        "pass_s": pass_s,
        "floor_s": floor_s,
        "ratio": statistics.median(pass_s) / statistics.median(floor_s),
        "queries": floors[-1]["queries"],
        "per_agent": floors[-1]["per_agent"],
        "merges": answer.get("merges"),
        "agents": len(answer.get("agents", [])),
        "progress_lines": len(passes[-1]["progress"]),
    }
    if before:
        out["baseline_s"] = [b["seconds"] for b in before]
        out["baseline_ratio"] = statistics.median(out["baseline_s"]) / statistics.median(floor_s)
    if args.json:
        print(json.dumps(out))
        return
    kind = "dry run of the nightly pass" if args.dry_run else "nightly pass"
    print(
        f"{kind} on {args.store}: {out['agents']} agents, {out['queries']} candidates, "
        f"{out['merges']} merges, {out['progress_lines']} progress lines"
    )
    print(f"  floor (one nearest-neighbour query per candidate): {_seconds(floor_s)}")
    print(f"  consolidate --all-agents{' --dry-run' if args.dry_run else ''}: {_seconds(pass_s)}")
    if before:
        print(f"  the same, earlier code ({args.baseline}): {_seconds(out['baseline_s'])}")
    print(f"  pass / floor (medians): {out['ratio']:.2f}x")
    if before:
        print(f"  earlier code / floor (medians): {out['baseline_ratio']:.2f}x")


def _seconds(samples: list[float]) -> str:
    shown = ", ".join(f"{s:.1f}" for s in samples)
    return f"median {statistics.median(samples):.1f} s ({shown})"


if __name__ == "__main__":
    main()
