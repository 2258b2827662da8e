"""Handing back the pages of a store's memory-mapped files that this process touched.

Qdrant Edge reads its on-disk parts (the full vectors a search rescores with, the
graph, the payloads, the write-ahead log it replays on opening) through memory maps.
Every page a search touches stays mapped, and counts in the process's resident memory
(RSS), until the mapping goes: after a few searches a shard's files are a large part
of an inspector's RSS, though a search needs a few megabytes of them.
Those pages are clean copies of the files; asking the kernel to drop them from this
process (``madvise(MADV_DONTNEED)``) leaves them in the page cache, shared and
reclaimable, and the next search that needs one maps it again with a minor fault.

Only shared mappings and read-only private ones are released: a private writable
mapping may hold changes that exist nowhere else. The caller must keep the files
mapped meanwhile (hold whatever lock the code that unmaps them takes): between reading
``/proc/self/maps`` and the ``madvise``, an unmapped range could be reused for memory
whose contents the call would discard. Linux only; elsewhere nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from collections.abc import Iterator
from pathlib import Path

_MADV_DONTNEED = 4
_MAPS = Path("/proc/self/maps")


def _madvise() -> ctypes._CFuncPtr | None:  # type: ignore[name-defined]
    if not sys.platform.startswith("linux") or not _MAPS.exists():
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    except OSError:
        return None
    call = libc.madvise
    call.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    call.restype = ctypes.c_int
    return call


_CALL = _madvise()


def mappings_under(root: Path) -> Iterator[tuple[int, int, str, str]]:
    """This process's mappings of files under ``root``: start, end, permissions, path."""
    prefix = str(root.resolve())
    try:
        lines = _MAPS.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return
    for line in lines:
        parts = line.split(maxsplit=5)
        if len(parts) < 6 or not parts[5].startswith(prefix):
            continue
        start, end = (int(x, 16) for x in parts[0].split("-"))
        yield start, end, parts[1], parts[5]


def release_mapped_pages(root: Path, skip: tuple[str, ...] = ()) -> int:
    """Drop from this process the pages it maps of files under ``root`` (except paths
    containing any of ``skip``); returns the bytes of mappings released (0 where the
    system cannot)."""
    if _CALL is None:
        return 0
    released = 0
    for start, end, permissions, path in mappings_under(root):
        if permissions[3] == "p" and "w" in permissions:
            continue  # private and writable: its pages may be the only copy of a change
        if any(part in path for part in skip):
            continue
        if _CALL(start, end - start, _MADV_DONTNEED) == 0:
            released += end - start
    return released
