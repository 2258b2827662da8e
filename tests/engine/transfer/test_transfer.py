"""export and import: JSON Lines, validation of every line, round trips, honest failures."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from amem_tui.engine import transfer
from amem_tui.engine.embed import HashEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import AmemError, ReadOnlyStore, StoreUnavailable
from amem_tui.engine.store.base import StoredPoint
from amem_tui.engine.store.qdrant import QdrantStore
from amem_tui.engine.transfer import dump_line
from tests.support.engines import make_engine, stored_vectors
from tests.support.real_stores import (
    AMEM_ALIAS,
    AMEM_REAL,
    MALFORMED,
    MEM0,
    amem_payload,
    amem_points,
    build_real_store,
    nid,
    real_settings,
    snapshot,
)


def our_store(store: QdrantStore) -> MemoryEngine:
    """A collection of our own model holding the openclaw-amem payloads (incl. malformed)."""
    engine = make_engine(store, settings=real_settings(collection="notes"))
    store.ensure_collection("notes", 64, HashEmbedder().model_name)
    vectors = HashEmbedder().embed_documents(["x"] * len(amem_points()))
    store.upsert(
        "notes",
        [
            StoredPoint(pid, payload, vec.tolist())
            for (pid, payload), vec in zip(amem_points().items(), vectors, strict=True)
        ],
    )
    return engine


def lines_of(engine: MemoryEngine, collection: str, vectors: bool = False) -> list[str]:
    return [dump_line(r) for r in engine.export_lines(collection, vectors=vectors)]


@pytest.mark.qdrant_client_only
def test_export_lines_hold_ids_payloads_and_optional_vectors(store: QdrantStore) -> None:
    build_real_store(store.client)
    engine = make_engine(store, settings=real_settings())
    records = [json.loads(line) for line in lines_of(engine, AMEM_ALIAS)]
    assert {r["id"] for r in records} == set(amem_points())
    assert all(set(r) == {"id", "payload"} for r in records)
    by_id = {r["id"]: r["payload"] for r in records}
    assert by_id == amem_points()  # exactly as stored, malformed points included
    with_vectors = [json.loads(line) for line in lines_of(engine, AMEM_ALIAS, vectors=True)]
    assert all(len(r["vector"]) == 1024 and r["model"] == "Xenova/bge-m3" for r in with_vectors)


@pytest.mark.qdrant_client_only
@pytest.mark.parametrize("vectors", [False, True])
def test_export_then_import_into_an_empty_store_gives_back_the_same_notes(
    store: QdrantStore, tmp_path: Path, vectors: bool
) -> None:
    source = our_store(store)
    good = {k: v for k, v in amem_points().items() if k not in MALFORMED}
    lines = [
        line
        for line in lines_of(source, "notes", vectors=vectors)
        if json.loads(line)["id"] in good
    ]
    target_store = QdrantStore(path=str(tmp_path / "empty"))
    try:
        target = make_engine(target_store, settings=real_settings(collection="restored"))
        result = target.import_lines(lines, "restored", source="export.jsonl")
        assert result.complete and result.error is None and not result.rejected
        assert result.written == len(good)
        assert (result.vectors_kept, result.reembedded) == (
            (len(good), 0) if vectors else (0, len(good))
        )
        after = snapshot(target_store.client)["restored"]
        assert [(pid, payload) for pid, payload, _ in after] == sorted(
            (pid, json.dumps(p, sort_keys=True)) for pid, p in good.items()
        )
        if vectors:
            original = {pid: vec for pid, _, vec in snapshot(store.client)["notes"]}
            assert all(vec == pytest.approx(original[pid]) for pid, _, vec in after)
    finally:
        target_store.close()


def test_every_rejected_line_is_reported_and_nothing_is_written(store: QdrantStore) -> None:
    engine = make_engine(store, settings=real_settings(collection="target"))
    ok = {
        "id": nid(100),
        "payload": amem_payload("A perfectly good note", "main", "main", ["main"], ["main"]),
    }
    bad_lines = [
        "{not json",
        json.dumps([1, 2]),
        json.dumps({"payload": ok["payload"]}),
        json.dumps({"id": "not-a-uuid", "payload": ok["payload"]}),
        json.dumps(ok),  # a repeated id (line 5 repeats line 1's id)
        json.dumps({"id": nid(101), "payload": "text"}),
        json.dumps({"id": nid(102), "payload": {"data": "mem0 memory", "user_id": "alice"}}),
        json.dumps({"id": nid(103), "payload": {"content": "No agent id on this note"}}),
        json.dumps({"id": nid(104), "payload": {"agent_id": "main"}}),
        json.dumps(
            {"id": nid(105), "payload": {"content": "x" * 20, "agent_id": "main", "tags": "a"}}
        ),
        json.dumps({"id": nid(106), "payload": {"content": "x" * 20, "agent_id": "*"}}),
        json.dumps({"id": nid(107), "payload": ok["payload"], "vector": [1.0, "x"]}),
        json.dumps({"id": nid(108), "payload": dict(ok["payload"], retrieval_count=float("nan"))}),
    ]
    lines = [json.dumps(ok), *bad_lines[1:4], bad_lines[4], *bad_lines[5:], "", bad_lines[0]]
    result = engine.import_lines(lines, "target")
    numbers = [r.line for r in result.rejected]
    assert numbers == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15]
    reasons = {r.line: r.reason for r in result.rejected}
    assert "not a JSON object" in reasons[2]
    assert "UUID" in reasons[3] and "UUID" in reasons[4]
    assert "repeats" in reasons[5]
    assert "payload must be" in reasons[6]
    assert "mem0" in reasons[7]
    assert "agent_id" in reasons[8]
    assert "content" in reasons[9]
    assert "tags" in reasons[10]
    assert "reserved" in reasons[11]
    assert "vector" in reasons[12]
    assert "NaN" in reasons[13]
    assert "not valid JSON" in reasons[15]
    assert result.written == 0 and not result.complete
    assert store.collection_info("target") is None  # not even created


def test_skip_invalid_writes_the_valid_lines(store: QdrantStore) -> None:
    engine = make_engine(store, settings=real_settings(collection="target"))
    good = json.dumps(
        {
            "id": nid(1),
            "payload": amem_payload("Good note one here", "dev", "dev", ["dev"], ["dev"]),
        }
    )
    result = engine.import_lines([good, "nope"], "target", skip_invalid=True)
    assert result.written == 1 and [r.line for r in result.rejected] == [2]
    assert engine.agent("dev").get(nid(1)).content == "Good note one here"


def test_existing_ids_need_replace(store: QdrantStore) -> None:
    engine = make_engine(store, settings=real_settings(collection="target"))
    payload = amem_payload("First version of the note", "main", "main", ["main"], ["main"])
    line = json.dumps({"id": nid(1), "payload": payload})
    assert engine.import_lines([line], "target").written == 1
    again = engine.import_lines([line], "target")
    assert again.written == 0 and "already" in again.rejected[0].reason
    changed = dict(payload, content="Second version of the note")
    replaced = engine.import_lines(
        [json.dumps({"id": nid(1), "payload": changed})], "target", replace=True
    )
    assert replaced.written == 1
    assert engine.agent("main").get(nid(1)).content == "Second version of the note"


def test_vectors_of_another_model_are_re_embedded(store: QdrantStore) -> None:
    engine = make_engine(store, settings=real_settings(collection="target"))
    payload = amem_payload("A note with a foreign vector", "main", "main", ["main"], ["main"])
    lines = [
        json.dumps(
            {"id": nid(1), "payload": payload, "vector": [0.1] * 1024, "model": "Xenova/bge-m3"}
        ),
        json.dumps(
            {
                "id": nid(2),
                "payload": dict(payload, content="Same model, kept"),
                "vector": [0.0] * 63 + [1.0],
                "model": HashEmbedder().model_name,
            }
        ),
    ]
    result = engine.import_lines(lines, "target")
    assert (result.written, result.vectors_kept, result.reembedded) == (2, 1, 1)
    vectors = stored_vectors(engine, "target")
    assert vectors[nid(1)].shape == (64,)
    assert vectors[nid(2)][63] == pytest.approx(1.0)


VECTOR_REFUSED = "vector must be a list of finite numbers"


@pytest.mark.parametrize(
    ("vector", "refused"),
    [
        ([0] * 63 + [1], None),  # whole numbers are numbers
        ([0.0] * 63 + [True], VECTOR_REFUSED),  # a JSON true is no number
        ([0.0] * 63 + [None], VECTOR_REFUSED),
        ([[0.0]] * 64, VECTOR_REFUSED),
        ("0.0 1.0", VECTOR_REFUSED),
        ([0.0] * 63 + [float("nan")], "NaN is not a JSON value"),
        ([0.0] * 63 + [float("inf")], "Infinity is not a JSON value"),
    ],
)
def test_a_vector_is_kept_only_as_a_list_of_finite_numbers(
    store: QdrantStore, vector: object, refused: str | None
) -> None:
    engine = make_engine(store, settings=real_settings(collection="target"))
    payload = amem_payload("A note with its own vector", "main", "main", ["main"], ["main"])
    record = {"id": nid(1), "payload": payload, "vector": vector}
    line = json.dumps(record | {"model": HashEmbedder().model_name})
    result = engine.import_lines([line], "target")
    if refused is None:
        assert (result.written, result.vectors_kept) == (1, 1) and not result.rejected
        assert stored_vectors(engine, "target")[nid(1)][63] == pytest.approx(1.0)
    else:
        assert result.written == 0
        [rejected] = result.rejected
        assert refused in rejected.reason


@pytest.mark.qdrant_client_only
def test_import_refuses_read_only_mem0_and_foreign_model_targets(store: QdrantStore) -> None:
    build_real_store(store.client)
    line = json.dumps(
        {
            "id": nid(1),
            "payload": amem_payload("Some note to import", "main", "main", ["main"], ["main"]),
        }
    )
    before = snapshot(store.client)
    with pytest.raises(ReadOnlyStore):
        make_engine(store, settings=real_settings(read_only=True)).import_lines([line], "anything")
    with pytest.raises(ReadOnlyStore, match="mem0"):
        make_engine(store, settings=real_settings()).import_lines([line], MEM0)
    with pytest.raises(AmemError, match="bge-m3"):
        make_engine(store, settings=real_settings()).import_lines([line], AMEM_ALIAS)
    assert snapshot(store.client) == before
    assert AMEM_REAL in before


class FailingStore:
    """A store that fails on its second write of notes, to see what an import reports."""

    def __init__(self, inner: QdrantStore) -> None:
        self.inner = inner
        self.writes = 0

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def upsert(self, collection: str, points: Sequence[StoredPoint]) -> None:
        self.writes += collection == "target"  # the versions kept beside it do not count
        if self.writes == 2 and collection == "target":
            raise StoreUnavailable("writing failed: connection reset")
        self.inner.upsert(collection, points)


def test_a_failed_write_says_exactly_what_was_written(
    store: QdrantStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transfer, "IMPORT_BATCH", 2)
    failing = FailingStore(store)
    engine = make_engine(failing, settings=real_settings(collection="target"))  # type: ignore[arg-type]
    lines = [
        json.dumps(
            {
                "id": nid(i),
                "payload": amem_payload(
                    f"Note number {i} to import", "main", "main", ["main"], ["main"]
                ),
            }
        )
        for i in range(1, 6)
    ]
    result = engine.import_lines(lines, "target")
    assert result.written == 2 and result.written_ids == [nid(1), nid(2)]
    assert not result.complete
    assert result.error is not None and "after 2 of 5" in result.error
    assert store.count("target") == 2


def test_export_lines_never_break_inside_a_record(store: QdrantStore) -> None:
    engine = make_engine(store, settings=real_settings(collection="target"))
    content = "line\u2028separator\u2029and\nnewline \x1b[31m \x9b2J \u202e \U000e0041 é 漢"
    note = amem_payload(content, "main", "main", ["main"], ["main"])
    assert engine.import_lines([json.dumps({"id": nid(1), "payload": note})], "target").written
    (line,) = lines_of(engine, "target")
    assert len(line.splitlines()) == 1 and line.isprintable()
    assert json.loads(line)["payload"]["content"] == content
    again = make_engine(store, settings=real_settings(collection="copy"))
    assert again.import_lines([line], "copy").written == 1
    assert again.agent("main").get(nid(1)).content == content
