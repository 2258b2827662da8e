"""Seed 000's access-field combination table and consolidation scope rows."""

from __future__ import annotations

import pytest

from amem_tui.engine import scope as rules
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import InvalidInput, NotFound, PermissionDenied


def test_private_note_written_by_main(engine: MemoryEngine) -> None:
    note = engine.add("main", "Vendor account for the cloud bill is under ACME")
    assert (note.owner, note.readers, note.writers, note.agent_id) == (
        "main",
        ["main"],
        ["main"],
        "main",
    )
    assert engine.get("main", note.id).id == note.id
    with pytest.raises(NotFound):
        engine.get("dev", note.id)
    assert note.id not in {h.note.id for h in engine.search("dev", "vendor account ACME").hits}


def test_private_note_written_by_dev(engine: MemoryEngine) -> None:
    note = engine.add("dev", "Debugging auth middleware with JWT expiry")
    assert (note.owner, note.readers, note.writers, note.agent_id) == (
        "dev",
        ["dev"],
        ["dev"],
        "dev",
    )
    with pytest.raises(NotFound):
        engine.get("main", note.id)


@pytest.mark.parametrize("writer, other", [("main", "dev"), ("dev", "main")])
def test_shared_note_readable_by_all_writable_by_owner(
    engine: MemoryEngine, writer: str, other: str
) -> None:
    note = engine.add_shared(writer, "All API endpoints use snake_case JSON keys")
    assert (note.owner, note.readers, note.writers, note.agent_id) == (
        writer,
        ["*"],
        [writer],
        "shared",
    )
    assert engine.get(other, note.id).content == note.content
    assert note.id in {h.note.id for h in engine.search(other, "API endpoints snake_case").hits}
    with pytest.raises(PermissionDenied) as denied:
        engine.update(other, note.id, content="All API endpoints use camelCase now")
    assert other in str(denied.value) and note.id in str(denied.value)
    assert engine.get(writer, note.id).content == "All API endpoints use snake_case JSON keys"


def test_selective_readers(engine: MemoryEngine) -> None:
    note = engine.add("main", "Staging credentials rotate every Monday")
    engine.put_notes("amem_notes", [note.model_copy(update={"readers": ["main", "dev"]})])
    assert engine.get("dev", note.id).id == note.id
    hits = engine.search("dev", "staging credentials Monday").hits
    assert [h.because for h in hits if h.note.id == note.id] == ["reader"]


def test_mode_b_has_no_shared_scope(engine: MemoryEngine) -> None:
    shared = engine.add_shared("main", "Production deploy is frozen until Friday")
    own = engine.add("sandbox", "Sandbox may only use read-only tools")
    assert engine.scope("sandbox").mode == "B"
    with pytest.raises(NotFound):
        engine.get("sandbox", shared.id)
    assert {h.note.id for h in engine.search("sandbox", "deploy frozen tools").hits} == {own.id}
    with pytest.raises(InvalidInput):
        engine.add_shared("sandbox", "Something to share from the sandbox")
    with pytest.raises(NotFound):
        engine.get("main", own.id)


@pytest.mark.parametrize("name", ["shared", "*", "", "has space", "a:b"])
def test_reserved_and_invalid_agent_ids(engine: MemoryEngine, name: str) -> None:
    with pytest.raises(InvalidInput):
        engine.add(name, "Some perfectly fine note content")


def test_consolidation_scope_rows(engine: MemoryEngine) -> None:
    """Private: yes. Shared: no. Other agent's private: no. Knowledge: no."""
    main = engine.scope("main")
    own = engine.add("main", "User prefers bullet points in summaries")
    shared = engine.add_shared("main", "Team convention: snake_case everywhere")
    other = engine.add("dev", "Dev prefers verbose logs in CI")
    knowledge = engine.add("main", "Postgres pool size defaults to twenty", note_type="knowledge")
    selected = {
        n.id for n in (own, shared, other, knowledge) if rules.is_consolidation_candidate(main, n)
    }
    assert selected == {own.id}
    flt = rules.consolidation_filter(main)
    assert {n.id for n in (own, shared, other, knowledge) if rules.matches(flt, n)} == {own.id}
