"""What the Qdrant Edge backend adds: its lock, its metadata file, reopening, optimizing."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import qdrant_edge as qe

from amem_tui.config import Settings, load_settings
from amem_tui.engine.embed import HashEmbedder
from amem_tui.engine.engine import open_store
from amem_tui.engine.errors import StoreLocked
from amem_tui.engine.store.base import StoredPoint
from amem_tui.engine.store.edge import EdgeStore
from amem_tui.engine.store.filters import Filter, Match
from amem_tui.engine.store.journal import WriteJournal
from amem_tui.engine.store.qdrant import QdrantStore
from amem_tui.engine.store.shard_files import (
    files_loaded_into_memory,
    find_command,
    read_ahead,
    read_graph_behind,
    read_here,
)
from tests.support.engines import make_engine
from tests.support.paths import REPO_ROOT


def _points(n: int, start: int = 0) -> list[StoredPoint]:
    emb = HashEmbedder()
    vectors = emb.embed_documents(
        [f"note number {i} about deploys" for i in range(start, start + n)]
    )
    return [
        StoredPoint(
            str(i + 1),
            {"content": f"note {i}", "agent_id": "main", "is_active": i % 2 == 0},
            vectors[i - start].tolist(),
        )
        for i in range(start, start + n)
    ]


def test_second_process_gets_a_clear_locked_message(tmp_path: Path) -> None:
    store = EdgeStore(tmp_path / "s")
    code = (
        "import sys\n"
        "from amem_tui.engine.store.edge import EdgeStore\n"
        "from amem_tui.engine.errors import StoreLocked\n"
        "try:\n"
        "    EdgeStore(sys.argv[1])\n"
        "except StoreLocked as exc:\n"
        "    print(exc)\n"
        "    sys.exit(7)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    run = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "s")],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env=env,
        check=False,
    )
    assert run.returncode == 7, run.stderr
    assert "in use by another process" in run.stdout and "--url" in run.stdout
    store.close()
    again = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "s")], cwd=REPO_ROOT, env=env, check=False
    )
    assert again.returncode == 0


def test_a_second_open_in_the_same_process_is_refused_too(tmp_path: Path) -> None:
    store = EdgeStore(tmp_path / "s")
    with pytest.raises(StoreLocked):
        EdgeStore(tmp_path / "s")
    store.close()
    EdgeStore(tmp_path / "s").close()


def test_metadata_file_beside_the_shard_and_notes_survive_reopening(tmp_path: Path) -> None:
    store = EdgeStore(tmp_path / "s")
    engine = make_engine(store, settings=Settings())
    note = engine.agent("main").add("Production deploy is frozen until Friday")
    engine.close()
    meta = json.loads((tmp_path / "s" / "edge" / "amem_notes" / "collection.json").read_text())
    assert meta["vector_size"] == 64
    assert meta["metadata"]["embedding_model"] == HashEmbedder().model_name
    reopened = EdgeStore(tmp_path / "s")
    assert reopened.list_collections() == ["amem_notes", "amem_notes__amem_versions"]
    info = reopened.collection_info("amem_notes")
    assert info is not None and info.embedding_model == HashEmbedder().model_name
    assert info.points_count == 1 and info.vector_size == 64
    assert reopened.resolve_alias("amem_notes") == "amem_notes"
    assert (
        make_engine(reopened, settings=Settings()).agent("main").get(note.id).content
        == note.content
    )
    reopened.close()


def test_boolean_matches_and_paging_in_a_stable_order(tmp_path: Path) -> None:
    store = EdgeStore(tmp_path / "s")
    store.ensure_collection("c", 64, "m")
    store.upsert("c", _points(30))
    inactive = Filter(must=(Match("is_active", False),))
    assert store.count("c", inactive) == 15
    assert store.count("c", Filter(must_not=(Match("is_active", False),))) == 15
    pages = [store.scroll("c", None, limit=7, offset=o) for o in range(0, 30, 7)]
    ids = [p.id for page in pages for p in page]
    assert ids == [str(i) for i in range(1, 31)]
    store.close()


def test_background_optimize_keeps_writes_made_meanwhile(tmp_path: Path) -> None:
    store = EdgeStore(tmp_path / "s", optimize_after=50)
    store.ensure_collection("c", 64, "m")
    store.upsert("c", _points(60))  # a bulk load: optimizing starts in the background
    store.upsert("c", _points(5, start=60))  # written while the copy may be optimized
    store.set_payload("c", "1", {"content": "changed", "agent_id": "main"})
    store.delete_points("c", ["2"])
    store.wait_optimized()
    assert not store.optimizing()
    meta = json.loads((tmp_path / "s" / "edge" / "c" / "collection.json").read_text())
    assert meta["optimized_points"] >= 60  # the optimized copy was swapped in
    assert not (tmp_path / "s" / "edge" / "c" / "shard.optimizing").exists()
    assert store.count("c") == 64
    assert store.retrieve("c", ["1"])[0].payload["content"] == "changed"
    assert store.retrieve("c", ["2"]) == []
    hits = store.search("c", _points(1, start=61)[0].vector or [], None, 1)
    assert hits[0].id == "62"
    store.close()
    reopened = EdgeStore(tmp_path / "s")
    assert reopened.count("c") == 64
    reopened.close()


def _shard_config(store_folder: Path) -> dict[str, Any]:
    """The configuration Edge keeps with the shard (what its optimizer builds to)."""
    config: dict[str, Any] = json.loads(
        (store_folder / "edge" / "c" / "shard" / "edge_config.json").read_text()
    )
    return config


def _clustered(n: int, clusters: int, seed: int) -> list[list[float]]:
    """Unit vectors in groups around random centres, as a text model's vectors fall (the
    hash embedder's near-identical vectors are no fair test of a 2-bit copy)."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(clusters, 64))
    vectors = centres[np.arange(n) % clusters] + rng.normal(scale=0.6, size=(n, 64))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return [[float(x) for x in row] for row in vectors]


def test_a_big_collection_keeps_compact_vectors_and_finds_the_same(tmp_path: Path) -> None:
    vectors = _clustered(95, 9, seed=5)
    points = [
        StoredPoint(str(i + 1), {"content": f"note {i}", "hash": f"h{i}"}, vector)
        for i, vector in enumerate(vectors[:90])
    ]
    probes = vectors[90:]  # each near the notes of its group
    found: dict[str, list[list[tuple[str, float]]]] = {}
    for name, threshold in (("plain", 10**9), ("compact", 60)):
        store = EdgeStore(
            tmp_path / name, optimize_after=50, compact_vectors_from=threshold, background=False
        )
        store.ensure_collection("c", 64, "m")
        store.upsert("c", points)  # past optimize_after: optimized in place
        found[name] = [
            [(h.id, round(h.score, 5)) for h in store.search("c", probe, None, 10, exact=exact)]
            for probe in probes
            for exact in (False, True)
        ]
        store.close()
    meta = json.loads((tmp_path / "compact" / "edge" / "c" / "collection.json").read_text())
    assert meta["vectors"] == "2-bit binary in memory; vectors and graph on disk"
    compact = _shard_config(tmp_path / "compact")
    assert compact["quantization_config"]["binary"]["encoding"] == "two_bits"
    assert compact["quantization_config"]["binary"]["memory"] == "pinned"
    assert compact["vectors"][""]["memory"] == "cold"
    assert compact["hnsw_config"]["memory"] == "cold"
    assert "vectors" not in json.loads(
        (tmp_path / "plain" / "edge" / "c" / "collection.json").read_text()
    )
    assert not _shard_config(tmp_path / "plain").get("quantization_config")
    # Rescored with the full vectors: the same hits with the same scores (ties at the
    # cut may fall either way).
    assert [_by_score(hits) for hits in found["compact"]] == [
        _by_score(hits) for hits in found["plain"]
    ]
    reopened = EdgeStore(tmp_path / "compact")
    again = [(h.id, round(h.score, 5)) for h in reopened.search("c", probes[0], None, 10)]
    assert _by_score(again) == _by_score(found["plain"][1])  # the first probe, exact
    assert reopened.count("c", Filter(must=(Match("hash", "h7"),))) == 1  # kept on disk
    reopened.close()
    shard = qe.EdgeShard.load(str(tmp_path / "compact" / "edge" / "c" / "shard"))
    on_disk = {
        field: bool(index.params is not None and index.params.on_disk)
        for field, index in shard.info().payload_schema.items()
    }
    shard.close()
    assert on_disk["hash"] and on_disk["topics"] and not on_disk["agent_id"]


def test_a_store_with_the_earlier_compact_layout_switches_at_its_next_optimize(
    tmp_path: Path,
) -> None:
    vectors = _clustered(91, 9, seed=7)
    store = EdgeStore(tmp_path, optimize_after=50, compact_vectors_from=60, background=False)
    store.ensure_collection("c", 64, "m")
    store.upsert("c", [StoredPoint(str(i), {}, v) for i, v in enumerate(vectors[:90])])
    store.close()
    meta_path = tmp_path / "edge" / "c" / "collection.json"
    meta = json.loads(meta_path.read_text())
    meta["vectors"] = "int8 in memory, full vectors on disk"  # an earlier version's layout
    meta_path.write_text(json.dumps(meta))
    store = EdgeStore(tmp_path, optimize_after=50, compact_vectors_from=60, background=False)
    nearest = store.search("c", vectors[90], None, 3, exact=False)
    store.optimize("c")
    assert json.loads(meta_path.read_text())["vectors"] == (
        "2-bit binary in memory; vectors and graph on disk"
    )
    assert store.search("c", vectors[90], None, 3, exact=False) == nearest
    store.close()


def test_read_ahead_reads_what_a_load_copies_and_leaves_the_rest(tmp_path: Path) -> None:
    vectors = _clustered(91, 9, seed=3)
    store = EdgeStore(tmp_path, optimize_after=50, compact_vectors_from=60, background=False)
    store.ensure_collection("c", 64, "m")
    store.upsert("c", [StoredPoint(str(i), {"hash": f"h{i}"}, v) for i, v in enumerate(vectors)])
    store.close()
    shard = tmp_path / "edge" / "c" / "shard"
    read = {p.relative_to(shard) for p in files_loaded_into_memory(shard, compact=True)}
    names = [p.as_posix() for p in read]
    assert any("/vector_storage/quantized" in name for name in names)  # the compact copy
    assert any("id_tracker" in name for name in names)
    assert any("-agent_id-" in name for name in names)  # a keyword index
    assert any(p.parts[0] == "wal" for p in read)  # the log, which the load replays
    assert not any("-hash-" in name for name in names)  # kept on disk by a compact shard
    everything = {p.relative_to(shard) for p in files_loaded_into_memory(shard)}
    assert any("-hash-" in p.as_posix() for p in everything) and read < everything
    left = {p.relative_to(shard) for p in shard.rglob("*") if p.is_file()} - read
    assert any("payload_storage" in p.parts for p in left)
    for p in left:  # the payloads, the graph, the full vectors, the on-disk indexes
        if p.parts[0] != "segments":
            continue  # the shard's configuration beside the segments
        on_disk = {"payload_storage", "vector_index", "matrix.dat"} & set(p.parts)
        assert (
            on_disk
            or "-hash-" in p.as_posix()
            or "-topics-" in p.as_posix()
            or ("-subjects-" in p.as_posix())
        )
    assert read_here(shard, compact=True) == sum((shard / p).stat().st_size for p in read) > 0
    command = find_command(shard, compact=True)
    if command is not None:  # the child process reads exactly those files
        listed = subprocess.run([*command, "-print"], capture_output=True, text=True, check=True)
        assert {Path(line).relative_to(shard) for line in listed.stdout.splitlines()} == read
    read_ahead(shard, compact=True)
    reopened = EdgeStore(tmp_path)  # opening reads ahead, then loads as before
    assert [h.id for h in reopened.search("c", vectors[0], None, 1)] == ["0"]
    reopened.close()


def _children() -> list[str]:
    """This process's child processes: each one's id and command."""
    found = []
    for task in Path("/proc/self/task").iterdir():
        # A thread or a child may end between listing it and reading it: skip it then.
        with contextlib.suppress(OSError):
            for pid in (task / "children").read_text().split():
                with contextlib.suppress(OSError):
                    command = Path(f"/proc/{pid}/cmdline").read_text().replace(chr(0), " ")
                    found.append(f"{pid} {command}")
    return found


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_a_compact_shard_reads_its_graph_ahead_in_the_background(tmp_path: Path) -> None:
    vectors = _clustered(91, 9, seed=4)
    store = EdgeStore(tmp_path, optimize_after=50, compact_vectors_from=60, background=False)
    store.ensure_collection("c", 64, "m")
    store.upsert("c", [StoredPoint(str(i), {}, v) for i, v in enumerate(vectors)])
    store.close()
    shard = tmp_path / "edge" / "c" / "shard"
    reader = read_graph_behind(shard)
    assert reader is not None
    assert reader.wait(timeout=120) == 0  # at the lowest priority, on a busy machine
    assert any("vector_index" in arg for arg in reader.args)
    # Readers another test left running in this process are not this store's.
    before = {c for c in _children() if "vector_index" in c}
    reopened = EdgeStore(tmp_path)
    assert [h.id for h in reopened.search("c", vectors[0], None, 1, exact=False)] == ["0"]
    reopened.close()
    # Closing ends it: the child is gone once the system has reaped it (a moment on a
    # busy machine).
    deadline = time.monotonic() + 10
    while {c for c in _children() if "vector_index" in c} - before:
        assert time.monotonic() < deadline, "the read-ahead outlived the store"
        time.sleep(0.05)


def test_counts_stay_exact_through_writes_deletes_and_optimizes(tmp_path: Path) -> None:
    rng = np.random.default_rng(11)
    store = EdgeStore(tmp_path, optimize_after=150, background=False)
    store.ensure_collection("c", 8, "m")
    live: set[str] = set()
    for step in range(30):
        ids = [str(i) for i in rng.integers(0, 600, size=int(rng.integers(1, 120)))]
        if step % 3 == 2:
            store.delete_points("c", ids)
            live -= set(ids)
        else:
            vectors = rng.random((len(ids), 8)).tolist()
            store.upsert(
                "c", [StoredPoint(i, {"n": step}, v) for i, v in zip(ids, vectors, strict=True)]
            )
            live |= set(ids)
        assert store.count("c") == len(live), step
    store.close()
    reopened = EdgeStore(tmp_path)
    assert reopened.count("c") == len(live) == len(list(reopened.scan("c")))
    reopened.close()


def _by_score(hits: list[tuple[str, float]]) -> list[tuple[float, set[str] | int]]:
    """Hits grouped by score, best first; the lowest group only counted (its ties are cut)."""
    scores = sorted({score for _, score in hits}, reverse=True)
    groups: list[tuple[float, set[str] | int]] = [
        (score, {i for i, s in hits if s == score}) for score in scores[:-1]
    ]
    return [*groups, (scores[-1], sum(1 for _, s in hits if s == scores[-1]))]


def test_open_store_defaults_to_edge_and_keeps_qdrant_client_folders(
    tmp_path: Path,
) -> None:
    old = tmp_path / "old"
    legacy = QdrantStore(path=str(old))
    note = (
        make_engine(legacy, settings=Settings())
        .agent("main")
        .add("Written by an earlier version of the app")
    )
    legacy.close()
    reopened = open_store(Settings(store_path=old))
    assert isinstance(reopened, QdrantStore)
    assert (
        make_engine(reopened, settings=Settings()).agent("main").get(note.id).content
        == note.content
    )
    reopened.close()

    fresh = open_store(Settings(store_path=tmp_path / "new"))
    assert isinstance(fresh, EdgeStore)
    fresh.close()
    again = open_store(Settings(store_path=tmp_path / "new"))
    assert isinstance(again, EdgeStore)
    again.close()

    chosen = load_settings(env={"AMEM_BACKEND": "qdrant-local", "AMEM_STORE": str(tmp_path / "o")})
    escape = open_store(chosen)
    assert isinstance(escape, QdrantStore)
    escape.close()
    assert isinstance(open_store(chosen), QdrantStore)  # its folder now says qdrant-client


def _resident_kib_under(root: Path, part: str = "") -> int:
    """KiB of this process's resident memory in mappings of files under ``root`` (whose
    path holds ``part``)."""
    total, inside = 0, False
    prefix = str(root.resolve())
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split(maxsplit=5)
        if len(head) >= 5 and "-" in head[0] and ":" not in head[0]:
            inside = len(head) > 5 and head[5].startswith(prefix) and part in head[5]
        elif inside and line.startswith("Rss:"):
            total += int(line.split()[1])
    return total


@pytest.mark.skipif(not Path("/proc/self/smaps").exists(), reason="reads /proc")
def test_released_pages_leave_the_process_and_searches_answer_the_same(tmp_path: Path) -> None:
    vectors = _clustered(3000, 12, seed=5)
    store = EdgeStore(tmp_path, optimize_after=10**9, background=False)
    store.ensure_collection("c", 64, "m")
    points = [StoredPoint(str(i), {"agent_id": "main", "n": i}, v) for i, v in enumerate(vectors)]
    store.upsert("c", points)
    store.close()
    store = EdgeStore(tmp_path)
    before = [[h.id for h in store.search("c", v, None, 5)] for v in vectors[:40]]
    store.retrieve("c", [str(i) for i in range(0, 3000, 7)], with_vectors=True)
    held = _resident_kib_under(tmp_path)
    assert held > 0
    assert store.release_pages() > 0
    assert _resident_kib_under(tmp_path) < held
    assert [[h.id for h in store.search("c", v, None, 5)] for v in vectors[:40]] == before
    assert store.retrieve("c", ["7"])[0].payload == {"agent_id": "main", "n": 7}
    store.close()
    assert store.release_pages() == 0  # closed: nothing to hand back


@pytest.mark.skipif(not Path("/proc/self/smaps").exists(), reason="reads /proc")
def test_opening_a_shard_hands_back_its_keyword_indexes_and_log(tmp_path: Path) -> None:
    """What the load touched and searches do not keep resident goes back at once (an
    app loads its model next): the keyword indexes' maps, the log and the payloads."""
    vectors = _clustered(2000, 12, seed=6)
    store = EdgeStore(tmp_path, optimize_after=10**9, background=False)
    store.ensure_collection("c", 64, "m")
    agents = ("main", "dev", "shared")
    points = [
        StoredPoint(str(i), {"agent_id": agents[i % 3], "owner": "main"}, v)
        for i, v in enumerate(vectors)
    ]
    store.upsert("c", points)
    store.close()
    store = EdgeStore(tmp_path)
    assert store.count("c") == 2000  # the shard loaded
    # The keyword indexes' maps and the payloads are pages named page_N.dat (a tracker
    # page or two of each is read again when the shard is counted).
    assert _resident_kib_under(tmp_path, "/page_") == 0
    assert _resident_kib_under(tmp_path, "/wal/") == 0
    only_main = Filter(must=(Match("agent_id", "main"),))
    assert store.count("c", only_main) == 667
    hits = store.search("c", vectors[0], only_main, 5)
    assert hits and hits[0].id == "0" and all(h.payload["agent_id"] == "main" for h in hits)
    store.close()


def test_the_write_journal_counts_every_write_and_keeps_logging_after_a_trim(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Revisions and the ids each write touched outlive the process; the log, trimmed to
    its last lines every 1,024 writes, goes on logging under its name afterwards."""
    monkeypatch.setattr(WriteJournal, "KEEP", 8)
    store = EdgeStore(tmp_path, optimize_after=10**9, background=False)
    store.ensure_collection("c", 4, "m")
    start = store.revision("c")
    assert start is not None
    for i in range(1030):
        store.upsert("c", [StoredPoint(str(i), {"n": i}, [1.0, 0.0, 0.0, float(i)])])
    assert store.revision("c") == start + 1030
    assert store.changed_since("c", start + 1026) == {"1026", "1027", "1028", "1029"}
    assert store.changed_since("c", start) is None  # trimmed: no longer reaches back
    store.close()
    again = EdgeStore(tmp_path, optimize_after=10**9, background=False)
    assert again.revision("c") == start + 1030
    again.set_payload("c", "5", {"n": 50})
    assert again.revision("c") == start + 1031
    assert again.changed_since("c", start + 1030) == {"5"}
    again.close()
