"""The TUI rows of bench/bench.py: the real app under Pilot on a built store.

Usage (bench.py runs it): python bench/tui_worker.py BACKEND FOLDER QUERIES.json T0

``T0`` is the wall-clock time at which the parent started this process, so the
first frame is timed from process start (interpreter, imports and all), as a
user starting ``amem-tui`` sees it. Prints one JSON line. Imports nothing the app
itself would not, so the start-up figure is the app's own.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"p50": statistics.median(ordered) * 1000, "p95": p95 * 1000, "n": len(ordered)}


async def _until(check: Any, timeout: float = 600.0) -> None:
    deadline = time.perf_counter() + timeout
    while not check():
        if time.perf_counter() > deadline:
            raise TimeoutError("the app did not get there in time")
        await asyncio.sleep(0.001)


async def drive(backend: str, folder: Path, queries: list[str], t0: float) -> dict[str, Any]:
    """Start the app, then time typing the last key of each query until its hits show."""
    from textual import events

    from amem_tui.config import Settings
    from amem_tui.engine.engine import MemoryEngine
    from amem_tui.tui.app import AmemApp

    out: dict[str, Any] = {}
    frames: list[float] = []  # when the app handed each frame to the terminal
    paint = AmemApp._display

    def display(app: AmemApp, on: Any, renderable: Any) -> None:
        if renderable is not None and not app._batch_count:
            frames.append(time.perf_counter())
            if "first_frame_s" not in out:
                out["first_frame_s"] = time.time() - t0
        paint(app, on, renderable)

    AmemApp._display = display  # type: ignore[method-assign,assignment]
    engine = MemoryEngine(Settings(store_path=folder, backend=backend))  # type: ignore[arg-type]
    app = AmemApp(engine, user_config=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        screen = app.screen
        await _until(lambda: getattr(screen, "scope", None) is not None)
        await pilot.pause()
        out["panes_s"] = time.time() - t0
        await _until(lambda: engine.embedder.loaded)
        out["model_ready_s"] = time.time() - t0
        await pilot.press("slash")
        search = screen.query_one("#search")
        driver = app._driver
        assert driver is not None
        times: list[float] = []
        applied: list[float] = []

        def showing(query: str) -> bool:
            result = getattr(screen, "search_result", None)
            return result is not None and result.query == query

        for i, text in enumerate([queries[0], *queries]):
            search.value = text[:-1]  # type: ignore[attr-defined]
            search.cursor_position = len(text) - 1  # type: ignore[attr-defined]
            # The box searches for the stripped text: wait for that one.
            typed = text[:-1].strip()
            await _until(lambda typed=typed: showing(typed))
            await pilot.pause()
            assert app.focused is search, f"focus went to {app.focused!r}"
            # The key arrives as a terminal's would (Pilot.press would also wait for
            # the app to go idle, detail view and all); timed to the first frame
            # painted after the hits are in place.
            began = time.perf_counter()
            driver.send_message(events.Key(text[-1], text[-1]))
            await _until(lambda text=text: showing(text))
            shown = time.perf_counter()
            await _until(lambda shown=shown: bool(frames) and frames[-1] >= shown)
            drawn = next(f for f in frames if f >= shown)
            await pilot.pause()
            if i > 0:  # the first one may still be filling the note cache: not timed
                times.append(drawn - began)
                applied.append(shown - began)
        out["keystroke"] = _ms(times)
        out["keystroke_applied"] = _ms(applied)  # the hits in the widgets, not yet painted
    engine.close()
    return out


def _peak_rss_mib() -> float:
    with open("/proc/self/status", encoding="utf-8") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    """Run the timings and print them as JSON."""
    backend, folder, queries_file, t0 = sys.argv[1:5]
    queries = json.loads(Path(queries_file).read_text(encoding="utf-8"))
    out = asyncio.run(drive(backend, Path(folder), queries, float(t0)))
    out["rss_mib"] = _peak_rss_mib()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
