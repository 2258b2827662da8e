"""The engine's write operations under the scope contract (qdrant-client :memory: and path)."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import InvalidInput, NotFound, PermissionDenied, ReadOnlyStore
from amem_tui.engine.models import MemoryNote, content_hash
from tests.support.engines import stored_vectors


def payloads(engine: MemoryEngine) -> dict[str, dict[str, Any]]:
    """Every stored payload of every collection, by note id (what 'nothing changed' means)."""
    out: dict[str, dict[str, Any]] = {}
    for collection in engine.store.list_collections():
        for point in engine.store.scroll(collection, None, limit=10_000):
            out[f"{collection}/{point.id}"] = point.payload
    return out


# ------------------------------------------------------------------- add
@pytest.mark.parametrize("content", ["", "   ", "too short", "  123456789  ", "\n\t short \n"])
def test_quality_gate_rejects_under_ten_trimmed_characters(
    engine: MemoryEngine, content: str
) -> None:
    with pytest.raises(InvalidInput, match="quality gate") as err:
        engine.agent("main").add(content)
    assert err.value.exit_code == 2
    assert payloads(engine) == {}


def test_quality_gate_counts_trimmed_characters(engine: MemoryEngine) -> None:
    note = engine.agent("main").add("  1234567890  ")
    assert note.content == "  1234567890  "  # stored as given
    assert note.hash == content_hash("  1234567890  ")


@pytest.mark.parametrize(
    "content, ephemeral",
    [
        ("Currently debugging auth middleware with JWT", True),
        ("Production deploy is frozen until Friday", True),
        ("The standup moved to 10am tomorrow", True),
        ("All API endpoints use snake_case JSON keys", False),
        ("Postgres pool size defaults to twenty connections", False),
    ],
)
def test_time_bound_wording_is_flagged_ephemeral(
    engine: MemoryEngine, content: str, ephemeral: bool
) -> None:
    note = engine.agent("main").add(content)
    assert note.ephemeral is ephemeral
    [stored] = engine.store.retrieve("amem_notes", [note.id])
    assert stored.payload["ephemeral"] is ephemeral


def test_new_note_payload_has_every_openclaw_field(engine: MemoryEngine) -> None:
    note = engine.agent("dev").add("The repository uses ruff for linting", tags=["tooling"])
    [stored] = engine.store.retrieve("amem_notes", [note.id])
    payload = stored.payload
    fields = (
        "content keywords tags context links timestamp last_accessed agent_id hash "
        "retrieval_count evolution_history category note_type topics pending_merge "
        "evolution_type conflict conflicts_with conflict_reason conflict_scanned_at subjects "
        "ephemeral low_quality is_active owner readers writers"
    )
    missing = [name for name in fields.split() if name not in payload]
    assert missing == []
    assert isinstance(payload["evolution_history"], str)
    assert json.loads(payload["evolution_history"]) == []
    assert payload["hash"] == content_hash("The repository uses ruff for linting")
    assert (payload["retrieval_count"], payload["is_active"]) == (0, True)
    assert payload["timestamp"] == "2026-11-20T09:00:00.000Z"  # the injected clock


def test_identical_content_returns_the_existing_note(engine: MemoryEngine) -> None:
    first = engine.agent("main").add("User prefers three bullet points")
    before = payloads(engine)
    again = engine.agent("main").add("User prefers three bullet points", tags=["other"])
    assert again.id == first.id
    assert payloads(engine) == before
    # Dedup never crosses scopes: another agent, or the shared scope, gets its own note.
    other = engine.agent("dev").add("User prefers three bullet points")
    shared = engine.agent("main").add("User prefers three bullet points", shared=True)
    assert len({first.id, other.id, shared.id}) == 3
    assert engine.agent("dev").add("User prefers three bullet points", shared=True).id == shared.id
    # A soft-deleted note is not a duplicate: the content can be written again.
    engine.agent("main").delete(first.id)
    assert engine.agent("main").add("User prefers three bullet points").id != first.id


def test_add_shared_and_mode_b(engine: MemoryEngine) -> None:
    note = engine.agent("dev").add("On-call handoff happens on Fridays", shared=True)
    assert (note.agent_id, note.owner, note.readers, note.writers) == (
        "shared",
        "dev",
        ["*"],
        ["dev"],
    )
    with pytest.raises(InvalidInput, match="Mode B"):
        engine.agent("sandbox").add("Sandbox cannot write shared notes", shared=True)
    own = engine.agent("sandbox").add("Sandbox experiment seven was blocked")
    [stored] = engine.store.retrieve("amem_notes_sandbox", [own.id])
    assert stored.payload["agent_id"] == "sandbox"
    assert engine.store.retrieve("amem_notes", [own.id]) == []


# ------------------------------------------------------------- publish
def test_publish_in_place(engine: MemoryEngine) -> None:
    note = engine.agent("main").add("All API endpoints use snake_case JSON keys")
    published = engine.agent("main").publish(note.id)
    assert published.id == note.id
    [stored] = engine.store.retrieve("amem_notes", [note.id])
    p = stored.payload
    assert (p["agent_id"], p["owner"], p["readers"], p["writers"]) == (
        "shared",
        "main",
        ["*"],
        ["main"],
    )
    history = json.loads(p["evolution_history"])
    assert [e["action"] for e in history] == ["publish"]
    assert history[0]["triggeredBy"] == "main"
    assert p["content"] == note.content and p["hash"] == note.hash
    assert engine.agent("main").count("private") == 0 and engine.agent("dev").count("shared") == 1
    assert engine.agent("dev").get(note.id).content == note.content


def test_publish_is_the_owners_decision(engine: MemoryEngine) -> None:
    note = engine.agent("main").add("Staging credentials rotate every Monday")
    with pytest.raises(NotFound) as hidden:  # dev cannot even see it
        engine.agent("dev").publish(note.id)
    assert (hidden.value.kind, hidden.value.facts()) == (
        "not_found",
        {"agent": "dev", "note_id": note.id},
    )
    # Even a reader and writer who is not the owner may not publish.
    selective = note.model_copy(update={"readers": ["main", "dev"], "writers": ["main", "dev"]})
    engine.put_notes("amem_notes", [selective])
    before = payloads(engine)
    with pytest.raises(PermissionDenied) as denied:
        engine.agent("dev").publish(note.id)
    assert "'dev'" in str(denied.value) and note.id in str(denied.value)
    # What a program reads of the refusal: its kind, and who may not do what to which note.
    facts = denied.value.facts()
    assert denied.value.kind == "permission_denied" and list(facts) == [
        "agent",
        "note_id",
        "action",
        "rule",
    ]
    assert (facts["agent"], facts["note_id"], facts["action"]) == ("dev", note.id, "publish")
    assert payloads(engine) == before
    engine.agent("main").publish(note.id)
    with pytest.raises(InvalidInput, match="already shared"):
        engine.agent("main").publish(note.id)


def test_mode_b_cannot_publish(engine: MemoryEngine) -> None:
    note = engine.agent("sandbox").add("Sandbox may only use the calculator tool")
    before = payloads(engine)
    with pytest.raises(InvalidInput, match="Mode B"):
        engine.agent("sandbox").publish(note.id)
    assert payloads(engine) == before


def test_unpublish_is_owner_only(engine: MemoryEngine) -> None:
    note = engine.agent("main").add("Production deploy is frozen until Friday", shared=True)
    generous = note.model_copy(update={"writers": ["main", "dev"]})
    engine.put_notes("amem_notes", [generous])
    before = payloads(engine)
    with pytest.raises(PermissionDenied) as denied:
        engine.agent("dev").unpublish(note.id)  # a writer, but not the owner
    assert "'dev'" in str(denied.value) and note.id in str(denied.value)
    assert payloads(engine) == before
    back = engine.agent("main").unpublish(note.id)
    assert (back.agent_id, back.owner, back.readers, back.writers) == (
        "main",
        "main",
        ["main"],
        ["main"],
    )
    with pytest.raises(NotFound):
        engine.agent("dev").get(note.id)
    with pytest.raises(InvalidInput, match="not shared"):
        engine.agent("main").unpublish(note.id)
    actions = [e.action for e in engine.agent("main").get(note.id).evolution_history]
    assert actions == ["unpublish"]


# ------------------------------------------------- update, delete, restore
def test_update_content_and_tags_by_the_owner(engine: MemoryEngine) -> None:
    note = engine.agent("main").add("Flight to Lisbon is booked for December 14", tags=["travel"])
    vector_before = stored_vectors(engine, "amem_notes")[note.id]
    updated = engine.agent("main").update(note.id, content="Flight to Lisbon moved to December 15")
    assert updated.content == "Flight to Lisbon moved to December 15"
    assert updated.hash == content_hash(updated.content)
    assert updated.owner == "main" and updated.tags == ["travel"]
    vector_after = stored_vectors(engine, "amem_notes")[note.id]
    assert (vector_before != vector_after).any(), "new content is re-embedded"
    entry = updated.evolution_history[-1]
    assert entry.action == "crud_update"
    assert entry.oldContent == "Flight to Lisbon is booked for December 14"
    retagged = engine.agent("main").update(note.id, tags=["travel", "offsite"])
    assert retagged.tags == ["travel", "offsite"]
    assert retagged.content == updated.content
    with pytest.raises(InvalidInput, match="nothing to update"):
        engine.agent("main").update(note.id)
    with pytest.raises(InvalidInput, match="quality gate"):
        engine.agent("main").update(note.id, content=" short ")


@pytest.mark.parametrize("action", ["update", "delete", "restore"])
def test_write_rule_denies_and_changes_nothing(engine: MemoryEngine, action: str) -> None:
    shared = engine.agent("main").add("All API endpoints use snake_case JSON keys", shared=True)
    if action == "restore":
        engine.agent("main").delete(shared.id)
    before = payloads(engine)
    call = {
        "update": lambda: engine.agent("dev").update(
            shared.id, content="All endpoints use camelCase"
        ),
        "delete": lambda: engine.agent("dev").delete(shared.id),
        "restore": lambda: engine.agent("dev").restore(shared.id),
    }[action]
    with pytest.raises(PermissionDenied) as denied:
        call()
    message = str(denied.value)
    assert message.startswith("PERMISSION_DENIED")
    assert "'dev'" in message and shared.id in message
    assert (denied.value.agent, denied.value.note_id) == ("dev", shared.id)
    assert payloads(engine) == before


def test_writers_list_and_star_grant_writes(engine: MemoryEngine) -> None:
    note = engine.agent("main").add("Feature branches are squash-merged", shared=True)
    engine.put_notes("amem_notes", [note.model_copy(update={"writers": ["main", "dev"]})])
    assert engine.agent("dev").update(note.id, tags=["git"]).owner == "main"
    engine.put_notes("amem_notes", [note.model_copy(update={"writers": ["*"]})])
    assert engine.agent("qa").delete(note.id).is_active is False
    assert engine.agent("qa").restore(note.id).is_active is True
    assert engine.agent("main").get(note.id).owner == "main"  # owner never changes


def test_other_agents_private_notes_are_not_found(engine: MemoryEngine) -> None:
    note = engine.agent("main").add("Vendor account for the cloud bill is ACME")
    before = payloads(engine)
    for call in (
        lambda: engine.agent("dev").update(note.id, tags=["x"]),
        lambda: engine.agent("dev").delete(note.id),
        lambda: engine.agent("dev").restore(note.id),
        lambda: engine.agent("dev").unpublish(note.id),
        lambda: engine.agent("sandbox").get(note.id),
    ):
        with pytest.raises(NotFound):
            call()
    assert payloads(engine) == before


def test_not_found_is_the_same_answer_for_missing_and_invisible(engine: MemoryEngine) -> None:
    hidden = engine.agent("main").add("Vendor account for the cloud bill is ACME")
    missing = "00000000-0000-0000-0000-00000000beef"
    answers = []
    for note_id in (hidden.id, missing, "not-a-uuid"):
        with pytest.raises(NotFound) as err:
            engine.agent("dev").get(note_id)
        answers.append((str(err.value).replace(note_id, "<id>"), err.value.exit_code))
    assert len(set(answers)) == 1
    assert answers[0][1] == 4


def test_soft_delete_and_restore(engine: MemoryEngine) -> None:
    note = engine.agent("dev").add("Run make test-integration before pushing")
    engine.agent("dev").delete(note.id)
    [stored] = engine.store.retrieve("amem_notes", [note.id])
    assert stored.payload["is_active"] is False  # soft: the point is still there
    assert engine.agent("dev").count("private") == 0
    assert note.id not in {
        h.note.id for h in engine.agent("dev").search("make test-integration").hits
    }
    assert engine.agent("dev").get(note.id).active is False  # still readable by id, to restore it
    engine.agent("dev").restore(note.id)
    assert engine.agent("dev").count("private") == 1


def test_legacy_note_is_written_with_explicit_access_fields(engine: MemoryEngine) -> None:
    legacy = MemoryNote.from_payload(
        "11111111-2222-3333-4444-555555555555",
        {"content": "The team wiki moved to the docs site", "agent_id": "main", "tags": []},
    )
    engine.put_notes("amem_notes", [legacy])
    assert engine.agent("main").count("private") == 1  # no is_active: still visible
    with pytest.raises(NotFound):
        engine.agent("dev").delete(legacy.id)
    engine.agent("main").update(legacy.id, tags=["docs"])
    [stored] = engine.store.retrieve("amem_notes", [legacy.id])
    p = stored.payload
    assert (p["owner"], p["readers"], p["writers"], p["is_active"]) == (
        "main",
        ["main"],
        ["main"],
        True,
    )


def test_read_only_refuses_every_write(engine: MemoryEngine) -> None:
    note = engine.agent("main").add("A note written before read-only mode")
    engine.settings = engine.settings.model_copy(update={"read_only": True})
    before = payloads(engine)
    for call in (
        lambda: engine.agent("main").add("Another note that must not land"),
        lambda: engine.agent("main").update(note.id, tags=["x"]),
        lambda: engine.agent("main").delete(note.id),
        lambda: engine.agent("main").publish(note.id),
    ):
        with pytest.raises(ReadOnlyStore) as err:
            call()
        assert err.value.exit_code == 3
    assert payloads(engine) == before


# -------------------------------------------------------------- reading
def test_listing_pages_and_counts(engine: MemoryEngine) -> None:
    ids = [engine.agent("main").add(f"Private note number {i:02d} for paging").id for i in range(7)]
    shared = engine.agent("dev").add("A shared note from dev for everyone", shared=True)
    engine.agent("dev").add("A private note of dev that main never sees")
    page = engine.agent("main").list_notes("private", limit=3, offset=0)
    assert page.total == 7 and len(page.notes) == 3
    seen = [
        n.id for off in (0, 3, 6) for n in engine.agent("main").list_notes("private", 3, off).notes
    ]
    assert sorted(seen) == sorted(ids)
    visible = engine.agent("main").list_notes("visible", limit=100)
    assert visible.total == 8 and {n.id for n in visible.notes} == {*ids, shared.id}
    assert [n.id for n in engine.agent("main").list_notes("shared").notes] == [shared.id]
    assert engine.agent("sandbox").list_notes("shared").total == 0
    assert engine.agent("sandbox").list_notes("visible").total == 0


def test_reads_never_bump_retrieval_count(engine: MemoryEngine) -> None:
    note = engine.agent("main").add("Production deploy is frozen until Friday", shared=True)
    engine.agent("main").add("Deploy checklist lives in the ops wiki")
    before = payloads(engine)
    for agent in ("main", "dev", "sandbox"):
        engine.agent(agent).search("deploy frozen")
        engine.agent(agent).list_notes("visible")
        engine.agent(agent).list_notes("private")
        engine.agent(agent).count("shared")
        engine.agents()
        with contextlib.suppress(NotFound):
            engine.agent(agent).linked(engine.agent(agent).get(note.id))
    assert payloads(engine) == before
    [stored] = engine.store.retrieve("amem_notes", [note.id])
    assert stored.payload["retrieval_count"] == 0


def test_links_follow_the_read_rule(engine: MemoryEngine) -> None:
    private = engine.agent("main").add("Flight to Lisbon is booked for December 14")
    shared_target = engine.agent("main").add(
        "All API endpoints use snake_case JSON keys", shared=True
    )
    note = engine.agent("main").add(
        "Production deploy is frozen during the offsite",
        links=[private.id, shared_target.id, "00000000-0000-0000-0000-000000000000"],
        shared=True,
    )
    as_main = dict(engine.agent("main").linked(engine.agent("main").get(note.id)))
    as_dev = dict(engine.agent("dev").linked(engine.agent("dev").get(note.id)))
    assert as_main[private.id] is not None and as_main[shared_target.id] is not None
    assert as_dev[private.id] is None, "a shared note's link must not open main's private note"
    assert as_dev[shared_target.id] is not None
    assert as_dev["00000000-0000-0000-0000-000000000000"] is None


def test_agents_lists_configured_and_stored_agents(engine: MemoryEngine) -> None:
    engine.agent("qa").add("A note from an agent nobody configured")
    found = {(s.agent, s.mode, s.collection) for s in engine.agents()}
    assert found == {
        ("main", "A", "amem_notes"),
        ("dev", "A", "amem_notes"),
        ("sandbox", "B", "amem_notes_sandbox"),
        ("qa", "A", "amem_notes"),
    }


def test_unpublish_gives_back_the_readers_and_writers_from_before_the_publish(
    engine: MemoryEngine,
) -> None:
    note = engine.agent("main").add("Staging VPN profile is in the vault", readers=["dev"])
    assert engine.agent("dev").get(note.id).content == note.content  # dev reads it by id
    published = engine.agent("main").publish(note.id)
    assert (published.readers, published.writers) == (["*"], ["main"])
    back = engine.agent("main").unpublish(note.id)
    assert (back.agent_id, back.owner, back.readers, back.writers) == (
        "main",
        "main",
        ["main", "dev"],
        ["main"],
    )
    assert engine.agent("dev").get(note.id).content == note.content  # and still does


def test_unpublish_of_a_note_shared_elsewhere_leaves_it_to_its_owner(
    engine: MemoryEngine,
) -> None:
    note = engine.agent("main").add("Deploys need two approvals", shared=True)
    back = engine.agent("main").unpublish(note.id)
    assert (back.readers, back.writers) == (["main"], ["main"])
