"""The hostile-input corpus at the engine level: stored literally, or refused with the
store unchanged. Never any other exception."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from amem_tui.engine.embed import FastEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import InvalidInput, NotFound
from amem_tui.engine.models import content_hash
from amem_tui.engine.store.base import StoredPoint
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.hostile_corpus import BAD_AGENT_IDS, ONE_MB, REJECTED, STORED, readers_list


def store_state(engine: MemoryEngine) -> dict[str, list[tuple[str, str]]]:
    """Every point of every collection, as comparable text."""
    state: dict[str, list[tuple[str, str]]] = {}
    for name in engine.store.list_collections():
        points = engine.store.scroll(name, None, limit=100_000)
        state[name] = sorted(
            (p.id, json.dumps(p.payload, sort_keys=True, ensure_ascii=True)) for p in points
        )
    return state


@pytest.fixture
def seeded(engine: MemoryEngine) -> MemoryEngine:
    """An engine with a few ordinary notes, so 'unchanged' means something."""
    engine.agent("main").add("Ordinary private note about the deploy window")
    engine.agent("dev").add("Ordinary shared note: all endpoints use snake_case", shared=True)
    engine.agent("sandbox").add("Ordinary Mode B note kept in its own collection")
    return engine


@pytest.mark.parametrize("case", sorted(STORED))
def test_stored_content_reads_back_literally(seeded: MemoryEngine, case: str) -> None:
    text = STORED[case]
    note = seeded.agent("main").add(text)
    assert seeded.agent("main").get(note.id).content == text
    raw = seeded.store.retrieve("amem_notes", [note.id])[0].payload
    assert raw["content"] == text
    assert raw["hash"] == content_hash(text)
    listed = seeded.agent("main").list_notes("private", limit=10).notes
    assert [n.content for n in listed if n.id == note.id] == [text]
    # The same text again is the same note (exact dedup on the literal bytes).
    assert seeded.agent("main").add(text).id == note.id


@pytest.mark.parametrize("case", ["rich-link", "osc-hyperlink", "bidi-override", "nul-bytes"])
def test_shared_hostile_note_reads_back_literally_for_others(
    seeded: MemoryEngine, case: str
) -> None:
    text = STORED[case]
    note = seeded.agent("main").add(text, shared=True)
    seen = seeded.agent("dev").get(note.id)
    assert (seen.content, seen.owner, seen.agent_id) == (text, "main", "shared")
    with pytest.raises(NotFound):
        seeded.agent("sandbox").get(note.id)


@pytest.mark.parametrize("case", ["ansi-sgr", "c0-controls", "emoji", "huge-1mb"])
def test_update_to_hostile_content_reads_back_literally(seeded: MemoryEngine, case: str) -> None:
    note = seeded.agent("main").add("A note that will be rewritten with hostile text")
    updated = seeded.agent("main").update(note.id, content=STORED[case], tags=["[/]", "\x1b[0m"])
    again = seeded.agent("main").get(note.id)
    assert again.content == STORED[case] == updated.content
    assert again.tags == ["[/]", "\x1b[0m"]
    assert again.evolution_history[-1].oldContent == note.content


@pytest.mark.parametrize("case", sorted(REJECTED))
def test_rejected_content_changes_nothing(seeded: MemoryEngine, case: str) -> None:
    note = seeded.agent("main").list_notes("private").notes[0]
    before = store_state(seeded)
    with pytest.raises(InvalidInput):
        seeded.agent("main").add(REJECTED[case])
    with pytest.raises(InvalidInput):
        seeded.agent("main").add(REJECTED[case], shared=True)
    with pytest.raises(InvalidInput):
        seeded.agent("main").update(note.id, content=REJECTED[case])
    assert store_state(seeded) == before


@pytest.mark.parametrize(
    "fields",
    [
        {"tags": "not-a-list"},
        {"tags": [1, 2]},
        {"tags": ["bad \udcff tag"]},
        {"keywords": [None]},
        {"context": 42},
        {"context": "bad \ud800"},
        {"category": ["x"]},
        {"note_type": "secret"},
        {"links": "abc"},
    ],
)
def test_wrong_field_types_are_refused(seeded: MemoryEngine, fields: dict[str, Any]) -> None:
    before = store_state(seeded)
    with pytest.raises(InvalidInput):
        seeded.agent("main").add("Perfectly ordinary content for a note", **fields)
    assert store_state(seeded) == before


@pytest.mark.parametrize("content", [None, 42, b"bytes content here", ["a list"]])
def test_content_of_the_wrong_type_is_refused(seeded: MemoryEngine, content: Any) -> None:
    before = store_state(seeded)
    with pytest.raises(InvalidInput):
        seeded.agent("main").add(content)
    assert store_state(seeded) == before


@pytest.mark.parametrize("case", sorted(BAD_AGENT_IDS))
def test_bad_agent_ids_are_refused_everywhere(seeded: MemoryEngine, case: str) -> None:
    bad = BAD_AGENT_IDS[case]
    note = seeded.agent("main").list_notes("private").notes[0]
    before = store_state(seeded)
    calls = [
        lambda: seeded.agent(bad).add("Content written by a bad agent id"),
        lambda: seeded.agent(bad).add("Shared content written by a bad agent id", shared=True),
        lambda: seeded.agent(bad).get(note.id),
        lambda: seeded.agent(bad).list_notes("visible"),
        lambda: seeded.agent(bad).search("deploy window"),
        lambda: seeded.agent(bad).update(note.id, content="Overwritten by a bad agent id"),
        lambda: seeded.agent(bad).delete(note.id),
        lambda: seeded.agent(bad).publish(note.id),
    ]
    if bad.startswith("agent:"):  # an agent id is never read as a session key, but a key is
        assert seeded.agent(session_key=bad).search("deploy window").agent == "main"
    for call in calls:
        with pytest.raises(InvalidInput):
            call()
    assert store_state(seeded) == before


def test_agent_id_with_a_trailing_newline_is_not_main(seeded: MemoryEngine) -> None:
    note = seeded.agent("main").list_notes("private").notes[0]
    with pytest.raises(InvalidInput):
        seeded.agent("main\n").get(note.id)


def test_huge_readers_list(seeded: MemoryEngine) -> None:
    readers = readers_list()
    note = seeded.agent("main").add("Staging credentials rotate every Monday morning")
    seeded.put_notes("amem_notes", [note.model_copy(update={"readers": ["main", *readers]})])
    assert seeded.agent("dev").get(note.id).readers == ["main", *readers]
    result = seeded.agent("dev").search("staging credentials rotate Monday", hidden=True)
    assert note.id not in {h.note.id for h in result.hits}  # read by id only
    assert [h.kind for h in result.hidden if h.id == note.id] == ["get_only"]
    # Being a reader never makes an agent a writer.
    with pytest.raises(Exception, match="PERMISSION_DENIED"):
        seeded.agent("dev").update(note.id, content="dev rewrote the credentials note")
    seeded.agent("main").update(note.id, tags=["rotated"])
    assert seeded.agent("main").get(note.id).readers == ["main", *readers]


HOSTILE_PAYLOADS: dict[str, dict[str, Any]] = {
    "content-number": {"content": 12345, "agent_id": "main"},
    "content-missing": {"agent_id": "main"},
    "tags-string": {"content": "tags are a string here", "agent_id": "main", "tags": "x"},
    "history-garbage": {
        "content": "history is not JSON at all",
        "agent_id": "main",
        "evolution_history": "{not json",
    },
    "readers-string": {"content": "readers is a string", "agent_id": "other", "readers": "dev"},
    "agent-id-list": {"content": "agent id is a list", "agent_id": ["main"]},
    "agent-id-escape": {"content": "agent id with escapes", "agent_id": "\x1b[31mmain"},
    "owner-number": {"content": "owner is a number", "agent_id": "main", "owner": 7},
}


@pytest.mark.parametrize("case", sorted(HOSTILE_PAYLOADS))
def test_hostile_payloads_in_the_store_never_crash_or_leak(seeded: MemoryEngine, case: str) -> None:
    """Points written by something else, with wrong types, are read without failing."""
    point_id = "00000000-0000-0000-0000-00000000beef"
    vector = seeded.embedder.embed_documents(["readers string tags history"])[0].tolist()
    seeded.store.upsert("amem_notes", [StoredPoint(point_id, HOSTILE_PAYLOADS[case], vector)])
    for agent in ("main", "dev"):
        listed = {n.id for n in seeded.agent(agent).list_notes("visible", limit=100).notes}
        found = {h.note.id for h in seeded.agent(agent).search("readers string tags history").hits}
        try:
            seeded.agent(agent).get(point_id)
            readable = True
        except NotFound:
            readable = False
        if agent == "dev":  # never dev's own, never shared: dev must not see it
            assert point_id not in found
            assert not readable
        assert found <= listed | {point_id}


@pytest.mark.slow
def test_real_model_stores_and_finds_hostile_content(
    fastembed_embedder: FastEmbedder, tmp_path: Path
) -> None:
    with make_engine(
        QdrantStore(path=str(tmp_path / "store")), embedder=fastembed_embedder
    ) as engine:
        big = engine.agent("main").add(ONE_MB)
        nul = engine.agent("main").add(STORED["nul-bytes"])
        esc = engine.agent("main").add(STORED["ansi-sgr"])
        assert engine.agent("main").get(big.id).content == ONE_MB
        assert engine.agent("main").get(nul.id).content == STORED["nul-bytes"]
        assert engine.agent("main").get(esc.id).content == STORED["ansi-sgr"]
        hits = engine.agent("main").search("quarterly deploy freeze window notes").hits
        assert hits[0].note.id == big.id
        assert big.id not in {h.note.id for h in engine.agent("dev").search("deploy freeze").hits}
