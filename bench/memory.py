"""Where the inspector's memory goes, component by component, on a built store.

One fresh process goes through what the app does, step by step, and reads its own
memory after each step (``/proc/self/status``: resident total, anonymous and
file-backed; the peak, VmHWM, at the end):

1. the interpreter, before anything is imported;
2. Textual and the app's first-frame modules (what ``amem-tui`` imports to draw);
3. the engine's modules (pydantic, numpy, the store's bindings);
4. the store opened (the Qdrant Edge shard loaded: vectors, graph, payload indexes);
5. the model's modules (fastembed, onnxruntime, tokenizers), then the model loaded
   (its first run allocates the runtime's buffers);
6. the keyword index (``view.warm_up``: the saved note index, the agent's
   selections, the id map);
7. the listings (a page of 200 private and 200 shared notes, as the panes read);
8. the app on screen (Pilot, headless, 160x48: the main screen with its panes);
9. ``--queries`` queries typed into its search box, each waited for until its hits show.

The same steps run a second time in another process with ``tracemalloc`` on, which
counts what Python itself allocated in each step (native memory, such as
onnxruntime's arenas or Edge's shard, is not traced: the RSS delta minus the traced
delta is native). tracemalloc costs memory of its own, so the RSS figures come from the
untraced run. Each figure is one process's; the ratios to the total are what to read.

Usage: python bench/memory.py --store FOLDER [--agent main] [--queries 50] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

STEPS = (
    ("interpreter", "the interpreter, nothing imported"),
    ("textual", "Textual and the first frame's modules"),
    ("engine_imports", "the engine's modules (pydantic, numpy, qdrant-edge)"),
    ("store", "the store opened (the shard loaded)"),
    ("model_imports", "the model's modules (fastembed, onnxruntime)"),
    ("model", "the model loaded and run once"),
    ("keyword_index", "the keyword index (warm-up)"),
    ("listings", "the listings (2 pages of 200 notes)"),
    ("app", "the app on screen (160x48)"),
    ("queries", "the queries typed"),
)


def status() -> dict[str, int]:
    """This process's memory, in KiB."""
    wanted = ("VmRSS", "RssAnon", "RssFile", "RssShmem", "VmHWM")
    out: dict[str, int] = {}
    with open("/proc/self/status", encoding="ascii") as handle:
        for line in handle:
            key, _, value = line.partition(":")
            if key in wanted:
                out[key] = int(value.split()[0])
    return out


def file_mappings(top: int = 12) -> list[tuple[str, int]]:
    """The file-backed mappings holding the most resident memory (KiB), by file."""
    by_file: dict[str, int] = {}
    current = ""
    with open("/proc/self/smaps", encoding="utf-8", errors="replace") as handle:
        for line in handle:
            first = line.split(maxsplit=5)
            if len(first) >= 5 and "-" in first[0] and not line.startswith(("Rss", "Size")):
                current = first[5].strip() if len(first) > 5 else ""
            elif line.startswith("Rss:") and current.startswith("/"):
                by_file[current] = by_file.get(current, 0) + int(line.split()[1])
    ranked = sorted(by_file.items(), key=lambda item: -item[1])
    return ranked[:top]


def run_steps(store: Path, agent: str, queries: int, traced: bool) -> dict[str, Any]:
    """Go through every step in this process; returns each step's memory."""
    import tracemalloc

    if traced:
        tracemalloc.start()
    rows: list[dict[str, Any]] = []

    def mark(step: str) -> None:
        row: dict[str, Any] = {"step": step, **status()}
        if traced:
            row["traced_kib"] = tracemalloc.get_traced_memory()[0] // 1024
        rows.append(row)

    mark("interpreter")
    import textual.app  # noqa: F401

    import amem_tui.tui.app as app_module

    mark("textual")
    from amem_tui.config import Settings
    from amem_tui.engine.engine import MemoryEngine

    mark("engine_imports")
    engine = MemoryEngine(Settings(store_path=store))
    view = engine.agent(agent)
    view.count("private")
    mark("store")
    import fastembed  # noqa: F401
    import onnxruntime  # noqa: F401

    mark("model_imports")
    engine.embedder.load()
    mark("model")
    view.warm_up()
    mark("keyword_index")
    view.list_notes("private", limit=200)
    view.list_notes("shared", limit=200)
    mark("listings")
    sys.path.insert(0, str(HERE))
    import corpus

    texts = corpus.generate(10).queries[:queries]
    import asyncio

    asyncio.run(_drive(app_module.AmemApp(engine, user_config=False), texts, mark))
    top = file_mappings()
    engine.close()
    return {"rows": rows, "files": top}


async def _drive(app: Any, queries: list[str], mark: Any) -> None:
    """The app under Pilot: panes filled, then each query typed until its hits show."""
    import asyncio

    deadline = time.monotonic() + 600

    async def until(check: Any) -> None:
        while not check():
            if time.monotonic() > deadline:
                raise TimeoutError("the app did not get there in time")
            await asyncio.sleep(0.01)

    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        screen = app.screen
        await until(lambda: getattr(screen, "scope", None) is not None)
        await pilot.pause(0.5)
        mark("app")
        await pilot.press("slash")
        search = screen.query_one("#search")
        box = search.parent  # the search box: it keeps the answer on screen
        for text in queries:
            search.value = text  # type: ignore[attr-defined]
            search.cursor_position = len(text)  # type: ignore[attr-defined]
            wanted = text.strip()
            await until(lambda w=wanted: getattr(getattr(box, "result", None), "query", None) == w)
            await pilot.pause()
        await pilot.pause(0.5)
        mark("queries")


def child(store: Path, agent: str, queries: int, traced: bool) -> dict[str, Any]:
    """The steps in a fresh process (this script, as a child)."""
    command = [sys.executable, __file__, "--store", str(store), "--agent", agent]
    command += ["--queries", str(queries), "--child"] + (["--traced"] if traced else [])
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the measuring process failed:\n{done.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def table(plain: dict[str, Any], traced: dict[str, Any]) -> list[str]:
    """The breakdown as Markdown rows: each step's RSS delta, anonymous and file-backed
    parts, and the Python allocations tracemalloc counted."""
    lines = [
        "| step | RSS after | peak so far | RSS added | anonymous added | file-backed added "
        "| Python (traced) added |",
        "|---|---|---|---|---|---|---|",
    ]
    names = dict(STEPS)
    before: dict[str, int] = {"VmRSS": 0, "RssAnon": 0, "RssFile": 0}
    traced_rows = {row["step"]: row for row in traced["rows"]}
    traced_before = 0
    for row in plain["rows"]:
        step = row["step"]
        t = traced_rows.get(step, {}).get("traced_kib", 0)
        lines.append(
            f"| {names.get(step, step)} | {row['VmRSS'] / 1024:.0f} MiB "
            f"| {row['VmHWM'] / 1024:.0f} MiB "
            f"| {(row['VmRSS'] - before['VmRSS']) / 1024:+.0f} MiB "
            f"| {(row['RssAnon'] - before['RssAnon']) / 1024:+.0f} MiB "
            f"| {(row['RssFile'] - before['RssFile']) / 1024:+.0f} MiB "
            f"| {(t - traced_before) / 1024:+.0f} MiB |"
        )
        before = row
        traced_before = t
    last = plain["rows"][-1]
    lines.append(f"| peak (VmHWM) | | {last['VmHWM'] / 1024:.0f} MiB | | | | |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--agent", default="main")
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--traced", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run_steps(args.store, args.agent, args.queries, args.traced)))
        return
    plain = child(args.store, args.agent, args.queries, traced=False)
    traced = child(args.store, args.agent, args.queries, traced=True)
    if args.json:
        print(json.dumps({"plain": plain, "traced": traced}))
        return
    print(f"memory by step, store {args.store}, agent {args.agent}, {args.queries} queries")
    print("\n".join(table(plain, traced)))
    print("\nfile-backed resident memory by file (the untraced run, at the end):")
    for path, kib in plain["files"]:
        print(f"  {kib / 1024:7.1f} MiB  {path}")


if __name__ == "__main__":
    os.environ.setdefault("TERM", "xterm-256color")
    main()
