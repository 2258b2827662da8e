"""The shard lock: reads hold it side by side, a write holds it alone."""

from __future__ import annotations

import threading

import pytest

from amem_tui.engine.store.shared_lock import SharedLock

WAIT = 10.0


def test_readers_share_it_and_a_writer_waits_for_them() -> None:
    lock = SharedLock()
    both_in, release = threading.Barrier(3, timeout=WAIT), threading.Event()
    order: list[str] = []

    def read(name: str) -> None:
        with lock.reading():
            both_in.wait()  # only passes while both readers hold the lock at once
            release.wait(WAIT)
            order.append(name)

    def write() -> None:
        with lock.writing():
            order.append("writer")

    readers = [threading.Thread(target=read, args=(n,)) for n in ("a", "b")]
    for thread in readers:
        thread.start()
    both_in.wait()
    writer = threading.Thread(target=write)
    writer.start()
    writer.join(0.2)
    assert writer.is_alive()  # held back while the reads run
    release.set()
    for thread in (*readers, writer):
        thread.join(WAIT)
    assert order[-1] == "writer" and sorted(order[:2]) == ["a", "b"]


def test_a_waiting_writer_holds_new_readers_back() -> None:
    lock = SharedLock()
    reading, release = threading.Event(), threading.Event()
    order: list[str] = []

    def first_reader() -> None:
        with lock.reading():
            reading.set()
            release.wait(WAIT)
        order.append("first read")

    def write() -> None:
        with lock.writing():
            order.append("writer")

    def late_reader() -> None:
        with lock.reading():
            order.append("late read")

    first = threading.Thread(target=first_reader)
    first.start()
    reading.wait(WAIT)
    writer = threading.Thread(target=write)
    writer.start()
    writer.join(0.2)
    late = threading.Thread(target=late_reader)
    late.start()
    late.join(0.2)
    assert late.is_alive()  # a stream of reads cannot starve the write
    release.set()
    for thread in (first, writer, late):
        thread.join(WAIT)
    assert order == ["first read", "writer", "late read"]


def test_reentrant_on_both_sides_and_no_upgrade() -> None:
    lock = SharedLock()
    with lock.writing(), lock.writing(), lock.reading():
        pass
    with lock.reading(), lock.reading(), pytest.raises(RuntimeError), lock.writing():
        pass
    with lock.writing():  # free again
        pass
