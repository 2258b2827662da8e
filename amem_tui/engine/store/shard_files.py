"""Reading a Qdrant Edge shard's files ahead of loading it.

Loading a shard copies into memory what its layout keeps there (the id tracker, the
in-memory keyword indexes, the compact copies of the vectors) by touching a
memory-mapped file page by page, and then drops those files from the page cache. So
every process that opens the shard reads them again, 4 KiB at a time, each page a
separate fault. Reading them first in large sequential reads puts them in the page
cache, and the load copies from memory instead, in a fraction of the time; asking
the kernel to read ahead (``posix_fadvise`` WILLNEED) does less (docs/performance.md,
"The CLI search process").

A child process does the reading (``find`` running ``cat``) where it can: a loop in
this process takes the interpreter lock back after every read, and waits for it
behind any busy thread, such as the CLI's model loading beside the store's opening.

A load also drops the files it leaves on disk from the page cache, the payloads and
full vectors among them. A scan of every point then reads each payload page as it
meets it, in id order, not in file order: one disk read per page. So such a scan
first reads them in sequence too (``read_for_scan``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

#: The metadata's word for compact vectors (``"vectors"`` is absent otherwise).
COMPACT = "2-bit binary in memory; vectors and graph on disk"
#: What earlier versions wrote for their compact layout; such a shard is still searched
#: as a compact one, and switches to the current layout at its next optimize.
EARLIER_COMPACT = ("int8 in memory, full vectors on disk",)

#: Files and folders a load leaves on disk, read only as searches need them: the full
#: vectors, the payloads, the HNSW graph. The write-ahead log lies outside ``segments``.
LEFT_ON_DISK = frozenset({"matrix.dat", "payload_storage", "vector_index"})
#: Keyword indexes no search filters by (a note's content hash, looked up when a note is
#: added; openclaw-amem's topics and subjects), which a compact shard keeps on disk: a
#: load reads a page or two of each. At a million notes that halved opening the shard
#: (4.7-5.2 s to 2.1-2.7 s) and its memory, and their files are 100 MB that a cold start
#: would read for nothing. A shard folder names each index ``<code>-<field>-<kind>``.
ON_DISK_INDEXES = ("hash", "topics", "subjects")
#: The write-ahead log, which a load reads whole to replay it (50 MB after an import of
#: a million notes).
LOG_DIR = "wal"
#: What every search of a compact shard walks first: its HNSW graph (the rest a search
#: reads is a few vectors and payloads, wherever they lie).
FIRST_SEARCH_READS = "vector_index"
#: What a scan of every point reads of each segment: its payloads, and its vectors.
SCANNED = "payload_storage"
SCANNED_VECTORS = "vector_storage"
_CHUNK = 1 << 20


def is_compact(meta: Mapping[str, Any]) -> bool:
    """True when a shard's metadata says it keeps compact vectors (of this version or an
    earlier one), and so the ``ON_DISK_INDEXES`` on disk."""
    return meta.get("vectors") in (COMPACT, *EARLIER_COMPACT)


def _left_on_disk(name: str, compact: bool) -> bool:
    if name in LEFT_ON_DISK:
        return True
    return compact and any(f"-{field}-" in name for field in ON_DISK_INDEXES)


def files_loaded_into_memory(shard: Path, compact: bool = False) -> Iterator[Path]:
    """The files a load of ``shard`` reads whole (see the module's docstring): its
    segments' (the on-disk indexes left out of a ``compact`` one), then its log."""
    for folder, subfolders, files in os.walk(shard / "segments"):
        subfolders[:] = sorted(name for name in subfolders if not _left_on_disk(name, compact))
        for name in sorted(files):
            if name not in LEFT_ON_DISK:
                yield Path(folder, name)
    log = shard / LOG_DIR
    if log.is_dir():
        yield from sorted(path for path in log.iterdir() if path.is_file())


def find_command(shard: Path, compact: bool = False) -> list[str] | None:
    """A ``find`` command selecting what ``files_loaded_into_memory`` yields (add
    an action), or None where there is no ``find``."""
    find = shutil.which("find")
    if find is None:
        return None
    left = [arg for name in sorted(LEFT_ON_DISK) for arg in ("-o", "-name", name)][1:]
    if compact:
        left += [arg for field in ON_DISK_INDEXES for arg in ("-o", "-name", f"*-{field}-*")]
    log = [str(shard / LOG_DIR)] if (shard / LOG_DIR).is_dir() else []
    return [find, str(shard / "segments"), *log, "(", *left, ")", "-prune", "-o", "-type", "f"]


def read_ahead(shard: Path, compact: bool = False) -> None:
    """Read the files a load of ``shard`` copies into memory or replays, in large
    sequential reads (in a child process where one can run), so they are in the page
    cache when it does; ``compact``: the shard keeps the ``ON_DISK_INDEXES`` on
    disk (they are not read).

    Only a speed-up: a file that vanishes or cannot be read is skipped.
    """
    if not (shard / "segments").is_dir():
        return
    command = find_command(shard, compact)
    if command is not None and _read_in_child([*command, "-exec", "cat", "{}", "+"]):
        return
    read_here(shard, compact)


def read_graph_behind(shard: Path) -> subprocess.Popen[bytes] | None:
    """Start reading a compact shard's HNSW graph into the page cache in the background,
    and return the reading child (None where none could start).

    On a cold start (the page cache dropped, or a store just copied) the first searches
    of a big compact shard waited for their graph pages one fault at a time; read
    ahead in sequence, at the lowest priority, they are in memory by the time a person
    has typed a query. The child only reads: the caller never waits for it.
    """
    find = shutil.which("find")
    if find is None or not (shard / "segments").is_dir():
        return None
    nice = shutil.which("nice")
    command = [
        find, str(shard / "segments"), "-path", f"*/{FIRST_SEARCH_READS}/*", "-type", "f",
        "-exec", "cat", "{}", "+",
    ]  # fmt: skip
    if nice is not None:
        command = [nice, "-n", "19", *command]
    try:
        return subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
    except OSError:
        return None


def read_here(shard: Path, compact: bool = False) -> int:
    """``read_ahead`` in this process; returns the bytes read."""
    return _read(files_loaded_into_memory(shard, compact))


def files_a_scan_reads(shard: Path, with_vectors: bool) -> Iterator[Path]:
    """The files a scan of every point of ``shard`` reads: each segment's payloads, and
    with ``with_vectors`` its vectors."""
    folders = (SCANNED, SCANNED_VECTORS) if with_vectors else (SCANNED,)
    segments = shard / "segments"
    if not segments.is_dir():
        return
    for segment in sorted(segments.iterdir()):
        for name in folders:
            found = segment / name
            if found.is_dir():
                yield from sorted(path for path in found.rglob("*") if path.is_file())


def read_for_scan(shard: Path, with_vectors: bool) -> None:
    """Read what a scan of every point of ``shard`` reads (``files_a_scan_reads``) into
    the page cache in large sequential reads, in a child process where one can run.

    Only a speed-up: a file that vanishes or cannot be read is skipped.
    """
    files = list(files_a_scan_reads(shard, with_vectors))
    cat = shutil.which("cat")
    if cat is not None and files and _read_in_child([cat, *map(str, files)]):
        return
    _read(files)


def _read_in_child(command: list[str]) -> bool:
    """Run ``command``, which reads files to no one; whether it read them all."""
    try:
        done = subprocess.run(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
        )
    except OSError:
        return False
    return done.returncode == 0


def _read(paths: Iterable[Path]) -> int:
    buffer = memoryview(bytearray(_CHUNK))
    total = 0
    for path in paths:
        try:
            with path.open("rb", buffering=0) as file:
                while count := file.readinto(buffer):
                    total += count
        except OSError:
            continue
    return total
