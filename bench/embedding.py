"""The embedding model's ONNX threads spinning or sleeping between runs, side by side.

A search box embeds one short query per burst of keys, with a pause of typing
between two. onnxruntime's threads spin for more work after each run unless told
not to, and a spinning thread takes a core from the UI thread and the terminal.
This loads the offline model both ways in one process and prints, alternating:

- a query's embedding time (wall clock, p50);
- the CPU the process spends per query, a typing pause (``--pause`` ms) included;
- the time to embed a batch of documents (as ``import`` and ``publish`` do).

Usage: python bench/embedding.py [--queries 100] [--pause 30] [--documents 1024]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from amem_tui.engine.embed import (
    DEFAULT_MODEL,
    _default_cache_dir,
    prepare_offline_model,
)
from amem_tui.engine.sleeping_sessions import load_text_model

Embed = Callable[[list[str]], object]


def loaded(spinning: bool) -> Embed:
    """The offline model, its threads spinning (onnxruntime's default) or sleeping."""
    folder = str(prepare_offline_model(_default_cache_dir()))
    if spinning:
        from fastembed import TextEmbedding

        model = TextEmbedding(DEFAULT_MODEL, specific_model_path=folder)
    else:
        model = load_text_model(DEFAULT_MODEL, specific_model_path=folder)

    def embed(texts: list[str]) -> object:
        return list(model.embed(texts, batch_size=64))

    embed(["warm up"])
    return embed


def per_query(embed: Embed, queries: list[str], pause: float) -> tuple[float, float]:
    """Median wall seconds of a query, and median CPU seconds per query and pause."""
    walls, cpus = [], []
    for query in queries:
        cpu, wall = time.process_time(), time.perf_counter()
        embed([query])
        walls.append(time.perf_counter() - wall)
        time.sleep(pause)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def batch(embed: Embed, documents: list[str]) -> float:
    """Wall seconds to embed ``documents``."""
    begun = time.perf_counter()
    embed(documents)
    return time.perf_counter() - begun


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--pause", type=float, default=30, help="ms of typing between queries")
    parser.add_argument("--documents", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    models = {"spinning": loaded(True), "sleeping": loaded(False)}
    queries = [f"what did we decide about the deploy freeze {i}" for i in range(args.queries)]
    documents = [
        f"Note {i}: deploys freeze on Fridays after incident {i}; runbooks are reviewed weekly"
        for i in range(args.documents)
    ]
    figures: dict[str, list[tuple[float, float, float]]] = {name: [] for name in models}
    for _ in range(args.rounds):
        for name, embed in models.items():
            wall, cpu = per_query(embed, queries, args.pause / 1000)
            figures[name].append((wall, cpu, batch(embed, documents)))
    print(
        f"onnxruntime threads spinning or sleeping: {args.queries} queries, "
        f"{args.pause:g} ms pauses, {args.documents} documents, {args.rounds} rounds alternated"
    )
    medians = {
        name: [statistics.median(row[column] for row in rows) for column in range(3)]
        for name, rows in figures.items()
    }
    for name, (wall, cpu, docs) in medians.items():
        print(
            f"  {name:9s} query p50 {wall * 1000:5.2f} ms   "
            f"CPU per query and pause {cpu * 1000:5.1f} ms   documents {docs:5.2f} s"
        )
    ratios = [a / b for a, b in zip(medians["sleeping"], medians["spinning"], strict=True)]
    print(
        f"  sleeping / spinning: query {ratios[0]:.2f}x, CPU {ratios[1]:.2f}x, "
        f"documents {ratios[2]:.2f}x"
    )


if __name__ == "__main__":
    main()
