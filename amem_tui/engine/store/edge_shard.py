"""An open Qdrant Edge shard with its metadata file, and how it is optimized.

``optimize()`` merges segments and builds the HNSW graph. It holds the GIL for its
whole run (qdrant-edge-py 0.9), which would freeze every thread of an app, so the
store optimizes a copy of the shard in a child process and swaps it in; writes made
meanwhile are journalled and replayed on the copy.

A big collection (``COMPACT_VECTORS_FROM`` points) switches to a compact layout
when it is next optimized: a 2-bit binary copy of each vector kept in memory (a
sixteenth of the size), while the vectors, the graph, the payloads, the id tracker
and the keyword indexes no search filters by stay on disk, read as a search needs
them; the best candidates are rescored with the full vectors. Opening the shard is
what a one-shot process (the CLI) waits for, and Edge copies whatever is kept in
memory one vector at a time as it loads: this layout opens fastest of those tried
(int8 or 4-bit copies in memory, or nothing in memory, which made searches read the
disk), and rescoring eight times the candidates keeps recall (docs/performance.md,
"Search and the stores", has the figures).
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import qdrant_edge as qe

from amem_tui.engine.store.base import (
    BOOL_INDEXES,
    DATETIME_INDEXES,
    INTEGER_INDEXES,
    KEYWORD_INDEXES,
)
from amem_tui.engine.store.edge_layout import META_FILE
from amem_tui.engine.store.shard_files import (
    COMPACT,
    ON_DISK_INDEXES,
    is_compact,
    read_ahead,
    read_graph_behind,
)
from amem_tui.engine.store.shared_lock import SharedLock

#: An HNSW graph (built when a bulk load is optimized, in a child process). Measured
#: here at 100k notes with a Mode A filter (bench/bench.py): about a tenth of the time
#: of an exact scan, recall@10 0.99 against exact; the build takes minutes on two
#: cores, which nobody waits for. Small collections stay exact scans (below Qdrant's
#: full-scan threshold), and ``search(exact=True)`` always scans.
HNSW_M = 16
HNSW_EF_CONSTRUCT = 100
#: Points below which a segment is scanned instead of searched through the graph.
FULL_SCAN_THRESHOLD = 10_000
#: Points from which a collection keeps compact vectors (see the module's docstring).
#: At 100,000 notes the full vectors held 146 MiB of an inspector's memory; compact,
#: a search asking for 160 hits (the app's dense stage) cost 3.7 ms of CPU against
#: 2.7 ms, recall@10 1.000 (bench corpus, in one process, alternated).
COMPACT_VECTORS_FROM = 100_000
#: Candidates rescored with the full vectors, per hit asked for.
RESCORE_OVERSAMPLING = 8.0
#: Candidates rescored at most (a search asking for more hits than this rescores each
#: once): every one is a vector read from disk, and the graph walk widens with them.
#: A hybrid search asks for 4x its hits (160 in the app), which at 8x meant 1,280
#: vectors read and a walk as wide.
RESCORED_AT_MOST = 320
# Runs in a child process: optimize() holds the GIL for its whole run (qdrant-edge-py 0.9),
# which would freeze every thread of the app, so it works on a copy of the shard instead.
# A second argument (the vector size) switches the copy to compact vectors.
_OPTIMIZE_SCRIPT = (
    "import sys\n"
    "from amem_tui.engine.store.edge_shard import load_shard\n"
    "shard = load_shard(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else None)\n"
    "shard.optimize()\n"
    "shard.flush()\n"
    "shard.close()\n"
)


def create_shard(
    path: str,
    vector_size: int,
    indexes: Sequence[str],
    sparse: Sequence[str],
    notes: bool = True,
) -> qe.EdgeShard:
    """A new, empty shard at ``path``: cosine vectors of ``vector_size``, the graph's
    settings, the named sparse slots, and the keyword ``indexes``, plus (``notes``) the
    payload indexes of a collection of notes; flushed."""
    config = qe.EdgeConfig(
        vectors=qe.EdgeVectorParams(size=vector_size, distance=qe.Distance.Cosine),
        hnsw_config=qe.HnswIndexConfig(
            m=HNSW_M, ef_construct=HNSW_EF_CONSTRUCT, full_scan_threshold=FULL_SCAN_THRESHOLD
        ),
        sparse_vectors={
            slot: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf) for slot in sparse
        }
        or None,
    )
    shard = qe.EdgeShard.create(path, config)
    keywords = (*KEYWORD_INDEXES, *indexes) if notes else tuple(indexes)
    kinds: list[tuple[Sequence[str], Any]] = [
        (tuple(dict.fromkeys(keywords)), qe.PayloadSchemaType.Keyword)
    ]
    # Each index costs a shard update: a bookkeeping collection, created on a user's
    # first write of its kind (a version, a run), gets only the ones it filters by.
    if notes:
        kinds += [
            (BOOL_INDEXES, qe.PayloadSchemaType.Bool),
            (DATETIME_INDEXES, qe.PayloadSchemaType.Datetime),
            # Ranges and order only, read from disk as asked: only the overview and stats
            # read it, so it never sits in a search's memory.
            (INTEGER_INDEXES, qe.IntegerIndexParams(lookup=False, range=True, on_disk=True)),
        ]
    for fields, kind in kinds:
        for field in fields:
            shard.update(qe.UpdateOperation.create_field_index(field, kind))
    shard.flush()
    return shard


def load_shard(path: str, compact_size: int | None = None, compact: bool = False) -> qe.EdgeShard:
    """Load a shard, its files read ahead (``shard_files``; ``compact``: it keeps
    compact vectors, and some indexes on disk); given its vector size, switched to
    compact vectors (which its next optimize builds; the setting is saved with the
    shard) and with the keyword indexes no search filters by moved to disk (rebuilt
    here)."""
    read_ahead(Path(path), compact and compact_size is None)
    if compact_size is None:
        return qe.EdgeShard.load(path)
    on_disk = qe.Memory.Cold
    config = qe.EdgeConfig(
        vectors=qe.EdgeVectorParams(size=compact_size, distance=qe.Distance.Cosine, memory=on_disk),
        hnsw_config=qe.HnswIndexConfig(
            m=HNSW_M,
            ef_construct=HNSW_EF_CONSTRUCT,
            full_scan_threshold=FULL_SCAN_THRESHOLD,
            memory=on_disk,
        ),
        quantization_config=qe.BinaryQuantizationConfig(
            encoding=qe.BinaryQuantizationEncoding.TwoBits,
            query_encoding=qe.BinaryQuantizationQueryEncoding.Scalar8Bits,
            memory=qe.Memory.Pinned,
        ),
        payload_memory=on_disk,
        id_tracker_memory=on_disk,
    )
    shard = qe.EdgeShard.load(path, config)
    _indexes_to_disk(shard)
    return shard


def _indexes_to_disk(shard: qe.EdgeShard) -> None:
    schema = shard.info().payload_schema
    for field in ON_DISK_INDEXES:
        index = schema.get(field)
        if index is None or index.data_type != qe.PayloadSchemaType.Keyword:
            continue
        if index.params is not None and index.params.on_disk:
            continue
        shard.update(qe.UpdateOperation.delete_field_index(field))
        shard.update(
            qe.UpdateOperation.create_field_index(field, qe.KeywordIndexParams(on_disk=True))
        )


class OpenShard:
    """An open Edge shard, its metadata file and its background optimizer."""

    def __init__(self, folder: Path, shard: qe.EdgeShard, meta: dict[str, Any]) -> None:
        self.folder = folder
        self.shard = shard
        self.meta = meta
        self.dirty = 0  # points written since the last optimize started
        self.optimizer: threading.Thread | None = None
        self.process: subprocess.Popen[bytes] | None = None
        #: Writes made while a copy is being optimized, replayed on the copy afterwards.
        self.journal: list[qe.UpdateOperation] | None = None
        #: Held for every call on the shard: shared by reads, which run side by side, and
        #: alone by writes, a swap and a close, so none closes it under a reader.
        self.lock = SharedLock()
        #: The child reading a compact shard's graph ahead of its first searches.
        self.reader: subprocess.Popen[bytes] | None = None

    def read_graph_ahead(self) -> None:
        """Start reading a compact shard's graph into the page cache, in the background
        (see ``shard_files.read_graph_behind``)."""
        self.stop_reading()
        if self.compact:
            self.reader = read_graph_behind(self.folder / "shard")

    def stop_reading(self) -> None:
        """End the graph's read ahead, if it still runs (closing the store)."""
        reader, self.reader = self.reader, None
        if reader is not None and reader.poll() is None:
            with contextlib.suppress(OSError):
                reader.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                reader.wait(timeout=5)

    @property
    def compact(self) -> bool:
        """True when the shard keeps compact vectors (of this version or an earlier one)."""
        return is_compact(self.meta)

    def points(self) -> int:
        """How many live points the shard holds: its segments' own tally, the number an
        exact count gives, read instead of counted (a count walks every point)."""
        return int(self.shard.info().points_count)

    def due_compact(self, threshold: int) -> bool:
        """True when the shard has grown to ``threshold`` points without the current
        compact layout."""
        return self.meta.get("vectors") != COMPACT and self.points() >= threshold

    def search_params(self, exact: bool, limit: int = 10) -> qe.SearchParams:
        """How to search for ``limit`` hits: compact vectors rank first, then the best are
        rescored with the full vectors (an exact search reads only the full ones)."""
        if not self.compact:
            return qe.SearchParams(exact=exact)
        oversampling = max(1.0, min(RESCORE_OVERSAMPLING, RESCORED_AT_MOST / max(limit, 1)))
        return qe.SearchParams(
            exact=exact,
            quantization=qe.QuantizationSearchParams(
                ignore=exact, rescore=True, oversampling=oversampling
            ),
        )

    def _compacted(self, compact: bool) -> None:
        if compact:
            self.meta["vectors"] = COMPACT

    def write_meta(self) -> None:
        """Write the metadata file atomically (a collection exists once it does)."""
        tmp = self.folder / (META_FILE + ".tmp")
        tmp.write_text(json.dumps(self.meta, indent=2), encoding="utf-8")
        tmp.replace(self.folder / META_FILE)

    def optimize_in_place(self, compact: bool = False) -> None:
        """Optimize the live shard in the calling thread (it holds the GIL meanwhile);
        ``compact`` switches it to compact vectors."""
        with self.lock.writing():
            self.dirty = 0
            if compact:
                self.shard.flush()
                self.shard.close()
                self.shard = load_shard(str(self.folder / "shard"), self.meta["vector_size"])
            self.shard.optimize()
            self.shard.flush()
            self.meta["optimized_points"] = self.points()
            self._compacted(compact)
            self.write_meta()

    def optimize_copy(
        self, stopped: Callable[[], bool], spawn_lock: threading.RLock, compact: bool = False
    ) -> None:
        """Optimize a copy in a child process, then swap it in and replay the writes
        made meanwhile; ``stopped`` says the store was closed (then nothing changes).
        ``compact`` switches the copy to compact vectors."""
        live = self.folder / "shard"
        copy = self.folder / "shard.optimizing"
        with self.lock.writing():
            self.dirty = 0
            self.shard.flush()
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(live, copy)
            self.journal = []
        try:
            with spawn_lock:
                if stopped():
                    return
                size = [str(self.meta["vector_size"])] if compact else []
                self.process = subprocess.Popen(
                    [sys.executable, "-c", _OPTIMIZE_SCRIPT, str(copy), *size],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            if self.process.wait() != 0 or stopped():
                return
            with self.lock.writing():
                if stopped():
                    return
                # Swap: the optimized copy becomes the shard, then gets what was written
                # meanwhile. Loading it is the one short pause (it holds the GIL).
                self.shard.close()
                old = self.folder / "shard.old"
                shutil.rmtree(old, ignore_errors=True)
                live.rename(old)
                copy.rename(live)
                try:
                    self.shard = load_shard(str(live))
                except Exception:  # never lose the store: go back to the old shard
                    live.rename(copy)
                    old.rename(live)
                    self.shard = load_shard(str(live))
                    raise
                for operation in self.journal or []:
                    self.shard.update(operation)
                self.shard.flush()
                self.meta["optimized_points"] = self.points()
                self._compacted(compact)
                self.write_meta()
                shutil.rmtree(old, ignore_errors=True)
                self.read_graph_ahead()
        finally:
            self.journal = None
            self.process = None
            shutil.rmtree(copy, ignore_errors=True)
