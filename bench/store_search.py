"""Mode A search on a store built through ``amem-tui import``, against the NumPy floor.

bench/bench.py builds its own stores; this one measures a store a user built the way
a user builds one (``python bench/export_corpus.py N FILE`` then ``amem-tui --store
FOLDER import FILE``), so it reaches the million-note tier, where building inside a
benchmark would take most of an hour. For ``--queries`` query vectors, in one process
and alternated so both see the same machine load:

- Qdrant Edge: the agent's Mode A filtered search through the HNSW graph, as the app
  searches (``exact=False``), p50/p95;
- the floor: the visible rows' vectors in one matrix (rows chosen once by the read
  rules of ``engine/scope``); a search is one matrix product and a top 10;
- recall@10 of Edge against the floor (a tie with the exact 10th cosine counts);
  with ``--limit N`` Edge is asked for N hits, as the app's dense stage asks for 4x
  its hits (160), and recall@10 is that of its first ten;
- the peak RSS of the process (both held at once: read it as an upper bound).

Usage: python bench/store_search.py --store FOLDER --notes N [--queries 50] [--limit 10] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import corpus  # noqa: E402
import numpy as np  # noqa: E402

import bench as suite  # noqa: E402
from amem_tui.engine import scope as rules  # noqa: E402
from amem_tui.engine.models import MemoryNote  # noqa: E402


def visible_rows(data: corpus.Corpus) -> np.ndarray:
    """The rows agent ``main`` may find, judged note by note by the read rules."""
    wanted = suite.filters()["visible"]
    keep = [
        rules.matches(wanted, MemoryNote.from_payload(data.ids[i], corpus.note_payload(data, i)))
        for i in range(len(data.ids))
    ]
    return np.flatnonzero(keep)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--notes", type=int, required=True)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--limit", type=int, default=10, help="hits asked of Edge")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    data = corpus.load(args.notes, progress=False)
    queries = data.query_vectors[: args.queries]
    rows = visible_rows(data)
    matrix = np.ascontiguousarray(data.vectors[rows])
    ids = np.asarray(data.ids)[rows]

    def floor(q: np.ndarray) -> list[str]:
        scores = matrix @ q
        top = np.argpartition(-scores, 10)[:10]
        return [str(ids[j]) for j in top[np.argsort(-scores[top])]]

    store = suite.open_backend("edge", args.store)
    flt = suite.filters()["visible"]

    def edge(q: np.ndarray) -> list[str]:
        hits = store.search(suite.COLLECTION, q.tolist(), flt, args.limit, exact=False)
        return [h.id for h in hits[:10]]

    edge(queries[0])  # the first search maps the segments: not timed
    floor(queries[0])
    times: dict[str, list[float]] = {"edge": [], "floor": []}
    found: dict[str, list[list[str]]] = {"edge": [], "floor": []}
    for q in queries:
        for name, search in (("edge", edge), ("floor", floor)):
            began = time.perf_counter()
            found[name].append(search(q))
            times[name].append(time.perf_counter() - began)
    store.close()
    out: dict[str, Any] = {
        "notes": args.notes,
        "visible": len(rows),
        "queries": len(queries),
        "limit": args.limit,
        "edge": suite._ms(times["edge"]),
        "floor": suite._ms(times["floor"]),
        "recall_at_10": suite.recall(found["edge"], found["floor"], data, queries),
        "rss_mib": suite._rss_mib(),
    }
    out["p50_ratio"] = out["edge"]["p50"] / out["floor"]["p50"]
    out["p95_ratio"] = out["edge"]["p95"] / out["floor"]["p95"]
    if args.json:
        print(json.dumps(out))
        return
    print(
        f"{args.notes} notes, {len(rows)} visible to main, {len(queries)} queries, "
        f"{args.limit} hits asked of Edge"
    )
    for name in ("edge", "floor"):
        print(f"  {name:5}  p50 {out[name]['p50']:.2f} ms  p95 {out[name]['p95']:.2f} ms")
    print(
        f"  Edge / floor: {out['p50_ratio']:.2f}x at p50, {out['p95_ratio']:.2f}x at p95; "
        f"recall@10 {out['recall_at_10']:.3f}; peak RSS {out['rss_mib']:.0f} MiB"
    )


if __name__ == "__main__":
    main()
