"""Store faults seen from the CLI: a server down, silent or misbehaving at start, a locked
embedded store, a missing model. One clear line on stderr and exit 5, never a traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.cli import one_error_line, run
from tests.support.faults import FakeServer, free_port, silent_listener


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
