"""Soak: concurrent writers in several agents and modes, searches and consolidations,
on one embedded store; then check nothing was lost, leaked or written without leave.

    python scripts/soak.py --minutes 2            # real embedding model
    python scripts/soak.py --minutes 1 --fast     # the test embedder (more ops/second)

Embedded stores are single-process, so this runs threads in one process on one
engine. An oracle records what every note should be; at the end each note written
must be present (or deliberately soft-deleted), each agent's listing must equal the
oracle's view of it, and no forbidden write may have succeeded. Exit 0 when all
counts are zero, 1 otherwise.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from amem_tui.config import AgentConfig, Settings
from amem_tui.engine.embed import TEST_MODEL, HashEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import (
    AmemError,
    InvalidInput,
    NotFound,
    PermissionDenied,
)
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.qdrant import QdrantStore

MODE_A = ("main", "dev", "ops")
MODE_B = {"sandbox": "amem_notes_sandbox", "lab": "amem_notes_lab"}
TOPICS = (
    "the deploy freeze before the quarterly release",
    "the build cache that lives in the artifacts bucket",
    "rotating the staging database credentials",
    "the on-call handover checklist for weekends",
    "snake_case keys in every public API response",
)


@dataclass
class Expected:
    """What a note should be, per the oracle."""

    collection: str
    agent_id: str
    owner: str
    content: str
    active: bool = True
    #: Agents that may ever have seen it (a search racing a publish may see it early).
    ever_visible: set[str] = field(default_factory=set)
    consolidated: bool = False


class Oracle:
    """Every note written, and what it should look like now."""

    def __init__(self) -> None:
        self.notes: dict[str, Expected] = {}
        self.lock = threading.Lock()

    def visible_to(self, agent: str) -> set[str]:
        """Ids the agent's 'visible' listing must hold (active notes only)."""
        with self.lock:
            if agent in MODE_B:
                return {
                    i for i, n in self.notes.items() if n.collection == MODE_B[agent] and n.active
                }
            return {
                i
                for i, n in self.notes.items()
                if n.collection == "amem_notes" and n.active and n.agent_id in (agent, "shared")
            }


class Soak:
    """The workload and its counters."""

    def __init__(self, engine: MemoryEngine, seconds: float, seed: int) -> None:
        self.engine = engine
        self.deadline = time.monotonic() + seconds
        self.oracle = Oracle()
        self.ops: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()
        self.leaks: list[str] = []
        self.unauthorized: list[str] = []
        self.agent_locks = {a: threading.Lock() for a in (*MODE_A, *MODE_B)}
        self.seed = seed
        self.counter_lock = threading.Lock()
        self.consolidations = 0
        self.merges = 0

    def count(self, op: str) -> None:
        with self.counter_lock:
            self.ops[op] += 1

    def collection(self, agent: str) -> str:
        return MODE_B.get(agent, "amem_notes")

    # ----------------------------------------------------------------- writers
    def writer(self, agent: str, index: int) -> None:
        rng = random.Random(self.seed * 1000 + index)
        serial = 0
        while time.monotonic() < self.deadline:
            serial += 1
            roll = rng.random()
            try:
                with self.agent_locks[agent]:
                    if roll < 0.40 or not self.own(agent):
                        self.add(agent, rng, serial, shared=False)
                    elif roll < 0.50 and agent in MODE_A:
                        self.add(agent, rng, serial, shared=True)
                    elif roll < 0.65:
                        self.update(agent, rng, serial)
                    elif roll < 0.73:
                        self.delete_or_restore(agent, rng)
                    elif roll < 0.80 and agent in MODE_A:
                        self.publish_or_unpublish(agent, rng)
                    else:
                        self.forbidden(agent, rng, serial)
            except AmemError as exc:
                with self.counter_lock:
                    self.errors[f"{agent}: {type(exc).__name__}: {exc}"[:160]] += 1
            except Exception as exc:  # a crash is a finding: count it, keep going
                with self.counter_lock:
                    self.errors[f"CRASH {agent}: {type(exc).__name__}: {exc}"[:160]] += 1

    def own(self, agent: str) -> list[str]:
        with self.oracle.lock:
            return [i for i, n in self.oracle.notes.items() if n.owner == agent]

    def add(self, agent: str, rng: random.Random, serial: int, shared: bool) -> None:
        topic = rng.choice(TOPICS)
        text = f"{agent} note {serial}: remember {topic} (variant {rng.randint(0, 3)})"
        if shared:
            visible = set(MODE_A)
            with self.oracle.lock:  # before the write: a racing search may see it at once
                pending = Expected(
                    self.collection(agent), "shared", agent, text, ever_visible=visible
                )
            note = self.engine.agent(agent).add(text, shared=True)
            self.count("add_shared")
        else:
            note = self.engine.agent(agent).add(text)
            self.count("add")
            pending = Expected(self.collection(agent), agent, agent, text, ever_visible={agent})
        with self.oracle.lock:
            self.oracle.notes.setdefault(note.id, pending)

    def pick(self, agent: str, rng: random.Random) -> tuple[str, Expected] | None:
        mine = self.own(agent)
        if not mine:
            return None
        note_id = rng.choice(mine)
        with self.oracle.lock:
            return note_id, self.oracle.notes[note_id]

    def update(self, agent: str, rng: random.Random, serial: int) -> None:
        picked = self.pick(agent, rng)
        if picked is None:
            return
        note_id, expected = picked
        text = f"{agent} edit {serial}: {rng.choice(TOPICS)} changed"
        try:
            note = self.engine.agent(agent).update(note_id, content=text)
        except InvalidInput:
            return  # e.g. identical content: nothing changed
        self.count("update")
        with self.oracle.lock:
            expected.content = note.content

    def delete_or_restore(self, agent: str, rng: random.Random) -> None:
        picked = self.pick(agent, rng)
        if picked is None:
            return
        note_id, expected = picked
        if expected.active:
            self.engine.agent(agent).delete(note_id)
            self.count("delete")
        else:
            self.engine.agent(agent).restore(note_id)
            self.count("restore")
        with self.oracle.lock:
            expected.active = not expected.active

    def publish_or_unpublish(self, agent: str, rng: random.Random) -> None:
        picked = self.pick(agent, rng)
        if picked is None or picked[1].consolidated:
            return
        note_id, expected = picked
        if expected.agent_id == "shared":
            self.engine.agent(agent).unpublish(note_id)
            self.count("unpublish")
            with self.oracle.lock:
                expected.agent_id = agent
        else:
            with self.oracle.lock:
                expected.ever_visible |= set(MODE_A)
            self.engine.agent(agent).publish(note_id)
            self.count("publish")
            with self.oracle.lock:
                expected.agent_id = "shared"

    def forbidden(self, agent: str, rng: random.Random, serial: int) -> None:
        """Try to change a note this agent may not change: it must be refused."""
        with self.oracle.lock:
            others = [i for i, n in self.oracle.notes.items() if n.owner != agent]
        if not others:
            return
        note_id = rng.choice(others)
        action = rng.choice(("update", "delete", "publish", "unpublish"))
        try:
            if action == "update":
                self.engine.agent(agent).update(note_id, content=f"{agent} tampering {serial} here")
            elif action == "delete":
                self.engine.agent(agent).delete(note_id)
            elif action == "publish":
                self.engine.agent(agent).publish(note_id)
            else:
                self.engine.agent(agent).unpublish(note_id)
        except (PermissionDenied, NotFound):
            self.count("refused")
            return
        except InvalidInput:
            self.count("refused")
            return
        self.unauthorized.append(f"{agent} could {action} {note_id}")

    # -------------------------------------------------- searches, consolidations
    def searcher(self, index: int) -> None:
        rng = random.Random(self.seed * 7919 + index)
        agents = (*MODE_A, *MODE_B)
        while time.monotonic() < self.deadline:
            agent = rng.choice(agents)
            try:
                result = self.engine.agent(agent).search(rng.choice(TOPICS), limit=10)
                self.count("search")
                page = self.engine.agent(agent).list_notes(
                    "visible", limit=20, offset=rng.randint(0, 40)
                )
                self.count("list")
            except AmemError as exc:
                with self.counter_lock:
                    self.errors[f"search {agent}: {type(exc).__name__}: {exc}"[:160]] += 1
                continue
            except Exception as exc:
                with self.counter_lock:
                    self.errors[f"CRASH search {agent}: {type(exc).__name__}: {exc}"[:160]] += 1
                continue
            seen = [h.note for h in result.hits] + list(page.notes)
            self.check_seen(agent, seen)

    def check_seen(self, agent: str, notes: list[MemoryNote]) -> None:
        with self.oracle.lock:
            for note in notes:
                expected = self.oracle.notes.get(note.id)
                if expected is None:
                    continue  # written, not yet recorded: its owner is checked below
                if expected.collection != self.collection(agent):
                    self.leaks.append(f"{agent} saw {note.id} from {expected.collection}")
                elif agent not in expected.ever_visible and agent not in MODE_B:
                    self.leaks.append(f"{agent} saw {expected.owner}'s private {note.id}")
            for note in notes:
                unrecorded = note.id not in self.oracle.notes
                if (
                    unrecorded
                    and note.owner not in (agent, None)
                    and note.agent_id != "shared"
                    and agent not in MODE_B
                ):
                    self.leaks.append(f"{agent} saw unrecorded {note.id} of {note.owner}")

    def consolidator(self) -> None:
        rng = random.Random(self.seed * 31)
        if not hasattr(self.engine, "consolidate"):
            print("soak: engine.consolidate is not available; consolidations skipped")
            return
        agents = (*MODE_A, *MODE_B)
        while time.monotonic() < self.deadline:
            time.sleep(rng.uniform(1.0, 3.0))
            agent = rng.choice(agents)
            with self.agent_locks[agent]:
                try:
                    run = self.engine.agent(agent).consolidate()
                except AmemError as exc:
                    with self.counter_lock:
                        self.errors[f"consolidate {agent}: {type(exc).__name__}: {exc}"[:160]] += 1
                    continue
                except Exception as exc:
                    with self.counter_lock:
                        self.errors[f"CRASH consolidate {agent}: {type(exc).__name__}"] += 1
                    continue
                self.count("consolidate")
                self.consolidations += 1
                with self.oracle.lock:
                    for merge in run.merges:
                        self.merges += 1
                        keeper = self.oracle.notes.get(merge.keeper)
                        if keeper is not None:
                            keeper.content = merge.content_after
                        for dropped in merge.dropped:
                            if dropped in self.oracle.notes:
                                self.oracle.notes[dropped].active = False
                                self.oracle.notes[dropped].consolidated = True

    # ------------------------------------------------------------------ verdict
    def verify(self) -> dict[str, int]:
        """Lost notes, leaks in final listings, and changed owners."""
        lost = wrong = 0
        store = self.engine.store
        by_collection: dict[str, list[str]] = {}
        for note_id, expected in self.oracle.notes.items():
            by_collection.setdefault(expected.collection, []).append(note_id)
        for collection, ids in by_collection.items():
            found = {p.id: p.payload for p in store.retrieve(collection, ids)}
            for note_id in ids:
                expected = self.oracle.notes[note_id]
                payload = found.get(note_id)
                if payload is None:
                    lost += 1
                    continue
                active = payload.get("is_active") is not False
                if (
                    active != expected.active
                    or payload.get("content") != expected.content
                    or payload.get("owner") != expected.owner
                    or payload.get("agent_id") != expected.agent_id
                ):
                    wrong += 1
        view_leaks = view_missing = 0
        for agent in (*MODE_A, *MODE_B):
            listed: set[str] = set()
            offset = 0
            while True:
                page = self.engine.agent(agent).list_notes("visible", limit=500, offset=offset)
                listed |= {n.id for n in page.notes}
                offset += 500
                if offset >= page.total:
                    break
            expected_ids = self.oracle.visible_to(agent)
            view_leaks += len(listed - expected_ids)
            view_missing += len(expected_ids - listed)
        return {
            "notes": len(self.oracle.notes),
            "lost": lost,
            "wrong_state": wrong,
            "view_leaks": view_leaks,
            "view_missing": view_missing,
        }


def main(argv: list[str] | None = None) -> int:
    """Run the soak and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=2.0)
    parser.add_argument("--store", help="embedded store folder (default: a new temp folder)")
    parser.add_argument("--searchers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--fast", action="store_true", help="the test embedder, not the model")
    args = parser.parse_args(argv)

    folder = Path(args.store or tempfile.mkdtemp(prefix="amem-soak-")) / "store"
    settings = Settings(
        agents=[AgentConfig(agent="dev"), AgentConfig(agent="ops")]
        + [AgentConfig(agent=a, collection=c) for a, c in MODE_B.items()],
        model=TEST_MODEL if args.fast else None,
    )
    engine = MemoryEngine(
        settings,
        store=QdrantStore(path=str(folder)),
        embedder=HashEmbedder() if args.fast else None,
    )
    if not args.fast:
        engine.embedder.load()  # type: ignore[attr-defined]
    soak = Soak(engine, args.minutes * 60, args.seed)
    threads = [
        threading.Thread(target=soak.writer, args=(agent, i), name=f"writer-{agent}")
        for i, agent in enumerate((*MODE_A, *MODE_B))
    ]
    threads += [
        threading.Thread(target=soak.searcher, args=(i,), name=f"search-{i}")
        for i in range(args.searchers)
    ]
    threads.append(threading.Thread(target=soak.consolidator, name="consolidator"))
    print(
        f"soak: {args.minutes} min on {folder} ({'test embedder' if args.fast else 'real model'}); "
        f"writers {', '.join((*MODE_A, *MODE_B))} (Mode B: {', '.join(MODE_B)}), "
        f"{args.searchers} searchers, 1 consolidator"
    )
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    verdict = soak.verify()
    engine.close()
    total = sum(soak.ops.values())
    print(f"ops: {total} in {elapsed:.1f} s = {total / elapsed:.1f} ops/s")
    print("by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(soak.ops.items())))
    print(f"consolidations: {soak.consolidations} runs, {soak.merges} merges")
    print(
        f"notes written: {verdict['notes']}; lost: {verdict['lost']}; "
        f"wrong state: {verdict['wrong_state']}"
    )
    print(
        f"leaks: {len(soak.leaks)} live (searches/listings), {verdict['view_leaks']} in final "
        f"views; missing from views: {verdict['view_missing']}"
    )
    print(f"unauthorized writes: {len(soak.unauthorized)}")
    crashes = sum(v for k, v in soak.errors.items() if k.startswith("CRASH"))
    print(f"errors: {sum(soak.errors.values())} ({crashes} unexpected exceptions)")
    for message, times in soak.errors.most_common(8):
        print(f"  {times} x {message}")
    for line in (soak.leaks + soak.unauthorized)[:10]:
        print(f"  ! {line}")
    bad = (
        verdict["lost"]
        + verdict["wrong_state"]
        + verdict["view_leaks"]
        + verdict["view_missing"]
        + len(soak.leaks)
        + len(soak.unauthorized)
        + crashes
    )
    print("soak: PASS" if bad == 0 else "soak: FAIL")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
