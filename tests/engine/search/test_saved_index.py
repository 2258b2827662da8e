"""The note index outlives the process: saved beside the store, caught up from the
store's write journal in the next process, rebuilt when it cannot be trusted."""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from amem_tui.config import Settings
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.base import StoredPoint
from amem_tui.engine.store.edge import EdgeStore
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import demo_like_settings, fixed_ids, make_engine

QUERIES = ("deploy freeze", "billing review", "auth token", "staging cache")
WORDS = ("deploy", "freeze", "billing", "review", "auth", "token", "staging", "cache")


class ScanCounter:
    """Counts whole-collection reads of the notes collection (what a saved index saves)."""

    def __init__(self, store: EdgeStore | QdrantStore) -> None:
        self.reads = 0
        original = store.scan

        def counting(collection: str, *args: Any, **kwargs: Any) -> Iterator[StoredPoint]:
            if collection == "amem_notes" and not args and not kwargs:
                self.reads += 1
            return original(collection, *args, **kwargs)

        store.scan = counting  # type: ignore[method-assign]


def open_engine(
    kind: str, folder: Path, prefix: int, settings: Settings | None = None
) -> tuple[MemoryEngine, ScanCounter]:
    store = EdgeStore(folder) if kind == "edge" else QdrantStore(path=str(folder))
    counter = ScanCounter(store)
    engine = make_engine(store, new_id=fixed_ids(prefix), settings=settings)  # type: ignore[arg-type]
    return engine, counter


def answers(engine: MemoryEngine) -> list[object]:
    out: list[object] = []
    for agent in ("main", "dev", "sandbox"):
        for query in QUERIES:
            result = engine.agent(agent).search(query, mode="keyword", hidden=True)
            out.append(
                (
                    agent,
                    query,
                    result.total,
                    [(h.note.id, round(h.score, 9)) for h in result.hits],
                    [h.id for h in result.hidden],
                )
            )
    return out


def fill(engine: MemoryEngine, count: int, start: int = 0) -> None:
    for i in range(start, start + count):
        words = " ".join(WORDS[(i * k) % len(WORDS)] for k in (1, 3, 5))
        engine.agent(("main", "dev")[i % 2]).add(f"{words} note {i}", shared=i % 4 == 0)


def index_folders(folder: Path) -> list[Path]:
    return sorted(p.parent for p in folder.rglob("index.json"))


def rebuilt_answers(kind: str, folder: Path, prefix: int) -> list[object]:
    """What an engine that reads everything again finds (saved indexes removed)."""
    for saved in index_folders(folder):
        shutil.rmtree(saved)
    engine, _ = open_engine(kind, folder, prefix)
    try:
        return answers(engine)
    finally:
        engine.store.close()  # not engine.close(): nothing is saved from this one


@pytest.mark.parametrize("kind", ["edge", "path"])
def test_the_next_process_reuses_the_saved_index(kind: str, tmp_path: Path) -> None:
    folder = tmp_path / "store"
    first, _ = open_engine(kind, folder, 1)
    fill(first, 30)
    seen = answers(first)
    first.close()
    assert index_folders(folder), "the index is saved beside the store"
    second, counter = open_engine(kind, folder, 2)
    assert answers(second) == seen
    assert counter.reads == 0  # nothing read or tokenized again
    second.close()
    assert rebuilt_answers(kind, folder, 3) == seen


@pytest.mark.parametrize("kind", ["edge", "path"])
def test_writes_of_another_process_are_caught_up_from_the_journal(
    kind: str, tmp_path: Path
) -> None:
    folder = tmp_path / "store"
    first, _ = open_engine(kind, folder, 1)
    fill(first, 30)
    answers(first)
    first.close()
    # A second process writes and stops without saving its index (as a CLI add does).
    writer, _ = open_engine(kind, folder, 2)
    fill(writer, 3, start=100)
    writer.agent("main").update(
        writer.agent("main").list_notes("private").notes[0].id, content="auth token now"
    )
    writer.agent("dev").delete(writer.agent("dev").list_notes("private").notes[0].id)
    writer.store.close()
    third, counter = open_engine(kind, folder, 3)
    caught_up = answers(third)
    assert counter.reads == 0  # patched from the journal, not read whole
    assert any("note 100" in n.content for n in third.agent("main").list_notes(limit=100).notes)
    third.close()
    assert rebuilt_answers(kind, folder, 4) == caught_up


def test_an_index_that_cannot_be_trusted_is_rebuilt(tmp_path: Path) -> None:
    folder = tmp_path / "store"
    first, _ = open_engine("edge", folder, 1)
    fill(first, 20)
    answers(first)
    first.close()
    writer, _ = open_engine("edge", folder, 2)
    fill(writer, 2, start=200)
    writer.store.close()
    # The journal no longer reaches back to the saved index's revision.
    for log in folder.rglob("changes.log"):
        lines = log.read_text(encoding="ascii").splitlines()
        log.write_text("\n".join(lines[-1:]) + "\n", encoding="ascii")
    third, counter = open_engine("edge", folder, 3)
    found = answers(third)
    assert counter.reads == 1  # read whole again, never the stale index
    third.close()
    assert rebuilt_answers("edge", folder, 4) == found


def test_ids_of_every_kind_are_found_after_reloading_and_patching(tmp_path: Path) -> None:
    """Numbers, UUIDs and the notes a later process changes: each is found by id (by
    binary search over the saved index's order, or among the ids patched in since)."""
    folder = tmp_path / "store"
    first, _ = open_engine("edge", folder, 1)
    ids = ["7", "12", "3000000000", *(str(uuid.UUID(int=n << 64 | n)) for n in (5, 2, 9))]
    notes = [
        MemoryNote(id=i, content=f"zanzibar {WORDS[k]} note", agent_id="main", readers=["main"])
        for k, i in enumerate(ids)
    ]
    first.put_notes("amem_notes", notes)
    fill(first, 12)
    answers(first)  # builds the index, which closing saves
    first.close()
    writer, _ = open_engine("edge", folder, 2)
    writer.agent("main").update(ids[1], content="zanzibar moved")
    writer.agent("main").delete(ids[4])
    writer.store.close()
    third, counter = open_engine("edge", folder, 3)
    found = third.agent("main").search("zanzibar", limit=20)
    assert counter.reads == 0
    ranks = {h.note.id: (h.bm25_rank, h.dense_rank) for h in found.hits}
    assert ids[4] not in ranks
    for note_id in set(ids) - {ids[4]}:  # each matched both ways
        assert all(ranks[note_id]), note_id
    again = third.agent("main").search("zanzibar moved", limit=1, mode="keyword")
    assert [h.note.id for h in again.hits] == [ids[1]]
    third.close()


@pytest.mark.parametrize("damage", ["truncated", "zeroed", "empty"])
def test_a_damaged_index_file_is_read_whole_again(damage: str, tmp_path: Path) -> None:
    folder = tmp_path / "store"
    first, _ = open_engine("edge", folder, 1)
    fill(first, 20)
    seen = answers(first)
    first.close()
    (saved,) = index_folders(folder)
    arrays = saved / "index.bin"
    raw = arrays.read_bytes()
    changed = {"truncated": raw[: len(raw) // 2], "zeroed": bytes(len(raw)), "empty": b""}
    arrays.write_bytes(changed[damage])
    (saved / "index.npz").write_bytes(b"an earlier format's file")
    second, counter = open_engine("edge", folder, 2)
    assert answers(second) == seen
    assert counter.reads == 1
    second.close()
    assert sorted(p.name for p in saved.iterdir()) == ["index.bin", "index.json"]
    third, counter = open_engine("edge", folder, 3)
    assert answers(third) == seen and counter.reads == 0  # saved again, whole
    third.close()


def test_a_read_only_store_keeps_its_index_in_the_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("AMEM_CACHE_DIR", str(cache))
    folder = tmp_path / "store"
    first, _ = open_engine("edge", folder, 1)
    fill(first, 12)
    first.store.close()
    reader, _ = open_engine("edge", folder, 2, demo_like_settings(read_only=True))
    seen = answers(reader)
    reader.close()
    assert not index_folders(folder)  # nothing written into a store opened read-only
    assert index_folders(cache)
    writer, _ = open_engine("edge", folder, 3)
    fill(writer, 2, start=300)
    writer.store.close()
    again, counter = open_engine("edge", folder, 4, demo_like_settings(read_only=True))
    after = answers(again)
    again.close()
    assert after != seen and counter.reads == 0  # the new notes, caught up from the journal
    assert rebuilt_answers("edge", folder, 5) == after
