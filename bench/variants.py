"""Typing and peak RSS of several checkouts of amem-tui, started in turn in each round.

bench/latency.py's own timings (typed queries, typed right after Ctrl+U, peak RSS),
with one floor-app run a round and the checkouts' order rotated from round to round,
so that each sees the same machine load. Made to measure a tuning trick against the
code without it: one worktree per variant, each with the trick taken out.

Usage: python bench/variants.py --store FOLDER --notes N [--queries 50] [--rounds 3]
       NAME=CHECKOUT [NAME=CHECKOUT ...]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402
import latency  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--notes", type=int, required=True)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--size", default="160x48")
    parser.add_argument("--agent", default="main")
    parser.add_argument("variants", nargs="+", help="NAME=CHECKOUT")
    args = parser.parse_args()
    width, height = (int(x) for x in args.size.split("x"))
    variants = {name: Path(path) for name, path in (v.split("=", 1) for v in args.variants)}
    latency.compiled(*variants.values())
    data = corpus.generate(args.notes)
    queries = data.queries[: args.queries]
    tops = latency.expected_hits(args.store, queries, args.agent)
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in ["floor", *variants]}
    names = list(variants)
    with tempfile.TemporaryDirectory() as tmp:
        texts = Path(tmp) / "texts.json"
        texts.write_text(json.dumps(data.texts), encoding="utf-8")
        for round_ in range(args.rounds):
            runs["floor"].append(latency.time_floor(texts, queries, (width, height)))
            time.sleep(1)
            turn = round_ % len(names)
            for name in names[turn:] + names[:turn]:
                runs[name].append(
                    latency.time_amem(args.store, queries, tops, (width, height), variants[name])
                )
                time.sleep(1)
    print(f"{args.notes} notes, {len(queries)} queries, {args.rounds} rounds, {width}x{height}")
    for name, rounds in runs.items():
        typing = latency.pooled(rounds, "typing")
        per_round = ", ".join(
            f"{r['typing']['p50_ms']:.0f}/{r['typing']['p90_ms']:.0f}/{r['typing']['max_ms']:.0f}"
            for r in rounds
        )
        rss = ", ".join(f"{r['rss_mib']:.0f}" for r in rounds)
        first = statistics.median(r["first_frame_s"] for r in rounds)
        print(
            f"  {name:18} typing p50 {typing['p50_ms']:.0f} ms p90 {typing['p90_ms']:.0f} ms"
            f" max {typing['max_ms']:.0f} ms; per round p50/p90/max {per_round} ms;"
            f" peak RSS {rss} MiB; first frame {first:.2f} s"
        )


if __name__ == "__main__":
    main()
