"""Store faults under the engine: a server lost or hanging during a session, a store that
fails at any call, an unknown model, threads racing. Always a clear StoreUnavailable,
never a raw client error, never a half-done write, and work goes on once the store is
back. (The same faults seen from the CLI at start: tests/cli/test_cli_store_faults.py.)"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from amem_tui.engine.bookkeeping import is_own_bookkeeping
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import ModelUnavailable, StoreUnavailable
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.faults import FakeServer, FlakyStore


def _store_calls(store: QdrantStore) -> dict[str, Callable[[], object]]:
    some_id = "00000000-0000-0000-0000-000000000001"
    return {
        "list_collections": store.list_collections,
        "collection_info": lambda: store.collection_info("amem_notes"),
        "ensure_collection": lambda: store.ensure_collection("amem_notes", 64, "m"),
        "upsert": lambda: store.upsert("c", [_point(some_id)]),
        "set_payload": lambda: store.set_payload("c", some_id, {"content": "x"}),
        "retrieve": lambda: store.retrieve("c", [some_id]),
        "scroll": lambda: store.scroll("c", None, limit=10),
        "count": lambda: store.count("c"),
        "search": lambda: store.search("c", [0.1] * 64, None, 5),
        "delete_points": lambda: store.delete_points("c", [some_id]),
    }


def _point(point_id: str) -> Any:
    from amem_tui.engine.store.base import StoredPoint

    return StoredPoint(point_id, {"content": "x"}, [0.1] * 64)


@pytest.mark.parametrize("mode", ["503", "500", "401", "404", "garbage", "reset", "empty", "down"])
def test_server_lost_during_a_session(mode: Any) -> None:
    """Every store call, and every engine call, raises StoreUnavailable: no raw errors."""
    with FakeServer("ok", hang_seconds=3) as server:
        store = QdrantStore(url=server.url, timeout=2)
        engine = make_engine(store)
        assert engine.agent("main").list_notes().total == 0  # healthy: the fake has no collections
        if mode == "down":
            server.stop()
        else:
            server.mode = mode
        for name, call in _store_calls(store).items():
            with pytest.raises(StoreUnavailable):
                call()
            assert name
        for call in (
            lambda: engine.agent("main").list_notes(),
            lambda: engine.agent("main").search("deploy freeze"),
            lambda: engine.agent("main").add("A note written while the server is gone"),
            lambda: engine.agent("main").get("00000000-0000-0000-0000-000000000001"),
            lambda: engine.agents(),
            lambda: engine.agent("dev").count(),
        ):
            with pytest.raises(StoreUnavailable):
                call()
        store.close()


def test_server_that_hangs_during_a_session() -> None:
    with FakeServer("ok", hang_seconds=3) as server:
        store = QdrantStore(url=server.url, timeout=1)
        server.mode = "hang"
        with pytest.raises(StoreUnavailable, match="timed out"):
            store.list_collections()
        store.close()


# ------------------------------------------------------- a flaky store, real data
def _state(store: FlakyStore) -> dict[str, dict[str, str]]:
    """Every note as stored (the versions amem-tui keeps beside them are checked apart:
    a version is written ahead of its change, and one whose write failed is left out)."""
    inner = store.inner
    return {
        name: {
            p.id: json.dumps(p.payload, sort_keys=True)
            for p in inner.scroll(name, None, limit=10_000)
        }
        for name in inner.list_collections()
        if not is_own_bookkeeping(name)
    }


def _versions(engine: MemoryEngine) -> dict[str, list[tuple[str, list[str]]]]:
    """What each of main's notes' versions say, as the agent reads them."""
    main = engine.agent("main")
    return {
        note.id: [(v.action, v.changed) for v in main.versions(note.id).versions]
        for note in main.list_notes("all", include_inactive=True).notes
    }


@pytest.fixture
def flaky() -> tuple[MemoryEngine, FlakyStore]:
    store = FlakyStore(QdrantStore(path=":memory:"))
    engine = make_engine(store)  # type: ignore[arg-type]
    engine.agent("main").add("Private note of main about the deploy window")
    engine.agent("main").add("Shared convention: snake_case JSON keys", shared=True)
    engine.agent("dev").add("Dev keeps a private note about flaky CI")
    engine.agent("sandbox").add("Sandbox note in its own Mode B collection")
    return engine, store


def test_outage_then_recovery(flaky: tuple[MemoryEngine, FlakyStore]) -> None:
    engine, store = flaky
    before = _state(store)
    note = engine.agent("main").list_notes("private").notes[0]
    store.down = True
    for call in (
        lambda: engine.agent("main").add("Written during the outage, must not land"),
        lambda: engine.agent("main").update(note.id, content="Changed during the outage"),
        lambda: engine.agent("main").delete(note.id),
        lambda: engine.agent("main").publish(note.id),
        lambda: engine.agent("dev").search("deploy"),
        lambda: engine.agent("dev").list_notes(),
    ):
        with pytest.raises(StoreUnavailable):
            call()
    store.down = False
    assert _state(store) == before
    # Back to work: the same calls now succeed.
    engine.agent("main").update(note.id, content="Changed once the store is back")
    assert engine.agent("main").get(note.id).content == "Changed once the store is back"


OPERATIONS: dict[str, Callable[[MemoryEngine, str], object]] = {
    "add": lambda e, _: e.agent("main").add("A brand new private note of main"),
    "add_shared": lambda e, _: e.agent("dev").add("A brand new shared note by dev", shared=True),
    "update": lambda e, i: e.agent("main").update(
        i, content="New content for main's note", tags=["t"]
    ),
    "delete": lambda e, i: e.agent("main").delete(i),
    "publish": lambda e, i: e.agent("main").publish(i),
    "add_mode_b": lambda e, _: e.agent("sandbox").add("A second note in the sandbox"),
}


@pytest.mark.parametrize("op", sorted(OPERATIONS))
def test_a_fault_at_any_call_leaves_no_half_done_write(op: str) -> None:
    """Fail at the 1st, 2nd, ... store call of an operation: each note is wholly before
    or wholly after, never a mix, and the operation works once the store is back."""
    for budget in range(12):
        store = FlakyStore(QdrantStore(path=":memory:"))
        engine = make_engine(store)  # type: ignore[arg-type]
        target = engine.agent("main").add("Private note of main about the deploy window")
        engine.agent("sandbox").add("Sandbox note in its own Mode B collection")
        before, versions = _state(store), _versions(engine)
        store.fail_after = budget
        try:
            OPERATIONS[op](engine, target.id)
            failed = False
        except StoreUnavailable:
            failed = True
        store.down, store.fail_after = False, None
        if not failed:
            return
        assert _state(store) == before, (op, budget)  # nothing half-written
        assert _versions(engine) == versions, (op, budget)  # no version of it either
        OPERATIONS[op](engine, target.id)  # again, with the store back: it works
        assert _state(store) != before
    pytest.fail(f"{op} never finished within the call budget")


def test_unknown_model_name() -> None:
    from amem_tui.engine.embed import FastEmbedder

    with pytest.raises(ModelUnavailable, match="does not know"):
        FastEmbedder("no-such/model")


@pytest.mark.parametrize("where", ["memory", "path"])
def test_embedded_store_under_concurrent_searches_and_writes(tmp_path: Path, where: str) -> None:
    """The TUI's workers are threads: searches racing writes must never fail."""
    import threading

    path = ":memory:" if where == "memory" else str(tmp_path / "store")
    engine = make_engine(QdrantStore(path=path))
    errors: list[BaseException] = []
    writing = threading.Event()
    writing.set()

    def write(agent: str) -> None:
        try:
            for i in range(40):
                engine.agent(agent).add(f"{agent} writes note number {i} about deploys")
        except BaseException as exc:
            errors.append(exc)

    def read(agent: str) -> None:
        try:
            while writing.is_set():
                engine.agent(agent).search("note about deploys", limit=5)
                engine.agent(agent).list_notes("visible", limit=5)
        except BaseException as exc:
            errors.append(exc)

    writers = [threading.Thread(target=write, args=(a,)) for a in ("main", "sandbox")]
    readers = [threading.Thread(target=read, args=(a,)) for a in ("dev", "sandbox")]
    for thread in readers + writers:
        thread.start()
    for thread in writers:
        thread.join()
    writing.clear()
    for thread in readers:
        thread.join()
    engine.close()
    assert errors == []
