"""A scan of every point of an Edge shard reads its payloads into memory first, in
sequence, rather than a page at a time as it meets each point."""

from __future__ import annotations

import ctypes
import mmap
import os
import sys
from pathlib import Path

import numpy as np
import pytest

from amem_tui.engine.store.base import StoredPoint
from amem_tui.engine.store.edge import EdgeStore
from amem_tui.engine.store.filters import Filter, Match

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="asks Linux's mincore")


def _cached_pages(path: Path) -> tuple[int, int]:
    """How many of a file's pages are in the page cache, and how many it has."""
    size = path.stat().st_size
    pages = (size + mmap.PAGESIZE - 1) // mmap.PAGESIZE
    if size == 0:
        return 0, 0
    flags = (ctypes.c_ubyte * pages)()
    with path.open("rb") as file, mmap.mmap(file.fileno(), size, access=mmap.ACCESS_COPY) as m:
        start = ctypes.c_char.from_buffer(m)
        mincore = ctypes.CDLL(None, use_errno=True).mincore
        failed = mincore(ctypes.c_void_p(ctypes.addressof(start)), ctypes.c_size_t(size), flags)
        del start
    assert failed == 0
    return sum(flag & 1 for flag in flags), pages


def _payload_files(tmp_path: Path) -> list[Path]:
    shard = tmp_path / "edge" / "c" / "shard"
    found = sorted(shard.glob("segments/*/payload_storage/page_*.dat"))
    assert found
    return found


def _dropped(files: list[Path]) -> None:
    """Out of the page cache, as a load leaves the files it does not keep in memory."""
    for path in files:
        with path.open("rb") as file:
            os.posix_fadvise(file.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
        assert _cached_pages(path)[0] < _cached_pages(path)[1]


@pytest.fixture
def store(tmp_path: Path) -> EdgeStore:
    rng = np.random.default_rng(0)
    writing = EdgeStore(tmp_path, background=False)
    writing.ensure_collection("c", 16, "m")
    points = [
        StoredPoint(str(i), {"agent_id": "a" if i % 2 else "b", "content": f"note {i} " * 40},
                    rng.standard_normal(16).tolist())
        for i in range(300)
    ]  # fmt: skip
    writing.upsert("c", points)
    writing.close()
    opened = EdgeStore(tmp_path)
    assert opened.count("c") == 300  # the shard is loaded
    return opened


def test_a_scan_of_every_point_reads_the_payloads_first(store: EdgeStore, tmp_path: Path) -> None:
    files = _payload_files(tmp_path)
    _dropped(files)
    # A filtered scan reads only the pages of the points it meets.
    filtered = store.scan_pages("c", Filter(must=(Match("agent_id", "a"),)), page=1)
    assert len(next(filtered).ids) == 1
    assert sum(_cached_pages(p)[0] for p in files) < sum(_cached_pages(p)[1] for p in files)
    filtered.close()
    pages = store.scan_pages("c", page=1)
    assert len(next(pages).ids) == 1
    for path in files:
        cached, total = _cached_pages(path)
        assert cached == total, path
    assert sum(len(p.ids) for p in pages) == 299
    store.close()
