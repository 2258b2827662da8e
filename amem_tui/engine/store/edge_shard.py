"""An open Qdrant Edge shard with its metadata file, and how it is optimized.

``optimize()`` merges segments and builds the HNSW graph. It holds the GIL for its
whole run (qdrant-edge-py 0.9), which would freeze every thread of an app, so the
store optimizes a copy of the shard in a child process and swaps it in; writes made
meanwhile are journalled and replayed on the copy.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import qdrant_edge as qe

META_FILE = "collection.json"
# Runs in a child process: optimize() holds the GIL for its whole run (qdrant-edge-py 0.9),
# which would freeze every thread of the app, so it works on a copy of the shard instead.
_OPTIMIZE_SCRIPT = (
    "import sys, qdrant_edge as qe\n"
    "shard = qe.EdgeShard.load(sys.argv[1])\n"
    "shard.optimize()\n"
    "shard.flush()\n"
    "shard.close()\n"
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
        #: Held for every call on the shard, so a swap never closes it under a reader.
        self.lock = threading.RLock()
        #: (write generation, point count): an exact count scans, and searches ask often.
        self.total: tuple[int, int] | None = None

    def write_meta(self) -> None:
        """Write the metadata file atomically (a collection exists once it does)."""
        tmp = self.folder / (META_FILE + ".tmp")
        tmp.write_text(json.dumps(self.meta, indent=2), encoding="utf-8")
        tmp.replace(self.folder / META_FILE)

    def optimize_in_place(self) -> None:
        """Optimize the live shard in the calling thread (it holds the GIL meanwhile)."""
        with self.lock:
            self.dirty = 0
            self.shard.optimize()
            self.shard.flush()
            self.meta["optimized_points"] = int(self.shard.count(qe.CountRequest()))
            self.write_meta()

    def optimize_copy(self, stopped: Callable[[], bool], spawn_lock: threading.RLock) -> None:
        """Optimize a copy in a child process, then swap it in and replay the writes
        made meanwhile; ``stopped`` says the store was closed (then nothing changes)."""
        live = self.folder / "shard"
        copy = self.folder / "shard.optimizing"
        with self.lock:
            self.dirty = 0
            self.shard.flush()
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(live, copy)
            self.journal = []
        try:
            with spawn_lock:
                if stopped():
                    return
                self.process = subprocess.Popen(
                    [sys.executable, "-c", _OPTIMIZE_SCRIPT, str(copy)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            if self.process.wait() != 0 or stopped():
                return
            with self.lock:
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
                    self.shard = qe.EdgeShard.load(str(live))
                except Exception:  # never lose the store: go back to the old shard
                    live.rename(copy)
                    old.rename(live)
                    self.shard = qe.EdgeShard.load(str(live))
                    raise
                for operation in self.journal or []:
                    self.shard.update(operation)
                self.shard.flush()
                self.meta["optimized_points"] = int(self.shard.count(qe.CountRequest()))
                self.write_meta()
                shutil.rmtree(old, ignore_errors=True)
        finally:
            self.journal = None
            self.process = None
            shutil.rmtree(copy, ignore_errors=True)
