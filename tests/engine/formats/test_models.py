"""Reading openclaw-amem payloads and writing them back changes nothing."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.models import MemoryNote, content_hash, parse_evolution_history
from amem_tui.engine.store.base import StoredPoint

NOTE_ID = "7d4f8f0e-3b7a-4e57-9c43-2b1f6f0a9c11"


def openclaw_payload(**changes: Any) -> dict[str, Any]:
    """A payload shaped exactly as openclaw-amem's storage writes one today."""
    content = "Production deploy is frozen until 2026-06-20 for the audit"
    payload: dict[str, Any] = {
        "content": content,
        "keywords": ["deploy", "freeze", "audit"],
        "tags": ["deploy", "ops"],
        "context": "Release process",
        "links": ["0b8f1c2a-5d3e-4f60-8a71-9c2d3e4f5a6b"],
        "timestamp": "2026-05-30T08:12:44.120Z",
        "last_accessed": "2026-06-01T17:03:09.004Z",
        "agent_id": "shared",
        "hash": content_hash(content),
        "retrieval_count": 7,
        # A JSON string with spaces after separators: must come back byte for byte.
        "evolution_history": json.dumps(
            [
                {
                    "triggeredBy": "0b8f1c2a-5d3e-4f60-8a71-9c2d3e4f5a6b",
                    "triggeredAt": "2026-05-31T02:30:00.000Z",
                    "oldContext": "Deploys",
                    "newContext": "Release process",
                    "oldTags": ["deploy"],
                    "newTags": ["deploy", "ops"],
                    "action": "strengthen",
                    "suggestedConnections": ["x"],
                    "tagsUpdated": True,
                }
            ]
        ),
        "category": "Project",
        "note_type": "memory",
        "topics": [],
        "pending_merge": False,
        "evolution_type": "EVOLVE",
        "conflict": False,
        "conflicts_with": [],
        "conflict_reason": "",
        "conflict_scanned_at": "",
        "subjects": [],
        "ephemeral": True,
        "low_quality": False,
        "is_active": True,
        "owner": "main",
        "readers": ["*"],
        "writers": ["main"],
    }
    payload.update(changes)
    return payload


def legacy_payload() -> dict[str, Any]:
    """An old note: list history, no is_active, no owner/readers/writers, unknown keys."""
    payload = openclaw_payload(
        agent_id="dev",
        evolution_history=[
            {"triggeredBy": "a", "triggeredAt": "2025-01-02T03:04:05Z", "action": "update_neighbor"}
        ],
        importance=0.8,  # a key from some other tool
        source={"kind": "chat", "turn": 12},
    )
    for key in ("is_active", "owner", "readers", "writers", "pending_merge", "low_quality"):
        del payload[key]
    return payload


PAYLOADS = {
    "current": openclaw_payload(),
    "legacy": legacy_payload(),
    "empty-history": openclaw_payload(evolution_history=""),
    "compact-history": openclaw_payload(evolution_history='[{"action":"consolidate"}]'),
    "knowledge": openclaw_payload(note_type="knowledge", topics=["postgres"], agent_id="main"),
    "wrong-types": openclaw_payload(
        is_active="false", retrieval_count="3", pending_merge=1, note_type="Memory", tags="ops"
    ),
    "bad-history": openclaw_payload(evolution_history="{not json"),
    "minimal": {"content": "Just some content here", "agent_id": "main"},
}


@pytest.mark.parametrize("name", sorted(PAYLOADS))
def test_round_trip_is_identity(name: str) -> None:
    original = PAYLOADS[name]
    kept = copy.deepcopy(original)
    note = MemoryNote.from_payload(NOTE_ID, original)
    assert note.to_payload() == kept
    # Key for key, including the exact type of each value (1 is not True, "3" is not 3).
    assert {k: type(v) for k, v in note.to_payload().items()} == {
        k: type(v) for k, v in kept.items()
    }
    assert original == kept, "reading must not mutate the caller's payload"


def test_history_json_string_and_list_read_alike() -> None:
    entries = [{"triggeredBy": "n1", "triggeredAt": "2026-01-01T00:00:00Z", "action": "strengthen"}]
    as_string = MemoryNote.from_payload(NOTE_ID, {"evolution_history": json.dumps(entries)})
    as_list = MemoryNote.from_payload(NOTE_ID, {"evolution_history": entries})
    assert [e.action for e in as_string.evolution_history] == ["strengthen"]
    assert [e.to_dict() for e in as_string.evolution_history] == [
        e.to_dict() for e in as_list.evolution_history
    ]
    assert parse_evolution_history("") == []
    assert parse_evolution_history(None) == []


def test_changed_history_is_written_as_a_json_string() -> None:
    note = MemoryNote.from_payload(NOTE_ID, legacy_payload())
    assert isinstance(note.to_payload()["evolution_history"], list)  # untouched: as read
    note.evolution_history = [*note.evolution_history, {"action": "crud_update"}]
    written = note.to_payload()["evolution_history"]
    assert isinstance(written, str)
    assert [e["action"] for e in json.loads(written)] == ["update_neighbor", "crud_update"]
    # The unknown keys of an entry survive a rewrite.
    note = MemoryNote.from_payload(NOTE_ID, openclaw_payload())
    note.evolution_history = [*note.evolution_history, {"action": "crud_update"}]
    first = json.loads(note.to_payload()["evolution_history"])[0]
    assert first["tagsUpdated"] is True and first["suggestedConnections"] == ["x"]


def test_absent_is_active_means_active_and_stays_absent() -> None:
    note = MemoryNote.from_payload(NOTE_ID, legacy_payload())
    assert note.active is True
    assert note.is_active is None
    assert "is_active" not in note.to_payload()
    assert MemoryNote.from_payload(NOTE_ID, openclaw_payload(is_active=False)).active is False


def test_legacy_access_fields_are_derived_not_written() -> None:
    note = MemoryNote.from_payload(NOTE_ID, legacy_payload())
    assert note.legacy
    assert (note.effective_owner, note.effective_readers, note.effective_writers) == (
        "dev",
        ["dev"],
        ["dev"],
    )
    payload = note.to_payload()
    assert not {"owner", "readers", "writers"} & set(payload)
    shared = MemoryNote.from_payload(
        NOTE_ID, {"content": "A legacy shared note here", "agent_id": "shared"}
    )
    assert shared.effective_readers == ["*"]
    assert shared.effective_owner is None and shared.effective_writers == []


def test_wrong_types_are_kept_verbatim_and_reported() -> None:
    note = MemoryNote.from_payload(NOTE_ID, PAYLOADS["wrong-types"])
    problems = " ".join(note.problems)
    for field in ("is_active", "retrieval_count", "pending_merge", "note_type", "tags"):
        assert field in problems
    # A string "false" is not a soft delete: Qdrant's is_active == false filter ignores it too.
    assert note.active is True
    assert note.malformed


def test_unknown_keys_survive_a_modification() -> None:
    note = MemoryNote.from_payload(NOTE_ID, legacy_payload())
    note.content = "Production deploy is frozen until July"
    payload = note.to_payload()
    assert payload["importance"] == 0.8
    assert payload["source"] == {"kind": "chat", "turn": 12}
    assert payload["content"] == "Production deploy is frozen until July"


@pytest.mark.parametrize("name", ["current", "legacy", "wrong-types", "minimal"])
def test_store_round_trip_through_the_engine(engine: MemoryEngine, name: str) -> None:
    """A payload stored by another system, read and written back by the engine, is unchanged."""
    payload = copy.deepcopy(PAYLOADS[name])
    payload["agent_id"] = "main"  # a malformed note is readable only by the agent it names
    engine.put_notes("amem_notes", [MemoryNote(id=NOTE_ID, content="placeholder content")])
    engine.store.upsert(
        "amem_notes", [StoredPoint(NOTE_ID, copy.deepcopy(payload), [0.1] * engine.embedder.dim)]
    )
    note = engine.agent("main").get(NOTE_ID)
    engine.put_notes("amem_notes", [note], vectors=[[0.1] * engine.embedder.dim])
    [stored] = engine.store.retrieve("amem_notes", [NOTE_ID])
    assert stored.payload == payload
    # Reading (get, list, search) never bumps retrieval_count or last_accessed.
    engine.agent("main").list_notes()
    engine.agent("main").search("deploy freeze audit")
    [again] = engine.store.retrieve("amem_notes", [NOTE_ID])
    assert again.payload == payload
