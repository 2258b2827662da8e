"""A copy of a built store whose notes were recalled, as openclaw-amem's searches leave them.

The bench corpus writes every note with ``retrieval_count`` 0. This copies a store
folder and gives a share of its notes a recall count (a long tail: most recalled once
or twice, a few dozens of times) and a later ``last_accessed``, written through the
store like any write, so the note index and the counts see them. ``--index`` also
gives the copy's collections the integer index on ``retrieval_count`` that collections
made by this release have (a copy of a store made before has none). Usage:

    python bench/recalled_store.py --store /tmp/perf/dev100k --out /tmp/perf/recalled \
        [--share 0.3] [--index]

then ``python bench/overview.py --store /tmp/perf/recalled``.
"""

from __future__ import annotations

import argparse
import random
import shutil
import time
from pathlib import Path

PAGE = 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--share", type=float, default=0.3)
    parser.add_argument("--index", action="store_true")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if args.out.exists():
        raise SystemExit(f"{args.out} exists: choose a new folder")
    shutil.copytree(args.store, args.out, symlinks=True)
    (args.out / "edge.lock").unlink(missing_ok=True)

    import qdrant_edge as qe

    from amem_tui.engine.store.edge import EdgeStore

    rng = random.Random(args.seed)
    store = EdgeStore(args.out, background=False)
    began = time.perf_counter()
    changed = 0
    for name in store.list_collections():
        if args.index:
            opened = store._open(name)
            assert opened is not None
            # As new collections have it (amem_tui/engine/store/edge.py): ranges, on disk.
            numeric = qe.IntegerIndexParams(lookup=False, range=True, on_disk=True)
            opened.shard.update(qe.UpdateOperation.create_field_index("retrieval_count", numeric))
        batch = []
        for point in store.scan(name, with_vectors=True, page=PAGE):
            if rng.random() >= args.share:
                continue
            point.payload["retrieval_count"] = min(int(rng.paretovariate(1.2)), 500)
            point.payload["last_accessed"] = f"2026-11-{rng.randrange(1, 29):02d}T09:00:00.000Z"
            batch.append(point)
            if len(batch) == PAGE:
                store.upsert(name, batch)
                changed += len(batch)
                batch = []
        store.upsert(name, batch)
        changed += len(batch)
        store.settle(name)
    store.close()
    print(f"{changed} notes recalled in {args.out} ({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
