"""The run lock of the nightly pass: a conditional write, then a read back, on every
backend; two racing takers both find it free, and exactly one gets it."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from amem_tui.engine import PassBusy
from amem_tui.engine.consolidation import runlock
from amem_tui.engine.consolidation.runlock import LOCK_ID, Holder, RunLock
from amem_tui.engine.for_apps import LockLost
from amem_tui.engine.store.base import NoteStore, StoredPoint
from amem_tui.engine.store.filters import Filter
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import second_client

LOG = "amem_notes__amem_runs"
NOW = datetime(2026, 11, 20, 2, 30, tzinfo=UTC)


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


class Interleaved:
    """A store that runs two takers in the order that breaks a lock made of plain
    writes: both read the lock free, then the first writes and reads its token back,
    and only then does the second write and read back."""

    def __init__(
        self, inner: NoteStore, first: bool, both_read: threading.Barrier, done: threading.Event
    ) -> None:
        self.inner = inner
        self.first = first
        self.both_read = both_read
        self.done = done
        self.reads = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def retrieve(self, collection: str, ids: Sequence[str], with_vectors: bool = False) -> Any:
        found = self.inner.retrieve(collection, ids, with_vectors)
        if list(ids) == [LOCK_ID]:
            self.reads += 1
            if self.reads == 1:
                self.both_read.wait(timeout=30)
            elif self.first:
                self.done.set()
        return found

    def put_if(self, collection: str, point: StoredPoint, expect: Filter) -> None:
        if not self.first and point.id == LOCK_ID:
            self.done.wait(timeout=30)
        self.inner.put_if(collection, point, expect)

    def upsert(self, collection: str, points: Sequence[StoredPoint]) -> None:
        if not self.first and points and points[0].id == LOCK_ID:
            self.done.wait(timeout=30)
        self.inner.upsert(collection, points)


class IgnoresConditions:
    """A server that ignores conditional writes (as Qdrant before 1.16 may)."""

    embedded = False

    def __init__(self, inner: NoteStore) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def put_if(self, collection: str, point: StoredPoint, expect: Filter) -> None:
        self.inner.upsert(collection, [point])


@pytest.fixture
def log(store: QdrantStore) -> QdrantStore:
    store.ensure_collection(LOG, 1, "amem-tui/run-log", ("kind",))
    return store


def test_racing_takers_get_exactly_one_lock(log: QdrantStore) -> None:
    clock = Clock(NOW)
    other = second_client(log)  # on a server: another connection, as another machine
    both_read, done = threading.Barrier(2), threading.Event()
    stores = [Interleaved(log, True, both_read, done), Interleaved(other, False, both_read, done)]
    locks = [
        RunLock(stores[0], LOG, clock, "first"),  # type: ignore[arg-type]
        RunLock(stores[1], LOG, clock, "second"),  # type: ignore[arg-type]
    ]
    outcomes: list[Holder | PassBusy] = [PassBusy(Holder("", "", 0, "", "", "")) for _ in locks]

    def take(i: int) -> None:
        try:
            outcomes[i] = locks[i].acquire()
        except PassBusy as busy:
            outcomes[i] = busy

    threads = [threading.Thread(target=take, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    won = [o for o in outcomes if isinstance(o, Holder)]
    refused = [o for o in outcomes if isinstance(o, PassBusy)]
    assert len(won) == 1 and len(refused) == 1, outcomes
    assert refused[0].holder == won[0]  # the loser names the winner
    assert won[0].runner == "first" and stores[1].reads == 2  # it wrote, and read back
    if other is not log:
        other.close()


def test_holder_renews_releases_and_notices_a_takeover(log: QdrantStore) -> None:
    clock = Clock(NOW)
    lock = RunLock(log, LOG, clock, "cron")
    mine = lock.acquire()
    assert lock.holder() == mine
    with pytest.raises(PassBusy):
        RunLock(log, LOG, clock, "tui").acquire()
    clock.now += timedelta(minutes=5)
    assert lock.renew()
    clock.now += timedelta(minutes=9)  # 14 minutes after it was taken, renewed at 5
    assert lock.holder() is not None
    with pytest.raises(PassBusy):
        RunLock(log, LOG, clock, "tui").acquire()
    # Stalled past its expiry, the holder loses the lock to the next taker.
    clock.now += timedelta(minutes=11)
    taker = RunLock(log, LOG, clock, "tui")
    taken = taker.acquire()
    assert not lock.renew() and lock.lost.is_set()
    with pytest.raises(LockLost) as lost:
        lock.check()
    assert lost.value.holder == taken
    lock.release()  # not its lock any more: the taker keeps it
    assert taker.holder() == taken
    taker.release()
    assert taker.holder() is None


def test_a_server_that_ignores_conditions_gets_a_best_effort_lock(
    log: QdrantStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runlock, "CONFIRM_PAUSE", 0.2)
    clock = Clock(NOW)
    ignoring = IgnoresConditions(log)
    assert runlock.honours_conditions(log, LOG)  # every backend here does
    assert not runlock.honours_conditions(ignoring, LOG)  # type: ignore[arg-type]
    lock = RunLock(ignoring, LOG, clock, "old server")  # type: ignore[arg-type]
    mine = lock.acquire()
    assert lock.best_effort and lock.holder() == mine
    with pytest.raises(PassBusy):
        RunLock(ignoring, LOG, clock, "second").acquire()  # type: ignore[arg-type]
    lock.release()
    assert lock.holder() is None
