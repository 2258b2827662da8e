"""Reading ahead at an app's start: what is read, in what order, and that it ends."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from amem_tui.engine.for_apps import start_prefetch, stop_prefetch
from amem_tui.engine.prefetch import commands
from amem_tui.engine.store.base import StoredPoint
from amem_tui.engine.store.edge import EdgeStore


def _store(folder: Path, *names: str) -> None:
    store = EdgeStore(folder, optimize_after=10**9, background=False)
    for name in names or ("c",):
        store.ensure_collection(name, 4, "m")
        points = [StoredPoint(str(i), {"agent_id": "main"}, [1.0, 0, 0, i]) for i in range(9)]
        store.upsert(name, points)
    store.close()


def test_the_engine_s_modules_come_first_then_the_store_then_the_model(tmp_path: Path) -> None:
    _store(tmp_path / "store")
    index = tmp_path / "store" / "edge" / "c" / "derived" / "index"
    index.mkdir(parents=True)
    (index / "index.bin").write_bytes(b"x")
    found = commands(tmp_path / "store")
    shard = str(tmp_path / "store" / "edge" / "c" / "shard")
    at_shard = next(i for i, c in enumerate(found) if shard in c)
    at_index = next(i for i, c in enumerate(found) if str(index) in c)
    assert "numpy" in found[0] and "qdrant_edge" in found[0]  # imported with the engine
    assert at_shard == 1
    assert any("onnxruntime" in c for c in found[at_shard:at_index])  # the model's libraries
    assert at_index == len(found) - 1  # the note index last: the biggest, read in parts
    assert "onnxruntime" not in " ".join(commands(tmp_path / "store", model=False))
    assert not any(shard in c for c in commands(None))


def test_the_run_log_comes_after_the_model_and_the_versions_are_never_read(
    tmp_path: Path,
) -> None:
    _store(tmp_path / "store", "c", "c__amem_runs", "c__amem_versions")
    found = commands(tmp_path / "store")
    edge = tmp_path / "store" / "edge"

    def at(collection: str) -> int:
        return next(i for i, c in enumerate(found) if str(edge / collection / "shard") in c)

    at_model = next(i for i, c in enumerate(found) if "onnxruntime" in c)
    assert at("c") < at_model < at("c__amem_runs")
    assert not any(str(edge / "c__amem_versions") in c for c in found)


@pytest.mark.skipif(shutil.which("find") is None, reason="needs find and cat")
def test_the_reading_child_reads_and_ends(tmp_path: Path) -> None:
    _store(tmp_path / "store")
    child = start_prefetch(tmp_path / "store", model=False)
    assert child is not None
    assert child.wait(timeout=120) == 0
    stop_prefetch(child)  # already ended: nothing to do
    running = start_prefetch(tmp_path / "store")
    assert running is not None
    stop_prefetch(running)  # ended at once when the app quits
    assert running.poll() is not None
