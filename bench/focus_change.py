"""What moving the focus costs the interface: ``/`` into the search box and Escape
back to the rows, in the process, headless.

Each run is one process: the app on the store (160x48, headless), its model loaded;
then ``/`` and Escape are pressed in turn, each timed until the app is idle again,
as is a key bound to nothing (F20), whose time is Pilot's own. A key's cost is its
time less F20's median; "CPU" is the interface thread's CPU time, which a loaded
machine disturbs less than the wall clock.

    python bench/focus_change.py --store FOLDER [--agent main] [--presses 12]
        [--runs 3] [--against CHECKOUT]

``--against CHECKOUT`` alternates the runs with another checkout of amem_tui (put
first on ``PYTHONPATH``). Figures are medians over the runs of each run's median, in
milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from alternate import alternated, child_run

#: One run, in a child process (the code under test first on the path).
RUN = r"""
import asyncio, json, statistics, sys, time
from pathlib import Path
from amem_tui.config import Settings
from amem_tui.engine.engine import MemoryEngine
from amem_tui.tui.app import AmemApp

store, agent, presses = sys.argv[1], sys.argv[2], int(sys.argv[3])


async def timed(pilot, key):
    wall, cpu = time.perf_counter(), time.thread_time()
    await pilot.press(key)
    await pilot.pause()
    return (time.perf_counter() - wall) * 1000, (time.thread_time() - cpu) * 1000


async def main():
    engine = MemoryEngine(Settings(store_path=Path(store)))
    app = AmemApp(engine, agent=agent, user_config=False)
    found = {key: {"wall": [], "cpu": []} for key in ("f20", "slash", "escape")}
    async with app.run_test(size=(160, 48)) as pilot:
        while not engine.embedder.loaded:
            await pilot.pause(0.01)
        await pilot.pause(1.0)  # the panes filled, the start's own work done
        for _ in range(presses):
            for key in ("f20", "slash", "escape"):
                wall, cpu = await timed(pilot, key)
                found[key]["wall"].append(wall)
                found[key]["cpu"].append(cpu)
                await pilot.pause(0.2)
    engine.close()
    medians = {k: {m: statistics.median(v) for m, v in d.items()} for k, d in found.items()}
    base = medians.pop("f20")
    print(json.dumps({k: {m: v - base[m] for m, v in d.items()} for k, d in medians.items()}))


asyncio.run(main())
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", required=True)
    parser.add_argument("--agent", default="main")
    parser.add_argument("--presses", type=int, default=12)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--against", default=None, help="another checkout, alternated")
    args = parser.parse_args()
    found = alternated(
        args.runs,
        args.against,
        lambda code: child_run(RUN, [args.store, args.agent, str(args.presses)], code),
    )
    print(f"a focus change until idle, beyond a key bound to nothing, {args.runs} runs, in ms")
    for name, runs in found.items():
        parts = []
        for key in ("slash", "escape"):
            wall = statistics.median(r[key]["wall"] for r in runs)
            cpu = statistics.median(r[key]["cpu"] for r in runs)
            parts.append(f"{key} {wall:5.1f} (CPU {cpu:5.1f})")
        print(f"  {name:30s} " + "  ".join(parts))


if __name__ == "__main__":
    main()
