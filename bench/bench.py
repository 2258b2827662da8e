"""Side-by-side benchmark of the embedded stores: Qdrant Edge, qdrant-client local mode,
and an exact NumPy brute-force floor, over the same real-model vectors.

Usage: python bench/bench.py --sizes 1000,10000,100000 [--queries 50] [--slow-queries 5]
       [--tui-queries 20] [--consolidation 1000,10000] [--backends edge,qdrant-local]

This is a script, not a test. For each size it builds the generated corpus
(bench/corpus.py: real all-MiniLM-L6-v2 embeddings of generated multi-agent notes,
cached under bench/.cache), then measures every backend in its own child process
(so peak RSS is each backend's own): building the store, opening it again, Mode A
filtered search p50/p95 for agent ``main`` (Edge both through its HNSW graph, as
the app searches, and as an exact scan), the first page of ``main``'s private
notes, counts, recall@10 against the exact floor and peak RSS; then the real TUI
on each built store (bench/tui_worker.py: start to first frame, keystroke to
results drawn); then consolidation of 1k and 10k private notes. qdrant-client
local mode filters in Python and takes seconds per search at 100k notes, so at
sizes of 50k and more it gets only ``--slow-queries`` queries; the output says
so. All figures come with ratios, since these machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import corpus as corpus_mod  # noqa: E402
import numpy as np  # noqa: E402

from amem_tui.engine import scope as rules  # noqa: E402
from amem_tui.engine.models import MemoryNote  # noqa: E402
from amem_tui.engine.store.base import StoredPoint  # noqa: E402
from amem_tui.engine.store.filters import Filter  # noqa: E402

COLLECTION = "amem_notes"
AGENT = "main"
BACKENDS = ("edge", "qdrant-local", "numpy")
SLOW_FROM = 50_000
PAGE = 50


def filters() -> dict[str, Filter]:
    """The filters timed: Mode A search/listing, private notes, shared notes."""
    scope = rules.AgentScope(AGENT, "A", COLLECTION)
    return {
        "visible": rules.read_filter(scope),
        "private": rules.private_filter(scope),
        "shared": rules.shared_filter(),
    }


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"p50": statistics.median(ordered) * 1000, "p95": p95 * 1000, "n": len(ordered)}


def _rss_mib() -> float:
    # VmHWM is this process's own peak: ru_maxrss would carry over the parent's peak,
    # since Linux keeps it across fork and exec.
    with open("/proc/self/status", encoding="utf-8") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ---------------------------------------------------------------- the workers
def open_backend(backend: str, folder: Path) -> Any:
    """The store a backend keeps in ``folder``."""
    if backend == "edge":
        from amem_tui.engine.store.edge import EdgeStore

        # No background optimizing while measuring: the build step optimizes.
        return EdgeStore(folder, optimize_after=10**12, background=False)
    from amem_tui.engine.store.qdrant import QdrantStore

    return QdrantStore(path=str(folder))


def worker_build(backend: str, size: int, folder: Path) -> dict[str, Any]:
    """Build the store of ``size`` notes (and optimize it, for Edge)."""
    c = corpus_mod.load(size, progress=False)
    started = time.perf_counter()
    store = open_backend(backend, folder)
    store.ensure_collection(
        COLLECTION, int(c.vectors.shape[1]), "sentence-transformers/all-MiniLM-L6-v2"
    )
    for start in range(0, size, 512):
        points = [
            StoredPoint(c.ids[i], corpus_mod.note_payload(c, i), c.vectors[i].tolist())
            for i in range(start, min(size, start + 512))
        ]
        store.upsert(COLLECTION, points)
    loaded = time.perf_counter() - started
    optimize = 0.0
    if backend == "edge":
        began = time.perf_counter()
        store.optimize(COLLECTION)
        optimize = time.perf_counter() - began
    store.close()
    return {"load_s": loaded, "optimize_s": optimize, "build_s": loaded + optimize}


def worker_serve(backend: str, size: int, folder: Path, queries: int) -> dict[str, Any]:
    """Open the built store and time what the app does with it."""
    c = corpus_mod.generate(size)
    qvecs = corpus_mod.embed_cached(c.queries, "query", progress=False)[:queries]
    flts = filters()
    out: dict[str, Any] = {}
    started = time.perf_counter()
    if backend == "numpy":
        # The floor: vectors in one matrix, the filter evaluated once (by the scope rules' own
        # evaluator) into the rows it keeps; a search is one matrix product and a top-10.
        vectors = corpus_mod.embed_cached(c.texts, "note", progress=False)
        notes = [
            MemoryNote.from_payload(c.ids[i], corpus_mod.note_payload(c, i)) for i in range(size)
        ]
        rows = {k: np.flatnonzero([rules.matches(f, n) for n in notes]) for k, f in flts.items()}
        visible = np.ascontiguousarray(vectors[rows["visible"]])
        ids = np.array(c.ids)[rows["visible"]]
        out["open_s"] = time.perf_counter() - started

        def search(q: np.ndarray) -> list[str]:
            scores = visible @ q
            top = np.argpartition(-scores, 10)[:10] if len(scores) > 10 else np.arange(len(scores))
            return [str(ids[j]) for j in top[np.argsort(-scores[top])]]

        def listing() -> int:
            return len(np.array(c.ids)[rows["private"][:PAGE]])

        def counts() -> list[int]:
            return [len(rows[k]) for k in ("visible", "private", "shared")]

    else:
        store = open_backend(backend, folder)
        store.count(COLLECTION)  # qdrant-client loads lazily on first use; Edge opens shards
        out["open_s"] = time.perf_counter() - started

        def search(q: np.ndarray) -> list[str]:
            # Edge: its HNSW graph, as the app searches; qdrant-client local mode
            # always compares every vector.
            hits = store.search(COLLECTION, q.tolist(), flts["visible"], 10, exact=False)
            return [h.id for h in hits]

        def search_exact(q: np.ndarray) -> list[str]:
            hits = store.search(COLLECTION, q.tolist(), flts["visible"], 10, exact=True)
            return [h.id for h in hits]

        def listing() -> int:
            return len(store.scroll(COLLECTION, flts["private"], limit=PAGE))

        def counts() -> list[int]:
            return [store.count(COLLECTION, flts[k]) for k in ("visible", "private", "shared")]

    searches = {"search": search}
    if backend == "edge":
        searches["search_exact"] = search_exact
    for name, run in searches.items():
        run(qvecs[0])  # warm-up, not timed
        times, results = [], []
        for q in qvecs:
            began = time.perf_counter()
            results.append(run(q))
            times.append(time.perf_counter() - began)
        out[name] = _ms(times)
        out[f"{name}_results"] = results
    if "search_exact" not in out:  # exact already: the same figures
        out["search_exact"], out["search_exact_results"] = out["search"], out["search_results"]
    list_times, count_times = [], []
    for _ in range(min(queries, 20)):
        began = time.perf_counter()
        listing()
        list_times.append(time.perf_counter() - began)
        began = time.perf_counter()
        out["counts"] = counts()
        count_times.append(time.perf_counter() - began)
    out["listing"] = _ms(list_times)
    out["count"] = _ms(count_times)
    out["rss_mib"] = _rss_mib()
    return out


def worker_consolidate(backend: str, size: int, folder: Path) -> dict[str, Any]:
    """Time consolidating ``size`` private notes of one agent (a dry run, then a run).

    The notes are the corpus's first ``size`` texts and vectors, all made private
    notes of ``main``: the generated texts repeat facts, so there is real work.
    """
    from amem_tui.config import Settings
    from amem_tui.engine.engine import MemoryEngine

    c = corpus_mod.load(size, progress=False)
    engine = MemoryEngine(Settings(store_path=folder, backend=backend))  # type: ignore[arg-type]
    notes = []
    for i in range(size):
        payload = corpus_mod.note_payload(c, i)
        payload.update(agent_id=AGENT, owner=AGENT, readers=[AGENT], writers=[AGENT])
        payload["is_active"] = True
        notes.append(MemoryNote.from_payload(c.ids[i], payload))
    engine.put_notes(COLLECTION, notes, [c.vectors[i].tolist() for i in range(size)])
    out: dict[str, Any] = {}
    began = time.perf_counter()
    plan = engine.agent(AGENT).consolidate(dry_run=True)
    out["plan_s"] = time.perf_counter() - began
    began = time.perf_counter()
    run = engine.agent(AGENT).consolidate()
    out["run_s"] = time.perf_counter() - began
    out["merges"] = len(plan.merges)
    out["merged_notes"] = sum(len(m.dropped) for m in run.merges)
    engine.close()
    out["rss_mib"] = _rss_mib()
    return out


def tui_queries(size: int, count: int) -> list[str]:
    """Queries for the TUI rows, each ending in a letter or digit (the key timed)."""
    texts = [q.rstrip(" ?.!,") for q in corpus_mod.generate(size).queries]
    return [t for t in texts if t and t[-1].isalnum()][:count]


def run_tui(backend: str, size: int, folder: Path, count: int) -> dict[str, Any]:
    """The TUI timings, in a fresh process timed from its start."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(tui_queries(size, count), handle)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        worker = ROOT / "bench" / "tui_worker.py"
        command = [sys.executable, str(worker), backend, str(folder), handle.name]
        started = time.time()
        done = subprocess.run(
            [*command, repr(started)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
    finally:
        os.unlink(handle.name)
    if done.returncode != 0:
        raise RuntimeError(f"TUI worker failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------- the driver
def run_worker(args: list[str]) -> dict[str, Any]:
    """Run this script as a worker in a child process and return its JSON answer."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, __file__, *args], capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"worker {args} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def recall(
    found: list[list[str]], exact: list[list[str]], c: corpus_mod.Corpus, queries: np.ndarray
) -> float:
    """Mean recall@10 of ``found`` against the exact top-10s.

    A hit counts when its cosine is at least the exact 10th one's: the generated
    texts repeat, so several notes often tie there, and any of them is right.
    """
    row = {note_id: i for i, note_id in enumerate(c.ids)}
    scores = []
    for hits, best, q in zip(found, exact, queries, strict=False):
        if not best:
            scores.append(1.0)
            continue
        cut = float(c.vectors[row[best[-1]]] @ q) - 1e-5
        good = sum(1 for h in hits[: len(best)] if float(c.vectors[row[h]] @ q) >= cut)
        scores.append(good / len(best))
    return sum(scores) / max(len(scores), 1)


def machine() -> str:
    """CPU model and count, for the report."""
    model = platform.processor() or "unknown CPU"
    with open("/proc/cpuinfo", encoding="utf-8") as info:
        for line in info:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{os.cpu_count()} cores ({model}), Python {platform.python_version()}"


def bench_size(
    size: int,
    queries: int,
    slow_queries: int,
    backends: tuple[str, ...] = BACKENDS,
    tui_queries: int = 20,
) -> dict[str, Any]:
    """Every backend at one size."""
    c = corpus_mod.load(size)  # embeds what is not cached yet, once, in this process
    qvecs = corpus_mod.embed_cached(c.queries, "query", progress=False)
    work = Path(tempfile.mkdtemp(prefix=f"amem-bench-{size}-"))
    rows: dict[str, Any] = {}
    try:
        for backend in backends:
            n = slow_queries if backend == "qdrant-local" and size >= SLOW_FROM else queries
            folder = work / backend
            row: dict[str, Any] = {"queries": n}
            if backend != "numpy":
                print(f"[{size}] building {backend} ...", file=sys.stderr, flush=True)
                row.update(run_worker(["--worker", "build", backend, str(size), str(folder)]))
            print(f"[{size}] measuring {backend} ({n} queries) ...", file=sys.stderr, flush=True)
            row.update(run_worker(["--worker", "serve", backend, str(size), str(folder), str(n)]))
            if backend != "numpy" and tui_queries:
                print(f"[{size}] TUI on {backend} ...", file=sys.stderr, flush=True)
                row["tui"] = run_tui(backend, size, folder, min(n, tui_queries))
            rows[backend] = row
    finally:
        shutil.rmtree(work, ignore_errors=True)
    exact = rows["numpy"]["search_results"]
    for row in rows.values():
        n = len(row["search_results"])
        row["recall"] = recall(row.pop("search_results"), exact, c, qvecs[:n])
        row["recall_exact"] = recall(row.pop("search_exact_results"), exact, c, qvecs[:n])
    return rows


def _fmt_ms(value: float) -> str:
    if value < 1:
        return f"{value * 1000:.0f} µs"
    return f"{value:.1f} ms" if value < 1000 else f"{value / 1000:.2f} s"


def _missing(like: dict[str, Any]) -> dict[str, Any]:
    """A row of NaNs for a backend left out with --backends."""
    nan = float("nan")
    out: dict[str, Any] = {k: nan for k in like}
    for key in ("search", "listing", "count"):
        out[key] = {"p50": nan, "p95": nan, "n": 0}
    out["queries"] = 0
    return out


def report(size: int, rows: dict[str, Any]) -> str:
    """A markdown table for one size, with ratios to Edge and to the NumPy floor."""
    edge, floor = rows["edge"], rows["numpy"]
    local = rows.get("qdrant-local") or _missing(edge)
    lines = [
        f"### {size:,} notes (agent `{AGENT}`, Mode A, counts visible/private/shared "
        f"{'/'.join(str(x) for x in floor['counts'])})",
        "",
        "| figure | Edge | qdrant-client local | NumPy exact floor | local / Edge | Edge / floor |",
        "|---|---|---|---|---|---|",
    ]

    def row(name: str, key: str, sub: str, floor_ratio: bool) -> None:
        vals = [r[key][sub] for r in (edge, local, floor)]
        ratio_local = vals[1] / vals[0] if vals[0] else float("inf")
        ratio_floor = f"{vals[0] / vals[2]:.2f}x" if floor_ratio and vals[2] else "-"
        lines.append(
            f"| {name} | {_fmt_ms(vals[0])} | {_fmt_ms(vals[1])} | {_fmt_ms(vals[2])} "
            f"| {ratio_local:.1f}x | {ratio_floor} |"
        )

    row("Mode A filtered search p50 (Edge: HNSW)", "search", "p50", True)
    row("Mode A filtered search p95 (Edge: HNSW)", "search", "p95", True)
    row("Mode A filtered search p50 (Edge: exact scan)", "search_exact", "p50", True)
    row("Mode A filtered search p95 (Edge: exact scan)", "search_exact", "p95", True)
    # The floor's pages and counts are precomputed index slices: no ratio to it.
    row(f"first page ({PAGE}) of private notes p50", "listing", "p50", False)
    row("3 counts (visible, private, shared) p50", "count", "p50", False)
    lines.append(
        f"| open the store (to first answer) | {_fmt_ms(edge['open_s'] * 1000)} "
        f"| {_fmt_ms(local['open_s'] * 1000)} | {_fmt_ms(floor['open_s'] * 1000)} "
        f"| {local['open_s'] / edge['open_s']:.1f}x | - |"
    )
    lines.append(
        f"| build (load{' + optimize' if edge['optimize_s'] else ''}) "
        f"| {edge['build_s']:.1f} s ({edge['optimize_s']:.1f} s optimize) "
        f"| {local['build_s']:.1f} s | - | {local['build_s'] / edge['build_s']:.1f}x | - |"
    )
    lines.append(
        f"| recall@10 vs exact (Edge: HNSW; exact scan {edge['recall_exact']:.3f}) "
        f"| {edge['recall']:.3f} | {local['recall']:.3f} | 1.000 | - | - |"
    )
    lines.append(
        f"| peak RSS (serving process) | {edge['rss_mib']:.0f} MiB | {local['rss_mib']:.0f} MiB "
        f"| {floor['rss_mib']:.0f} MiB | {local['rss_mib'] / edge['rss_mib']:.1f}x "
        f"| {edge['rss_mib'] / floor['rss_mib']:.2f}x |"
    )
    if "tui" in edge:
        nan = float("nan")
        et = edge["tui"]
        lt = local.get("tui") or {
            "first_frame_s": nan,
            "panes_s": nan,
            "model_ready_s": nan,
            "keystroke": {"p50": nan, "p95": nan},
        }
        for label, key in (
            ("TUI process start to first frame", "first_frame_s"),
            ("TUI process start to panes filled", "panes_s"),
            ("TUI process start to model loaded", "model_ready_s"),
        ):
            lines.append(
                f"| {label} | {_fmt_ms(et[key] * 1000)} | {_fmt_ms(lt[key] * 1000)} | - "
                f"| {lt[key] / et[key]:.1f}x | - |"
            )
        for q in ("p50", "p95"):
            lines.append(
                f"| TUI keystroke to results drawn {q} (hybrid, query embedded) "
                f"| {_fmt_ms(et['keystroke'][q])} | {_fmt_ms(lt['keystroke'][q])} | - "
                f"| {lt['keystroke'][q] / et['keystroke'][q]:.1f}x | - |"
            )
    lines.append(
        f"| search queries timed | {edge['queries']} | {local['queries']} | {floor['queries']} "
        "| - | - |"
    )
    return "\n".join(lines)


def consolidation_report(sizes: list[int]) -> str:
    """Consolidation of one agent's private notes, Edge against qdrant-client local mode."""
    lines = [
        "### Consolidation (one agent's private notes, real-model vectors)",
        "",
        "| private notes | figure | Edge | qdrant-client local | local / Edge |",
        "|---|---|---|---|---|",
    ]
    for size in sizes:
        got: dict[str, dict[str, Any]] = {}
        for backend in ("edge", "qdrant-local"):
            print(f"[consolidation {size}] {backend} ...", file=sys.stderr, flush=True)
            folder = Path(tempfile.mkdtemp(prefix=f"amem-consolidate-{size}-"))
            try:
                got[backend] = run_worker(
                    ["--worker", "consolidate", backend, str(size), str(folder / "store")]
                )
            finally:
                shutil.rmtree(folder, ignore_errors=True)
        edge, local = got["edge"], got["qdrant-local"]
        for label, key in (("dry run (plan)", "plan_s"), ("run (plan + merges)", "run_s")):
            lines.append(
                f"| {size:,} | {label} | {_fmt_ms(edge[key] * 1000)} "
                f"| {_fmt_ms(local[key] * 1000)} | {local[key] / edge[key]:.1f}x |"
            )
        lines.append(
            f"| {size:,} | merges (notes merged away) | {edge['merges']} "
            f"({edge['merged_notes']}) | {local['merges']} ({local['merged_notes']}) | - |"
        )
    return "\n".join(lines)


def extras() -> list[str]:
    """How the TUI rows are taken."""
    return [
        "TUI rows: `amem_tui` under Pilot (headless, 160x48) on the built store with the real"
        " model, in a fresh process timed from its start (interpreter and imports included)."
        " 'Keystroke to results drawn' types the last letter of a query into the live search"
        " box (the rest already searched) and stops when that query's hits are drawn."
    ]


def main() -> None:
    """Parse arguments; run as the driver or as one worker."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--queries", type=int, default=50, help="timed searches per backend")
    parser.add_argument(
        "--slow-queries", type=int, default=5, help="searches for qdrant-client local at 50k+"
    )
    parser.add_argument(
        "--backends", default=",".join(BACKENDS), help="subset to run (numpy is always run)"
    )
    parser.add_argument(
        "--tui-queries", type=int, default=20, help="keystrokes timed in the TUI (0: no TUI rows)"
    )
    parser.add_argument(
        "--consolidation",
        default="1000,10000",
        help="private-note counts to time consolidation at (empty: none)",
    )
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        kind, backend, size, folder, *rest = args.worker
        if kind == "build":
            answer = worker_build(backend, int(size), Path(folder))
        elif kind == "consolidate":
            answer = worker_consolidate(backend, int(size), Path(folder))
        else:
            answer = worker_serve(backend, int(size), Path(folder), int(rest[0]))
        print(json.dumps(answer))
        return
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    print(f"Machine: {machine()}")
    print(
        f"Command: python bench/bench.py --sizes {args.sizes} --queries {args.queries} "
        f"--tui-queries {args.tui_queries} --consolidation '{args.consolidation}'"
    )
    print(
        "Compared: Qdrant Edge (qdrant-edge-py; its HNSW graph, and an exact scan), "
        "qdrant-client local mode (folder), exact NumPy brute force over the same vectors "
        "(filter rows precomputed: the floor)."
    )
    for size in sizes:
        chosen = tuple(b for b in BACKENDS if b in args.backends.split(",") or b == "numpy")
        rows = bench_size(size, args.queries, args.slow_queries, chosen, args.tui_queries)
        print()
        print(report(size, rows))
        if size >= SLOW_FROM and "qdrant-local" in chosen:
            print(
                f"\nqdrant-client local mode got {args.slow_queries} search queries at "
                f"{size:,} notes (seconds each); the others got {args.queries}."
            )
        sys.stdout.flush()
    consolidation = [int(s) for s in args.consolidation.split(",") if s.strip()]
    if consolidation:
        print()
        print(consolidation_report(consolidation))
    print()
    for line in extras():
        print(line)


if __name__ == "__main__":
    main()
