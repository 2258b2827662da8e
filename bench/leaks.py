"""An ``amem-tui leaks`` process against an ``amem-tui stats`` process on the same
store, side by side.

Usage: python bench/leaks.py [--notes 100000] [--runs 3] [--texts unique|templated]
       [--store DIR]

This is a script, not a test. It builds an Edge store of ``--notes`` notes with the
access fields of the generated corpus (bench/corpus.py: eight Mode A agents, 12 percent
shared, 3 percent shared with chosen readers, soft-deleted and legacy notes), then runs,
alternately and ``--runs`` times each after one warm-up run of each, and prints the
medians of their wall and CPU times (user and system) with the load average:

- ``stats``: an ``amem-tui stats`` process (the CLI, as a user runs it);
- ``leaks``: an ``amem-tui leaks --json`` process (the whole audit; it exits 1, having
  found the planted leaks).

Texts: ``unique`` (the default) gives each note its own words (a seeded draw from the
corpus's vocabulary), and plants copies: one note in 500 of the shared ones holds a
private note's text word for word, as many a run of 14 of its words, and as many again
a paraphrase whose vector is the private note's with a little noise (cosine about 0.97).
``templated`` keeps the corpus's template texts, where a quarter of the notes repeat
another's text word for word: a store that is one big leak (hundreds of thousands of
findings), the audit's worst case.

Vectors are not embedded (embedding 100,000 texts takes an hour on a two-core machine):
each distinct text gets a seeded draw from a Gaussian with the mean and covariance of
1,000 real all-MiniLM-L6-v2 embeddings of corpus texts (embedded once and cached in
bench/.cache), so the cosine comparison meets vectors spread as real ones are.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import corpus as corpus_mod  # noqa: E402
import numpy as np  # noqa: E402

COLLECTION = "amem_notes"
MODEL = "sentence-transformers/all-MiniLM-L6-v2"
PLANT_EVERY = 500


def real_spread() -> tuple[np.ndarray, np.ndarray]:
    """The mean and a square root of the covariance of 1,000 real embeddings."""
    texts = list(dict.fromkeys(corpus_mod.generate(3000).texts))[:1000]
    real = corpus_mod.embed_cached(texts, "leaks-spread")
    real = real / np.linalg.norm(real, axis=1, keepdims=True)
    mean = real.mean(axis=0)
    _, strengths, basis = np.linalg.svd(real - mean, full_matrices=False)
    return mean, (strengths[:, None] * basis) / np.sqrt(len(real))


def vector_for(text: str, mean: np.ndarray, root: np.ndarray) -> np.ndarray:
    """A seeded draw for ``text`` (the same text always gets the same vector)."""
    seed = int(hashlib.sha1(text.encode()).hexdigest()[:12], 16)
    draw = mean + np.random.default_rng(seed).standard_normal(len(root)) @ root
    return (draw / np.linalg.norm(draw)).astype(np.float32)


def unique_texts(c: Any, rng: random.Random) -> list[str]:
    """Each note its own words, drawn from the corpus's vocabulary."""
    vocabulary = sorted({w for t in c.texts[:5000] for w in t.split()})
    return [" ".join(rng.choices(vocabulary, k=rng.randint(12, 40))) for _ in c.texts]


def build(folder: Path, n: int, texts_kind: str) -> dict[str, int]:
    """Write the store and its openclaw.json; returns what was planted."""
    from amem_tui.engine.store.base import StoredPoint
    from amem_tui.engine.store.edge import EdgeStore

    c = corpus_mod.generate(n)
    rng = random.Random(11)
    texts = unique_texts(c, rng) if texts_kind == "unique" else list(c.texts)
    mean, root = real_spread()
    vectors: dict[int, np.ndarray] = {}
    planted: Counter[str] = Counter()
    if texts_kind == "unique":
        shared = [i for i in range(n) if c.agent_id[i] == "shared" and c.active[i] is not False]
        private = [i for i in range(n) if c.agent_id[i] != "shared" and c.readers[i] is not None]
        for k, i in enumerate(shared[::PLANT_EVERY]):
            source = rng.choice([p for p in private[k::97] if c.owner[p] != c.owner[i]] or private)
            words = texts[source].split()
            if k % 3 == 0:
                texts[i] = texts[source]
                planted["exact"] += 1
            elif k % 3 == 1 and len(words) >= 14:
                texts[i] = "Summary: " + " ".join(words[:14]) + " and more."
                planted["run"] += 1
            else:
                noise = np.random.default_rng(k).standard_normal(len(mean)).astype(np.float32)
                near = vector_for(texts[source], mean, root) + 0.012 * noise
                vectors[i] = near / np.linalg.norm(near)
                texts[i] = " ".join(reversed(words))
                planted["near"] += 1
    store = EdgeStore(folder, optimize_after=10**12, background=False)
    store.ensure_collection(COLLECTION, len(mean), MODEL)
    for start in range(0, n, 1024):
        points = []
        for i in range(start, min(n, start + 1024)):
            payload = corpus_mod.note_payload(c, i)
            payload["content"] = texts[i]
            vector = vectors.get(i)
            if vector is None:
                vector = vector_for(texts[i], mean, root)
            points.append(StoredPoint(c.ids[i], payload, vector.tolist()))
        store.upsert(COLLECTION, points)
    store.optimize(COLLECTION)
    store.close()
    agents = {name: {"agentId": name} for name in corpus_mod.AGENTS[1:]}
    config = {"plugins": {"entries": {"openclaw-amem": {"enabled": True, "config": {
        "agentId": "main", "agents": agents}}}}}  # fmt: skip
    (folder.parent / "openclaw.json").write_text(json.dumps(config), encoding="utf-8")
    return dict(planted)


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Seconds a process took (wall, then CPU: user and system time of it and of the
    children it waited for), and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # leaks exits 1 when it finds a leak
        raise SystemExit(f"{command[0]} failed ({done.returncode}): {done.stderr.strip()}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, done.stdout


def main(argv: list[str] | None = None) -> int:
    """Build the store, then alternate the two processes and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--texts", choices=("unique", "templated"), default="unique")
    parser.add_argument("--store", help="build the store here and keep it")
    args = parser.parse_args(argv)
    base = Path(args.store) if args.store else Path(tempfile.mkdtemp(prefix="leaks-bench-"))
    store = base / "store"
    try:
        if not store.exists():
            began = time.perf_counter()
            planted = build(store, args.notes, args.texts)
            print(f"built {args.notes:,} notes ({args.texts} texts, planted {planted}) "
                  f"in {time.perf_counter() - began:.0f} s")  # fmt: skip
        env = dict(os.environ, AMEM_DATA_DIR=str(base / "data"), AMEM_CACHE_DIR=str(base / "c"))
        config = str(base / "openclaw.json")
        cli = shutil.which("amem-tui", path=str(Path(sys.executable).parent)) or "amem-tui"
        stats = [cli, "--store", str(store), "--config", config, "stats"]
        leaks = [cli, "--store", str(store), "--config", config, "leaks", "--json"]
        times: dict[str, list[float]] = {"stats": [], "leaks": []}
        cpu: dict[str, list[float]] = {"stats": [], "leaks": []}
        found = ""
        print(f"load average before: {_load()}")
        for run in range(args.runs + 1):  # the first run of each warms the page cache
            for name, command in (("stats", stats), ("leaks", leaks)):
                seconds, used, printed = timed(command, env)
                if run:
                    times[name].append(seconds)
                    cpu[name].append(used)
                if name == "leaks":
                    found = printed
        print(f"{args.notes:,} notes, Edge, medians of {args.runs} alternated runs "
              f"(load average after: {_load()}):")  # fmt: skip
        for what, figures in (("wall", times), ("CPU", cpu)):
            s, lk = statistics.median(figures["stats"]), statistics.median(figures["leaks"])
            print(f"  {what:4} stats process  {s:6.2f} s  (runs {_runs(figures['stats'])})")
            print(f"  {what:4} leaks process  {lk:6.2f} s  (runs {_runs(figures['leaks'])})  "
                  f"{lk / s:.1f}x stats")  # fmt: skip
        print(f"  the audit found: {summary(found)}")
    finally:
        if not args.store:
            shutil.rmtree(base, ignore_errors=True)
    return 0


def summary(printed: str) -> str:
    """What ``leaks --json`` found: findings by kind, notes, pairs, what was sampled."""
    report = json.loads(printed)
    kinds = Counter(f["kind"] for f in report["findings"])
    sampled = [c for c in report["coverage"] if c["compared"] < c["total"]]
    return json.dumps({"findings": dict(kinds), "notes": report["notes_checked"],
                       "pairs": report["pairs_checked"], "sampled": sampled})  # fmt: skip


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _runs(values: list[float]) -> str:
    return ", ".join(f"{v:.2f}" for v in values)


if __name__ == "__main__":
    sys.exit(main())
