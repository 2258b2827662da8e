"""Where a typed query's wait goes inside the inspector: the search, then the rest
(reporting the hits, filling the panes, drawing the frame), in the process, headless.

``bench/latency.py`` times what a person sees in a terminal; this times the same
path from inside, stage by stage, so a change to one stage can be weighed against
the code before it without the terminal's own noise. Each run is one process: the
app on the store (160x48, headless), its model loaded and three queries searched
first; then each query is put in the search box at once (as a burst of keys ends),
and timed until the frame with its hits is drawn; "main CPU" is the interface
thread's CPU time meanwhile. Between two queries the box is emptied, and the next
query comes once its count is off the screen, as ``bench/latency.py`` types.

    python bench/typed_answer.py --store FOLDER --notes N [--agent main] [--queries 40]
        [--runs 3] [--against CHECKOUT]

``--notes`` names the bench corpus the store was built from (its queries are used).

``--against CHECKOUT`` alternates the runs with another checkout of amem_tui (put
first on ``PYTHONPATH``). Figures are medians over the runs of each run's p50 and
p90, in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402
from alternate import alternated, child_run  # noqa: E402

#: One run, in a child process (the code under test first on the path).
RUN = r"""
import asyncio, json, re, statistics, sys, threading, time
from pathlib import Path
from amem_tui.config import Settings
from amem_tui.engine.engine import MemoryEngine
from amem_tui.tui.app import AmemApp
from amem_tui.tui.widgets import search_box

store, agent, queries = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
drawn: list[float] = []
#: The main thread's CPU time when each frame with a query's hits was drawn.
drawn_cpu: list[float] = []
searched: dict[str, float] = {}
Box = search_box.SearchBox
if hasattr(Box, "_resume_collector"):
    # Earlier checkouts: called once the frame the typed query's answer released is drawn.
    after_frame = Box._resume_collector

    def note_drawn(self):
        drawn.append(time.perf_counter())
        drawn_cpu.append(time.thread_time())
        after_frame(self)

    Box._resume_collector = note_drawn
else:
    # Now: the box tells the search's thread the hits are drawn after two refreshes;
    # noted at the same moment (a result dropped as stale is never drawn).
    answered = Box.on_search_done

    def note_answer(self, message):
        answered(self, message)
        if self.result is message.result:
            def note():
                drawn.append(time.perf_counter())
                drawn_cpu.append(time.thread_time())

            self.call_after_refresh(self.call_after_refresh, note)

    Box.on_search_done = note_answer


async def until(pilot, condition, limit=120.0):
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the app did not get there")
        await pilot.pause(0.01)


async def main():
    engine = MemoryEngine(Settings(store_path=Path(store)))
    make_view = engine.agent

    def timed_view(*args, **kwargs):
        view = make_view(*args, **kwargs)
        search = view.search

        def timed(query, *a, **k):
            begun = time.perf_counter()
            try:
                return search(query, *a, **k)
            finally:
                searched[query] = time.perf_counter() - begun

        view.search = timed
        return view

    engine.agent = timed_view
    app = AmemApp(engine, agent=agent, user_config=False)
    total, search, main_cpu = [], [], []
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: engine.embedder.loaded)
        await pilot.pause(1.0)  # the panes filled, the start's own work done
        box = app.screen.search_box
        box.query_input.focus()
        status = box.query_one("#search-status")
        for index, query in enumerate(queries):
            box.query_input.value = ""
            # As a person who types once the count is off the screen (bench/latency.py).
            await until(pilot, lambda: not re.search(r"\d+ hits?\b", str(status.render())))
            await pilot.pause()
            seen = len(drawn)
            begun, begun_cpu = time.perf_counter(), time.thread_time()
            box.query_input.value = query
            await until(pilot, lambda: len(drawn) > seen and box.result is not None)
            if index >= 3:  # the first three warm the caches up
                total.append(drawn[-1] - begun)
                search.append(searched.get(query, 0.0))
                main_cpu.append(drawn_cpu[-1] - begun_cpu)
            await pilot.pause(0.25)
    engine.close()

    def figures(values):
        ms = sorted(v * 1000 for v in values)
        return {"p50": statistics.median(ms), "p90": ms[int(len(ms) * 0.9)]}

    rest = [t - s for t, s in zip(total, search)]
    found = {"total": figures(total), "search": figures(search), "rest": figures(rest)}
    print(json.dumps(found | {"main CPU": figures(main_cpu)}))


asyncio.run(main())
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", required=True)
    parser.add_argument("--notes", type=int, required=True, help="notes in the corpus")
    parser.add_argument("--agent", default="main")
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--against", default=None, help="another checkout, alternated")
    args = parser.parse_args()
    queries = corpus.generate(args.notes).queries[: args.queries + 3]
    found = alternated(
        args.runs,
        args.against,
        lambda code: child_run(RUN, [args.store, args.agent, json.dumps(queries)], code),
    )
    print(f"a typed query to its drawn hits, {args.queries} queries, {args.runs} runs, in ms")
    for name, runs in found.items():
        parts = []
        for stage in ("total", "search", "rest", "main CPU"):
            p50 = statistics.median(r[stage]["p50"] for r in runs)
            p90 = statistics.median(r[stage]["p90"] for r in runs)
            parts.append(f"{stage} p50 {p50:5.1f} p90 {p90:5.1f}")
        print(f"  {name:30s} " + "  ".join(parts))


if __name__ == "__main__":
    main()
