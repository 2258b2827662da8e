"""Store faults: a server down at start, lost during a session, a locked embedded store,
a missing model. Always a clear StoreUnavailable / exit 5, never a raw client error,
never a half-done write, and work goes on once the store is back."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from amem_tui.engine.embed import HashEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import ModelUnavailable, StoreUnavailable
from amem_tui.engine.store.qdrant import QdrantStore
from tests.cli.test_hostile_cli import one_error_line, run
from tests.conftest import demo_like_settings, fixed_clock, fixed_ids
from tests.faults import FakeServer, FlakyStore, free_port, silent_listener


def test_server_unreachable_at_start(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    line = one_error_line(run(["list", "--url", url], tmp_path), 5)
    assert "cannot reach the Qdrant server" in line and url in line


def test_server_that_never_answers_at_start(tmp_path: Path) -> None:
    with silent_listener() as port:
        line = one_error_line(run(["agents", "--url", f"http://127.0.0.1:{port}"], tmp_path), 5)
    assert "cannot reach" in line and "timed out" in line


@pytest.mark.parametrize("mode", ["503", "500", "401", "garbage", "reset", "empty"])
def test_server_misbehaving_at_start(tmp_path: Path, mode: Any) -> None:
    with FakeServer(mode) as server:
        line = one_error_line(run(["list", "--url", server.url], tmp_path), 5)
    assert server.url in line


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
        engine = MemoryEngine(
            demo_like_settings(), store=store, embedder=HashEmbedder(), clock=fixed_clock()
        )
        assert engine.list_notes("main").total == 0  # healthy: the fake has no collections
        if mode == "down":
            server.stop()
        else:
            server.mode = mode
        for name, call in _store_calls(store).items():
            with pytest.raises(StoreUnavailable):
                call()
            assert name
        for call in (
            lambda: engine.list_notes("main"),
            lambda: engine.search("main", "deploy freeze"),
            lambda: engine.add("main", "A note written while the server is gone"),
            lambda: engine.get("main", "00000000-0000-0000-0000-000000000001"),
            lambda: engine.agents(),
            lambda: engine.count("dev"),
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
    inner = store.inner
    return {
        name: {
            p.id: json.dumps(p.payload, sort_keys=True)
            for p in inner.scroll(name, None, limit=10_000)
        }
        for name in inner.list_collections()
    }


@pytest.fixture
def flaky() -> tuple[MemoryEngine, FlakyStore]:
    store = FlakyStore(QdrantStore(path=":memory:"))
    engine = MemoryEngine(
        demo_like_settings(),
        store=store,  # type: ignore[arg-type]
        embedder=HashEmbedder(),
        clock=fixed_clock(),
        new_id=fixed_ids(),
    )
    engine.add("main", "Private note of main about the deploy window")
    engine.add_shared("main", "Shared convention: snake_case JSON keys")
    engine.add("dev", "Dev keeps a private note about flaky CI")
    engine.add("sandbox", "Sandbox note in its own Mode B collection")
    return engine, store


def test_outage_then_recovery(flaky: tuple[MemoryEngine, FlakyStore]) -> None:
    engine, store = flaky
    before = _state(store)
    note = engine.list_notes("main", "private").notes[0]
    store.down = True
    for call in (
        lambda: engine.add("main", "Written during the outage, must not land"),
        lambda: engine.update("main", note.id, content="Changed during the outage"),
        lambda: engine.delete("main", note.id),
        lambda: engine.publish("main", note.id),
        lambda: engine.search("dev", "deploy"),
        lambda: engine.list_notes("dev"),
    ):
        with pytest.raises(StoreUnavailable):
            call()
    store.down = False
    assert _state(store) == before
    # Back to work: the same calls now succeed.
    engine.update("main", note.id, content="Changed once the store is back")
    assert engine.get("main", note.id).content == "Changed once the store is back"


OPERATIONS: dict[str, Callable[[MemoryEngine, str], object]] = {
    "add": lambda e, _: e.add("main", "A brand new private note of main"),
    "add_shared": lambda e, _: e.add_shared("dev", "A brand new shared note by dev"),
    "update": lambda e, i: e.update("main", i, content="New content for main's note", tags=["t"]),
    "delete": lambda e, i: e.delete("main", i),
    "publish": lambda e, i: e.publish("main", i),
    "add_mode_b": lambda e, _: e.add("sandbox", "A second note in the sandbox"),
}


@pytest.mark.parametrize("op", sorted(OPERATIONS))
def test_a_fault_at_any_call_leaves_no_half_done_write(op: str) -> None:
    """Fail at the 1st, 2nd, ... store call of an operation: each note is wholly before
    or wholly after, never a mix, and the operation works once the store is back."""
    for budget in range(12):
        store = FlakyStore(QdrantStore(path=":memory:"))
        engine = MemoryEngine(
            demo_like_settings(),
            store=store,  # type: ignore[arg-type]
            embedder=HashEmbedder(),
            clock=fixed_clock(),
            new_id=fixed_ids(),
        )
        target = engine.add("main", "Private note of main about the deploy window")
        engine.add("sandbox", "Sandbox note in its own Mode B collection")
        before = _state(store)
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
        OPERATIONS[op](engine, target.id)  # again, with the store back: it works
        assert _state(store) != before
    pytest.fail(f"{op} never finished within the call budget")


# ------------------------------------------------------------ local store faults
def test_locked_embedded_store(tmp_path: Path) -> None:
    holder = QdrantStore(path=str(tmp_path / "store"))
    try:
        line = one_error_line(run(["list", "--store", str(tmp_path / "store")], tmp_path), 5)
    finally:
        holder.close()
    assert "in use by another process" in line and "--url" in line


def test_missing_model(tmp_path: Path) -> None:
    result = run(
        ["add", "A note that needs a model", "--store", str(tmp_path / "s")],
        tmp_path,
        AMEM_MODEL="BAAI/bge-small-en-v1.5",
        FASTEMBED_CACHE_PATH=str(tmp_path / "empty-cache"),
        HF_HUB_OFFLINE="1",
    )
    line = one_error_line(result, 5)
    assert "bge-small-en-v1.5" in line and "never downloaded" in line


def test_unknown_model_name() -> None:
    from amem_tui.engine.embed import FastEmbedder

    with pytest.raises(ModelUnavailable, match="does not know"):
        FastEmbedder("no-such/model")


@pytest.mark.parametrize("where", ["memory", "path"])
def test_embedded_store_under_concurrent_searches_and_writes(tmp_path: Path, where: str) -> None:
    """The TUI's workers are threads: searches racing writes must never fail."""
    import threading

    path = ":memory:" if where == "memory" else str(tmp_path / "store")
    engine = MemoryEngine(
        demo_like_settings(), store=QdrantStore(path=path), embedder=HashEmbedder()
    )
    errors: list[BaseException] = []
    writing = threading.Event()
    writing.set()

    def write(agent: str) -> None:
        try:
            for i in range(40):
                engine.add(agent, f"{agent} writes note number {i} about deploys")
        except BaseException as exc:
            errors.append(exc)

    def read(agent: str) -> None:
        try:
            while writing.is_set():
                engine.search(agent, "note about deploys", limit=5)
                engine.list_notes(agent, "visible", limit=5)
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
