"""Seed 000's access-field combination table and consolidation scope rows."""

from __future__ import annotations

import pytest

from amem_tui.engine import scope as rules
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import InvalidInput, NotFound, PermissionDenied


def test_private_note_written_by_main(engine: MemoryEngine) -> None:
    note = engine.agent("main").add("Vendor account for the cloud bill is under ACME")
    assert (note.owner, note.readers, note.writers, note.agent_id) == (
        "main",
        ["main"],
        ["main"],
        "main",
    )
    assert engine.agent("main").get(note.id).id == note.id
    with pytest.raises(NotFound):
        engine.agent("dev").get(note.id)
    assert note.id not in {
        h.note.id for h in engine.agent("dev").search("vendor account ACME").hits
    }


def test_private_note_written_by_dev(engine: MemoryEngine) -> None:
    note = engine.agent("dev").add("Debugging auth middleware with JWT expiry")
    assert (note.owner, note.readers, note.writers, note.agent_id) == (
        "dev",
        ["dev"],
        ["dev"],
        "dev",
    )
    with pytest.raises(NotFound):
        engine.agent("main").get(note.id)


@pytest.mark.parametrize("writer, other", [("main", "dev"), ("dev", "main")])
def test_shared_note_readable_by_all_writable_by_owner(
    engine: MemoryEngine, writer: str, other: str
) -> None:
    note = engine.agent(writer).add("All API endpoints use snake_case JSON keys", shared=True)
    assert (note.owner, note.readers, note.writers, note.agent_id) == (
        writer,
        ["*"],
        [writer],
        "shared",
    )
    assert engine.agent(other).get(note.id).content == note.content
    assert note.id in {
        h.note.id for h in engine.agent(other).search("API endpoints snake_case").hits
    }
    with pytest.raises(PermissionDenied) as denied:
        engine.agent(other).update(note.id, content="All API endpoints use camelCase now")
    assert other in str(denied.value) and note.id in str(denied.value)
    assert engine.agent(writer).get(note.id).content == "All API endpoints use snake_case JSON keys"


def test_selective_readers_read_by_id_only(engine: MemoryEngine) -> None:
    note = engine.agent("main").add("Staging credentials rotate every Monday")
    engine.put_notes("amem_notes", [note.model_copy(update={"readers": ["main", "dev"]})])
    assert engine.agent("dev").get(note.id).id == note.id  # openclaw-amem's getNote: canRead
    result = engine.agent("dev").search("staging credentials Monday", hidden=True)
    assert note.id not in {h.note.id for h in result.hits}  # its search: the agent filter
    assert [h.kind for h in result.hidden if h.id == note.id] == ["get_only"]
    assert [n.id for n in engine.agent("dev").list_notes("get_only").notes] == [note.id]
    dev = engine.agent("dev")
    assert dev.count("visible") == dev.count("private") + dev.count("shared")


def test_mode_b_has_no_shared_scope(engine: MemoryEngine) -> None:
    shared = engine.agent("main").add("Production deploy is frozen until Friday", shared=True)
    own = engine.agent("sandbox").add("Sandbox may only use read-only tools")
    assert engine.scope("sandbox").mode == "B"
    with pytest.raises(NotFound):
        engine.agent("sandbox").get(shared.id)
    assert {h.note.id for h in engine.agent("sandbox").search("deploy frozen tools").hits} == {
        own.id
    }
    with pytest.raises(InvalidInput):
        engine.agent("sandbox").add("Something to share from the sandbox", shared=True)
    with pytest.raises(NotFound):
        engine.agent("main").get(own.id)


@pytest.mark.parametrize("name", ["shared", "*", "", "has space", "a:b"])
def test_reserved_and_invalid_agent_ids(engine: MemoryEngine, name: str) -> None:
    with pytest.raises(InvalidInput):
        engine.agent(name).add("Some perfectly fine note content")


def test_consolidation_scope_rows(engine: MemoryEngine) -> None:
    """Private: yes. Shared: no. Other agent's private: no. Knowledge: no."""
    main = engine.scope("main")
    own = engine.agent("main").add("User prefers bullet points in summaries")
    shared = engine.agent("main").add("Team convention: snake_case everywhere", shared=True)
    other = engine.agent("dev").add("Dev prefers verbose logs in CI")
    knowledge = engine.agent("main").add(
        "Postgres pool size defaults to twenty", note_type="knowledge"
    )
    selected = {
        n.id for n in (own, shared, other, knowledge) if rules.is_consolidation_candidate(main, n)
    }
    assert selected == {own.id}
    flt = rules.consolidation_filter(main)
    assert {n.id for n in (own, shared, other, knowledge) if rules.matches(flt, n)} == {own.id}
