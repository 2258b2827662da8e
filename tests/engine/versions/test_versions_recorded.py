"""Every write through the engine is kept as a version of its note, and any version can
be gone back to, as a new version, under the same access rules."""

from __future__ import annotations

import json
from typing import Any

import pytest

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import InvalidInput, NotFound, PermissionDenied, ReadOnlyStore
from amem_tui.engine.models import MemoryNote
from tests.support.engines import make_engine, second_client

NOTES = "amem_notes"


def stored(engine: MemoryEngine, note_id: str, collection: str = NOTES) -> dict[str, Any]:
    [point] = engine.store.retrieve(collection, [note_id])
    return point.payload


def note_points(engine: MemoryEngine) -> dict[str, dict[str, Any]]:
    """Every note's stored payload, in every collection of notes."""
    return {
        f"{name}/{p.id}": p.payload
        for name in engine.note_collections()
        for p in engine.store.scroll(name, None, limit=10_000)
    }


def test_a_note_edited_three_times_goes_back_to_its_first_version(engine: MemoryEngine) -> None:
    main = engine.agent("main")
    note = main.add("The deploy window is Tuesday morning", tags=["deploy"])
    main.update(note.id, content="The deploy window is Tuesday afternoon")
    main.update(note.id, content="The deploy window is Wednesday afternoon", tags=["deploy", "ops"])
    main.update(note.id, content="Deploys are frozen until the audit ends")

    history = main.versions(note.id)
    assert [(v.number, v.action, v.agent) for v in history.versions] == [
        (1, "add", "main"),
        (2, "update", "main"),
        (3, "update", "main"),
        (4, "update", "main"),
    ]
    assert all(v.recorded for v in history.versions)
    assert history.versions[0].before is None
    assert history.versions[2].changed == ["content", "hash", "tags"]
    assert history.versions[2].content_before == "The deploy window is Tuesday afternoon"
    assert history.versions[2].after is not None
    assert history.versions[2].after["tags"] == ["deploy", "ops"]

    reverted = main.revert(note.id, 1)
    assert reverted.content == "The deploy window is Tuesday morning"
    assert reverted.tags == ["deploy"]
    payload = stored(engine, note.id)
    assert payload["content"] == "The deploy window is Tuesday morning"
    assert payload["tags"] == ["deploy"]
    # History is never rewritten: the revert is a fifth version, and an evolution entry.
    history = main.versions(note.id)
    assert [(v.number, v.action) for v in history.versions][-1] == (5, "revert")
    assert history.versions[-1].reverted_to == 1
    assert history.versions[-1].label == "reverted to version 1"
    assert [e.action for e in reverted.evolution_history][-1] == "revert"
    # The reverted content is searchable as itself (re-embedded).
    hits = main.search("deploy window Tuesday morning").hits
    assert hits and hits[0].note.id == note.id


def test_every_kind_of_write_is_a_version(engine: MemoryEngine) -> None:
    main = engine.agent("main")
    note = main.add("Staging credentials live in the team vault")
    main.update(note.id, readers=["dev"])
    main.update(note.id, readers=[])
    main.publish(note.id)
    main.unpublish(note.id)
    main.delete(note.id)
    main.restore(note.id)
    actions = [(v.action, v.changed) for v in main.versions(note.id).versions]
    assert actions == [
        ("add", []),
        ("readers", ["readers"]),
        ("readers", ["readers"]),
        ("publish", ["agent_id", "readers"]),
        ("unpublish", ["agent_id", "readers"]),
        ("delete", ["is_active"]),
        ("restore", ["is_active"]),
    ]


def test_a_write_that_changes_nothing_is_no_version(engine: MemoryEngine) -> None:
    main = engine.agent("main")
    note = main.add("Standups are at nine on weekdays")
    main.update(note.id, content="Standups are at nine on weekdays")
    assert len(main.versions(note.id).versions) == 1


def test_a_change_made_by_another_tool_shows_as_outside(engine: MemoryEngine) -> None:
    main = engine.agent("main")
    note = main.add("Backups run every night at two")
    # openclaw-amem's memory evolution rewrites tags and logs it in the note itself.
    payload = stored(engine, note.id)
    engine.store.set_payload(
        NOTES,
        note.id,
        {
            **payload,
            "tags": ["backup", "ops"],
            "retrieval_count": 7,  # use, never a change
            "evolution_history": '[{"triggeredBy":"dev","triggeredAt":'
            '"2026-11-21T10:00:00.000Z","action":"evolve"}]',
        },
    )
    history = main.versions(note.id)
    assert [(v.action, v.recorded) for v in history.versions] == [
        ("add", True),
        ("outside", False),
    ]
    outside = history.versions[1]
    assert outside.label == "changed outside amem-tui"
    assert outside.changed == ["tags"]
    assert outside.known == ["2026-11-21T10:00:00.000Z: evolve by dev"]
    assert outside.at == "2026-11-21T10:00:00.000Z"  # when the other tool wrote it
    with pytest.raises(InvalidInput, match="as it is now"):
        main.revert(note.id, 2)

    # The next write through amem-tui records the outside change first: numbers hold.
    main.update(note.id, content="Backups run every night at three")
    history = main.versions(note.id)
    assert [(v.number, v.action, v.recorded) for v in history.versions] == [
        (1, "add", True),
        (2, "outside", True),
        (3, "update", True),
    ]
    # Recorded at the update, the outside version keeps when the other tool wrote it.
    assert history.versions[1].at == "2026-11-21T10:00:00.000Z"
    assert history.versions[2].at != history.versions[1].at
    main.revert(note.id, 2)
    payload = stored(engine, note.id)
    assert (payload["content"], payload["tags"]) == (
        "Backups run every night at two",
        ["backup", "ops"],
    )
    assert payload["retrieval_count"] == 7  # recall counts are never wound back


def test_a_note_written_by_another_tool_starts_as_outside(engine: MemoryEngine) -> None:
    note = MemoryNote.model_validate(
        {
            "id": "00000000-0000-4000-8000-00000000aaaa",
            "content": "The on-call rota changes on Mondays",
            "agent_id": "main",
            "owner": "main",
            "readers": ["main"],
            "writers": ["main"],
            "timestamp": "2026-10-01T08:00:00.000Z",
        }
    )
    engine.put_notes(NOTES, [note])
    main = engine.agent("main")
    [only] = main.versions(note.id).versions
    assert (only.number, only.action, only.recorded) == (1, "outside", False)
    assert only.known == ["created 2026-10-01T08:00:00.000Z"]
    assert only.at == "2026-10-01T08:00:00.000Z"

    main.update(note.id, content="The on-call rota changes on Fridays")
    assert [(v.action, v.recorded) for v in main.versions(note.id).versions] == [
        ("outside", True),
        ("update", True),
    ]
    assert main.revert(note.id, 1).content == "The on-call rota changes on Mondays"


def test_revert_keeps_the_access_rules(engine: MemoryEngine) -> None:
    main, dev = engine.agent("main"), engine.agent("dev")
    private = main.add("The payroll export runs on the 25th")
    main.update(private.id, content="The payroll export runs on the 26th")
    before = note_points(engine)
    with pytest.raises(NotFound):  # dev cannot read it: nor its versions
        dev.versions(private.id)
    with pytest.raises(NotFound):
        dev.revert(private.id, 1)

    shared = main.add("Code freeze starts on the 18th", shared=True)
    main.update(shared.id, content="Code freeze starts on the 19th")
    assert [v.action for v in dev.versions(shared.id).versions] == ["add", "update"]
    before = note_points(engine)
    with pytest.raises(PermissionDenied, match="dev"):
        dev.revert(shared.id, 1)
    assert note_points(engine) == before

    # A writer may revert the content, but only the owner what sharing it undoes.
    main.unpublish(shared.id)
    engine.store.set_payload(NOTES, shared.id, {**stored(engine, shared.id), "writers": ["*"]})
    main.publish(shared.id)  # writers back to [owner] by publish
    engine.store.set_payload(NOTES, shared.id, {**stored(engine, shared.id), "writers": ["*"]})
    numbers = [v.number for v in dev.versions(shared.id).versions]
    history = dev.versions(shared.id).versions
    unpublished = next(v.number for v in history if v.action == "unpublish")
    with pytest.raises(PermissionDenied, match="dev"):
        dev.revert(shared.id, unpublished)
    assert len(dev.versions(shared.id).versions) == len(numbers)


def test_revert_refuses_a_version_that_does_not_exist_or_is_current(engine: MemoryEngine) -> None:
    main = engine.agent("main")
    note = main.add("Incident reviews happen within a week")
    with pytest.raises(InvalidInput, match="versions are 1 to 1"):
        main.revert(note.id, 4)
    with pytest.raises(InvalidInput, match="already"):
        main.revert(note.id, 1)


def test_revert_on_a_read_only_engine_is_refused(engine: MemoryEngine) -> None:
    note = engine.agent("main").add("Release trains leave every second Thursday")
    engine.agent("main").update(note.id, content="Release trains leave every Thursday")
    engine.settings = engine.settings.model_copy(update={"read_only": True})
    with pytest.raises(ReadOnlyStore):
        engine.agent("main").revert(note.id, 1)
    assert engine.agent("main").get(note.id).content == "Release trains leave every Thursday"


def test_consolidation_merges_and_their_undo_are_versions(engine: MemoryEngine) -> None:
    main = engine.agent("main")
    keeper = main.add("The VPN config for staging lives in the ops vault under vpn/staging")
    dropped = main.add("VPN config for staging: ops vault, vpn/staging")
    run = main.consolidate(threshold=0.5)
    assert run.merges, "the two near-duplicates merge"
    merged = {run.merges[0].keeper, *run.merges[0].dropped}
    assert merged == {keeper.id, dropped.id}
    for note_id in merged:
        actions = [(v.action, v.run_id) for v in main.versions(note_id).versions]
        assert actions[-1] == ("merge", run.id)
    undo = main.undo(run.id)
    for note_id in merged:
        last = main.versions(note_id).versions[-1]
        assert (last.action, last.run_id, last.agent) == ("undo", undo.id, "main")


def test_imports_are_versions_and_the_notes_stay_as_other_tools_read_them(
    engine: MemoryEngine,
) -> None:
    main = engine.agent("main")
    note = main.add("Design reviews are on Wednesdays at ten")
    lines = list(engine.export_lines(NOTES, vectors=False))
    payload_before = stored(engine, note.id)
    changed = {**lines[0], "payload": {**lines[0]["payload"], "content": "Design reviews moved"}}
    result = engine.import_lines([json.dumps(changed)], NOTES, replace=True)
    assert result.written == 1
    history = main.versions(note.id).versions
    assert [(v.action, v.agent) for v in history] == [("add", "main"), ("import", None)]
    assert history[-1].content_before == payload_before["content"]
    # No field was added to the note for versions: the payload is all openclaw-amem's.
    assert set(stored(engine, note.id)) == set(payload_before)
    assert not any(name.endswith("__amem_versions") for name in engine.note_collections())


def test_old_versions_name_no_note_the_agent_cannot_read(engine: MemoryEngine) -> None:
    main, dev = engine.agent("main"), engine.agent("dev")
    secret = main.add("Main's private incident notes from the outage")
    shared = main.add("Outage summary for everyone", shared=True)
    engine.store.set_payload(NOTES, shared.id, {**stored(engine, shared.id), "links": [secret.id]})
    main.update(shared.id, content="Outage summary for everyone, with the timeline")
    for version in dev.versions(shared.id).versions:
        for snap in (version.before, version.after):
            if snap is not None and "unreadable_links" in snap:
                assert secret.id not in snap["links"]
    seen = [v.after for v in dev.versions(shared.id).versions if v.after]
    assert any(s.get("unreadable_links") == 1 for s in seen)
    assert all(
        secret.id in (v.after or {}).get("links", [secret.id])
        for v in main.versions(shared.id).versions[1:]
    )


def test_a_second_machine_sees_the_versions(store: Any) -> None:
    engine = make_engine(store)
    note = engine.agent("main").add("Quarterly access reviews are due in March")
    engine.agent("main").update(note.id, content="Quarterly access reviews are due in April")
    other = make_engine(second_client(store))
    assert [v.action for v in other.agent("main").versions(note.id).versions] == ["add", "update"]


def test_the_first_write_makes_a_version_log_with_only_its_own_index(
    engine: MemoryEngine,
) -> None:
    # Each payload index is a shard update: the log of versions, made at the first
    # write, gets none of a note collection's indexes (a publish waited seconds for them).
    note = engine.agent("main").add("Backups run every night at two")
    engine.agent("main").publish(note.id)
    log = NOTES + "__amem_versions"
    assert engine.store.collection_info(log) is not None
    assert set(engine.store.indexed_fields(log)) <= {"note_id"}
    assert "is_active" in engine.store.indexed_fields(NOTES) or not engine.store.indexed_fields(
        NOTES
    )
