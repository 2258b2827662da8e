"""What a cold start waits for, step by step: the time and the disk each step reads.

A cold start at a million notes waits for the disk, and for Qdrant Edge's load of the
shard, which holds the interpreter for seconds (no other thread of the process runs
meanwhile, the UI's included). This opens a built store in a fresh process, the way
the inspector does after its first frame, and prints for each step the seconds since
the process began and the bytes the process (and its children) read from the disk so
far (``/proc/self/io``), then what the steps read per second, and the longest stretch
a Python thread waited while the store opened:

1. the engine's modules imported;
2. the early answer: a query answered from the saved note index, as the inspector
   answers one typed before the store is open (when the index can answer exactly);
3. the store opened for the agent (Qdrant Edge loads the shard: its payload indexes,
   id trackers, compact vectors and write-ahead log are read whole);
4. the agent's keyword index (the saved note index, caught up), with the model
   loading beside it, as the app loads them;
5. the model loaded;
6. the first search, by words and meaning.

Run ``--cold CMD`` first (``"sync; echo 3 > /proc/sys/vm/drop_caches"`` as root) to
time it from a cold page cache; each run is one process, ``--runs`` of them in a row.

Usage: python bench/cold_open.py --store FOLDER [--agent main] [--runs 1] [--cold CMD]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MIB = 1 << 20


def _disk_read() -> int:
    """Bytes this process has caused to be read from the disk so far."""
    for line in Path("/proc/self/io").read_text().splitlines():
        name, _, value = line.partition(": ")
        if name == "read_bytes":
            return int(value)
    return 0


class Ticker:
    """A thread that ticks every millisecond: its longest gap is the longest time the
    interpreter was held by another thread (a UI thread would have been as stuck)."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, daemon=True)
        self._thread.start()

    def _tick(self) -> None:
        last = time.perf_counter()
        while not self._stop.wait(0.001):
            now = time.perf_counter()
            self.longest = max(self.longest, now - last)
            last = now

    def stop(self) -> float:
        self._stop.set()
        self._thread.join()
        return self.longest


def one_run(store: Path, agent: str) -> list[tuple[str, float, int]]:
    """The steps of one cold open, each with its time since the start and disk read."""
    started = time.perf_counter()
    steps: list[tuple[str, float, int]] = []

    def mark(step: str) -> None:
        steps.append((step, time.perf_counter() - started, _disk_read()))

    sys.path.insert(0, str(ROOT))
    from amem_tui.config import Settings
    from amem_tui.engine import SavedIndexSearch
    from amem_tui.engine.engine import MemoryEngine

    mark("the engine's modules")
    settings = Settings(store_path=store)
    early = SavedIndexSearch.open(settings, agent)
    if early is not None:
        early.search("deploy freeze before the release", limit=40)
        mark("the early answer (the saved index)")
    ticker = Ticker()
    engine = MemoryEngine(settings)
    view = engine.agent(agent)
    held = ticker.stop()
    mark(f"the store opened (interpreter held {held:.2f} s at most)")
    model = threading.Thread(target=engine.embedder.load)
    model.start()
    view.warm_up()
    mark("the keyword index (model loading beside it)")
    model.join()
    mark("the model loaded")
    view.search("deploy freeze before the release", limit=40, exact=False)
    mark("the first search")
    engine.close()
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--agent", default="main")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--cold", help="a shell command run before each run")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        for step, at, read in one_run(args.store, args.agent):
            print(f"{at:.3f}\t{read}\t{step}")
        return
    for run in range(1, args.runs + 1):
        if args.cold:
            subprocess.run(args.cold, shell=True, check=True)
        command = [sys.executable, __file__, "--store", str(args.store), "--agent", args.agent]
        out = subprocess.run([*command, "--one"], capture_output=True, text=True, check=True)
        print(f"run {run}{' (after: ' + args.cold + ')' if args.cold else ''}")
        before_at, before_read = 0.0, 0
        for line in out.stdout.splitlines():
            at_text, read_text, step = line.split("\t")
            at, read = float(at_text), int(read_text)
            took, got = at - before_at, (read - before_read) / MIB
            rate = f"{got / took:6.0f} MiB/s" if took > 0 else ""
            print(f"  {at:6.2f} s  {step:<52} +{took:5.2f} s  +{got:6.0f} MiB read  {rate}")
            before_at, before_read = at, read


if __name__ == "__main__":
    main()
