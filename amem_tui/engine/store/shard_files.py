"""Reading a Qdrant Edge shard's files ahead of loading it.

Loading a shard copies into memory what its layout keeps there (the id tracker, the
in-memory keyword indexes, the compact copies of the vectors) by touching a
memory-mapped file page by page, and then drops those files from the page cache. So
every process that opens the shard reads them again, 4 KiB at a time, each page a
separate fault. Reading them first in large sequential reads puts them in the page
cache, and the load copies from memory instead.

Measured on the 1M-note bench store (fresh processes, alternated): loading took
2.7-3.0 s, and 0.7-0.8 s with the read ahead included (0.2-0.3 s of it reading
446 MB); at 100k notes 0.7-1.2 s against 0.3 s. Asking the kernel to read ahead
(``posix_fadvise`` WILLNEED) instead gave 2.1 s. The loop here takes the interpreter
lock back after every read, so a busy thread beside it stretches it (the CLI's model
loading: 0.6 s at 1M); a ``find``/``cat`` child process read the same files in 0.08 s,
but the whole search took as long (1.63-1.79 s against 1.65-1.76 s, alternated): the
model's loading needs the lock for longer than the reading takes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

#: Files and folders a load leaves on disk, read only as searches need them: the full
#: vectors, the payloads, the HNSW graph. The write-ahead log lies outside ``segments``.
LEFT_ON_DISK = frozenset({"matrix.dat", "payload_storage", "vector_index"})
_CHUNK = 1 << 20


def files_loaded_into_memory(shard: Path) -> Iterator[Path]:
    """The segment files a load of ``shard`` reads whole (see the module's docstring)."""
    for folder, subfolders, files in os.walk(shard / "segments"):
        subfolders[:] = sorted(name for name in subfolders if name not in LEFT_ON_DISK)
        for name in sorted(files):
            if name not in LEFT_ON_DISK:
                yield Path(folder, name)


def read_ahead(shard: Path) -> int:
    """Read the files a load of ``shard`` copies into memory, in large sequential reads,
    so they are in the page cache when it does; returns the bytes read.

    Only a speed-up: a file that vanishes or cannot be read is skipped.
    """
    buffer = memoryview(bytearray(_CHUNK))
    total = 0
    for path in files_loaded_into_memory(shard):
        try:
            with path.open("rb", buffering=0) as file:
                while count := file.readinto(buffer):
                    total += count
        except OSError:
            continue
    return total
