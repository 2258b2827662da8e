"""What follow mode costs while nothing changes: the probe, next to a count and a search.

Usage: python bench/follow_probe.py [--notes 100000] [--store edge|local|standin] [--repeat 20]

Fills a store with N notes of three agents (the test embedder: no model to load), then
times, side by side in the same run, as agent ``main`` watching ``--watch`` notes (the
TUI watches the selected note and the rows in view, with a screen above and below:
about 90 at 120x40):

- probe, idle (embedded): nothing written since the last probe; an embedded store
  knows it from its write generation and reads nothing;
- probe, idle (as a server): the same store seen as a server (every probe asks it:
  listing, three counts, run log, the watched notes by id);
- probe, sweep: one idle probe in SWEEP_EVERY (once a minute, at the TUI's poll a
  second) also looks for notes created since the last look (a time condition on
  ``timestamp``, which no index serves);
- probe after an add: another writer added one note; the probe looks for new notes
  and finds it (a publish or a delete moves counts without that look);
- count (visible): one count of what the agent sees;
- search (hybrid, warm) and search (dense): one search as the agent.

Figures are medians in milliseconds and ratios to the search (hybrid, warm); the
machine is shared and noisy, so read the ratios. ``--store standin`` runs the probe
over REST against the test stand-in (qdrant-client local mode underneath, which
scans in Python: keep N small there; a real server answers counts from indexes).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from amem_tui.config import AgentConfig, Settings
from amem_tui.engine.embed import HashEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.base import NoteStore
from amem_tui.engine.watch import SWEEP_EVERY

WORDS = [
    "deploy",
    "freeze",
    "release",
    "billing",
    "vendor",
    "standup",
    "tests",
    "lint",
    "docker",
    "cache",
    "invoice",
    "offsite",
    "flight",
    "payments",
    "hotfix",
    "auth",
    "middleware",
    "token",
    "expiry",
    "staging",
    "database",
    "credentials",
]
BATCH = 2000


class SeenAsServer:
    """The store, seen as a server: not embedded, so every probe asks it."""

    embedded = False

    def __init__(self, inner: NoteStore) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def fill(engine: MemoryEngine, count: int, rng: random.Random) -> None:
    """``count`` notes of main, dev and the shared scope, old timestamps, 5% deleted."""
    for start in range(0, count, BATCH):
        notes = []
        for i in range(start, min(count, start + BATCH)):
            agent = rng.choice(["main", "dev", "shared"])
            owner = "main" if agent == "shared" else agent
            notes.append(
                MemoryNote(
                    id=str(uuid.UUID(int=i + 1)),
                    content=" ".join(rng.choices(WORDS, k=12)) + f" note {i}",
                    tags=rng.sample(WORDS, 2),
                    timestamp=f"2026-{1 + i % 9:02d}-{1 + i % 27:02d}T10:00:00.000Z",
                    agent_id=agent,
                    owner=owner,
                    readers=["*"] if agent == "shared" else [owner],
                    writers=[owner],
                    is_active=rng.random() > 0.05,
                )
            )
        engine.put_notes("amem_notes", notes)


def timed(call: Callable[[], object], repeat: int) -> list[float]:
    """Milliseconds of each of ``repeat`` calls."""
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        out.append((time.perf_counter() - start) * 1000)
    return out


def open_store(kind: str, folder: str) -> tuple[NoteStore, Callable[[], None]]:
    """The store to fill, and what stops it."""
    if kind == "edge":
        from amem_tui.engine.store.edge import EdgeStore

        edge = EdgeStore(folder, background=False)
        return edge, edge.close
    from amem_tui.engine.store.qdrant import QdrantStore

    if kind == "local":
        local = QdrantStore(path=":memory:")
        return local, local.close
    from tests.support.qdrant_standin import QdrantStandIn

    standin = QdrantStandIn().start()
    remote = QdrantStore(url=standin.url)

    def stop() -> None:
        remote.close()
        standin.close()

    return remote, stop


def main() -> None:
    """Fill, then time the probe next to a count and a search."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--notes", type=int, default=100_000)
    parser.add_argument("--store", choices=["edge", "local", "standin"], default="edge")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument(
        "--watch", type=int, default=90, help="notes watched (the TUI: the rows in view at 120x40)"
    )
    args = parser.parse_args()
    rng = random.Random(0)
    settings = Settings(agents=[AgentConfig(agent="dev")])
    folder = tempfile.TemporaryDirectory(prefix="amem-follow-bench-")
    store, stop = open_store(args.store, folder.name)
    engine = MemoryEngine(settings, store=store, embedder=HashEmbedder())
    started = time.perf_counter()
    fill(engine, args.notes, rng)
    if args.store == "edge":
        store.optimize()  # type: ignore[attr-defined]
    filled = time.perf_counter() - started
    watch = [
        n.id
        for which in ("private", "shared")
        for n in engine.agent("main").list_notes(which, limit=args.watch // 2).notes
    ]
    query = "deploy freeze billing"
    engine.agent("main").search(query)  # warm: the note cache and the keyword index

    last = engine.agent("main").probe(watch=watch)
    rows: dict[str, list[float]] = {}
    rows["probe, idle (embedded)"] = timed(
        lambda: engine.agent("main").probe(watch=watch, since=last), args.repeat
    )
    server_view = MemoryEngine(settings, store=SeenAsServer(store), embedder=HashEmbedder())  # type: ignore[arg-type]
    seen = server_view.agent("main").probe(watch=watch)
    rows["probe, idle (as a server)"] = timed(
        lambda: server_view.agent("main").probe(watch=watch, since=seen), args.repeat
    )
    due = replace(seen, sweep=SWEEP_EVERY - 1)  # the next probe looks for new notes too
    rows[f"probe, sweep (1 in {SWEEP_EVERY})"] = timed(
        lambda: server_view.agent("main").probe(watch=watch, since=due), max(3, args.repeat // 4)
    )
    writer = MemoryEngine(settings, store=store, embedder=HashEmbedder())
    found: list[int] = []

    def after_a_write() -> None:
        before = server_view.agent("main").probe(watch=watch)
        writer.agent("main").add(f"A new note written while following, number {rng.random()}")
        start = time.perf_counter()
        after = server_view.agent("main").probe(watch=watch, since=before)
        rows.setdefault("probe after an add", []).append((time.perf_counter() - start) * 1000)
        found.append(len(after.new_notes["private"]))

    for _ in range(max(3, args.repeat // 4)):
        after_a_write()
    rows["count (visible)"] = timed(lambda: engine.agent("main").count("visible"), args.repeat)
    rows["search (hybrid, warm)"] = timed(lambda: engine.agent("main").search(query), args.repeat)
    rows["search (dense)"] = timed(
        lambda: engine.agent("main").search(query, mode="dense"), args.repeat
    )
    base = statistics.median(rows["search (hybrid, warm)"])
    print(
        f"{args.notes} notes, store {args.store} (filled in {filled:.0f} s), test embedder, "
        f"{len(watch)} watched notes, median of {args.repeat}"
    )
    print("compared against: one hybrid search as main (warm), in the same run")
    for name, values in rows.items():
        median = statistics.median(values)
        print(f"{name:<26} {median:9.2f} ms   x{median / base:7.3f} of a search")
    print(f"new notes found by each probe after an add: {sorted(set(found))}")
    # The TUI polls once a second whatever happens; one poll in SWEEP_EVERY sweeps.
    sweep = statistics.median(rows[f"probe, sweep (1 in {SWEEP_EVERY})"])
    idle = statistics.median(rows["probe, idle (as a server)"])
    per_second = idle + (sweep - idle) / SWEEP_EVERY
    print(
        f"idle following, one poll a second (a server's store): {per_second:.1f} ms of work "
        f"a second ({per_second / 10:.2f}% of one core), x{per_second / base:.2f} of one "
        "search a second; embedded store: "
        f"{statistics.median(rows['probe, idle (embedded)']):.2f} ms a second"
    )
    stop()
    folder.cleanup()


if __name__ == "__main__":
    main()
