"""Start-up cost of the TUI: import time of ``amem_tui.tui.app`` and process start to
first frame, for one or more source trees side by side in the same run (ratios).

    PYTHONPATH=. python scripts/tui_startup.py [--runs 7] [TREE ...]

Each TREE is a checkout of this project (default: this one). Runs alternate between
trees so a noisy machine affects them alike. The first frame is timed on an empty
embedded (Qdrant Edge) store, the way ``amem-tui`` starts: CLI and engine imported,
engine opened, app started; the embedding model loads after the first frame.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Child program: the ``amem-tui`` start path up to the first frame, then exit.
FIRST_FRAME = r"""
import sys, time
from pathlib import Path
import amem_tui.cli
from amem_tui.config import Settings
from amem_tui.engine.engine import MemoryEngine
from amem_tui.tui.app import AmemApp

t0 = float(sys.argv[1])
engine = MemoryEngine(Settings(store_path=sys.argv[2]))
answer = {}

class Probe(AmemApp):
    CSS_PATH = str(Path(sys.modules[AmemApp.__module__].__file__).parent / "app.tcss")

    def on_mount(self) -> None:  # runs before AmemApp.on_mount, so this fires first
        self.call_after_refresh(self.first_frame)

    def first_frame(self) -> None:
        answer["first_frame_s"] = time.time() - t0
        answer["qdrant_client"] = "qdrant_client" in sys.modules
        answer["fastembed"] = "fastembed" in sys.modules
        self.exit(0)

Probe(engine, user_config=False).run(headless=True, size=(120, 40))
engine.close()
print("RESULT", __import__("json").dumps(answer))
"""


def import_time_s(tree: Path) -> float:
    """Cumulative import time of amem_tui.tui.app as ``-X importtime`` reports it."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import amem_tui.tui.app"],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
        check=True,
    )
    for line in out.stderr.splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 3 and parts[2] == "amem_tui.tui.app":
            return int(parts[1]) / 1e6
    raise RuntimeError("amem_tui.tui.app not in the import-time report")


def first_frame(tree: Path, work: Path) -> dict[str, float | bool]:
    """Process start to first frame on an empty Edge store in ``work``."""
    env = {
        **os.environ,
        "PYTHONPATH": str(tree),
        "AMEM_DATA_DIR": str(work / "data"),
        "AMEM_CACHE_DIR": str(work / "cache"),
    }
    store = work / f"store-{time.monotonic_ns()}"
    started = time.time()
    out = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME, str(started), str(store)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    line = next(x for x in out.stdout.splitlines() if x.startswith("RESULT "))
    return json.loads(line[len("RESULT ") :])


def main() -> None:
    """Measure every tree, alternating, and print medians with ratios to the first tree."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("trees", nargs="*", type=Path, default=[ROOT])
    args = parser.parse_args()
    trees = [t.resolve() for t in args.trees]
    imports: dict[Path, list[float]] = {t: [] for t in trees}
    frames: dict[Path, list[float]] = {t: [] for t in trees}
    leaks: dict[Path, set[str]] = {t: set() for t in trees}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.runs):
            for tree in trees:
                imports[tree].append(import_time_s(tree))
                answer = first_frame(tree, Path(tmp))
                frames[tree].append(float(answer["first_frame_s"]))
                leaks[tree] |= {k for k in ("qdrant_client", "fastembed") if answer[k]}
    print(f"runs per tree: {args.runs} (medians); python {sys.version.split()[0]}")
    print("| tree | import amem_tui.tui.app | vs first | first frame | vs first | imported |")
    print("|---|---|---|---|---|---|")
    base_i = statistics.median(imports[trees[0]])
    base_f = statistics.median(frames[trees[0]])
    for tree in trees:
        i = statistics.median(imports[tree])
        f = statistics.median(frames[tree])
        print(
            f"| {tree} | {i * 1000:.0f} ms | {i / base_i:.2f}x | {f * 1000:.0f} ms "
            f"| {f / base_f:.2f}x | {', '.join(sorted(leaks[tree])) or 'neither'} |"
        )


if __name__ == "__main__":
    main()
