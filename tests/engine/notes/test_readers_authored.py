"""Readers an owner chooses: ``add(readers=…)`` and ``update(readers=…)``, owner only,
refused where openclaw-amem would give the readers nothing, and said truthfully."""

from __future__ import annotations

from typing import Any

import pytest

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import InvalidInput, PermissionDenied, ReadOnlyStore
from tests.support.mem0_stores import mem0_engine


def stored(engine: MemoryEngine, note_id: str, collection: str = "amem_notes") -> dict[str, Any]:
    [point] = engine.store.retrieve(collection, [note_id])
    return point.payload


def test_add_with_readers_is_private_and_get_only_for_them(engine: MemoryEngine) -> None:
    main = engine.agent("main")
    note = main.add("The staging database password rotates monthly", readers=["dev"])
    payload = stored(engine, note.id)
    assert (payload["agent_id"], payload["owner"], payload["writers"]) == ("main", "main", ["main"])
    assert payload["readers"] == ["main", "dev"]
    dev = engine.agent("dev")
    assert dev.get(note.id).id == note.id  # openclaw-amem's getNote returns it
    assert note.id not in [n.id for n in dev.list_notes("visible").notes]  # never its listing
    assert note.id in [n.id for n in dev.list_notes("get_only").notes]
    sentence = main.readers_sentence(["dev"])
    assert sentence is not None
    assert "getNote returns it to dev" in sentence and "memory_search" in sentence


def test_update_readers_replaces_and_clears_them(engine: MemoryEngine) -> None:
    main = engine.agent("main")
    note = main.add("Quarterly planning notes live in the wiki")
    assert main.update(note.id, readers=["dev", "ops", "dev"]).readers == ["main", "dev", "ops"]
    assert stored(engine, note.id)["readers"] == ["main", "dev", "ops"]
    assert main.update(note.id, readers=[]).readers == ["main"]
    assert stored(engine, note.id)["readers"] == ["main"]
    with pytest.raises(InvalidInput):  # got nothing to do
        main.update(note.id)


def test_only_the_owner_chooses_readers(engine: MemoryEngine) -> None:
    main = engine.agent("main")
    note = main.add("Release notes are drafted on Thursdays", readers=["dev"])
    # dev may even be a writer (as another tool may have made it): readers stay the
    # owner's choice, as publishing does.
    engine.store.set_payload(
        "amem_notes", note.id, {**stored(engine, note.id), "writers": ["main", "dev"]}
    )
    engine.agent("dev").update(note.id, content="Release notes are drafted on Thursdays by dev")
    before = stored(engine, note.id)
    with pytest.raises(PermissionDenied, match=r"dev.*readers") as denied:
        engine.agent("dev").update(note.id, readers=["dev", "ops"])
    assert denied.value.exit_code == 3
    assert stored(engine, note.id) == before
    note = engine.agent("dev").get(note.id)
    assert engine.agent("dev").write_refusal(note, "update") is None
    assert engine.agent("dev").write_refusal(note, "set the readers of") is not None
    assert engine.agent("main").write_refusal(note, "set the readers of") is None


@pytest.mark.parametrize(
    "readers, fragment",
    [
        (["*"], "publish"),
        (["shared"], "publish"),
        (["sandbox"], "Mode B"),
        (["bad name"], "invalid agent id"),
    ],
)
def test_meaningless_readers_are_refused(
    engine: MemoryEngine, readers: list[str], fragment: str
) -> None:
    main = engine.agent("main")
    with pytest.raises(InvalidInput, match=fragment):
        main.add("A note nobody else would ever read", readers=readers)
    note = main.add("A note that stays private to main")
    before = stored(engine, note.id)
    with pytest.raises(InvalidInput, match=fragment):
        main.update(note.id, readers=readers)
    assert stored(engine, note.id) == before
    assert main.readers_refusal(readers) is not None
    assert main.readers_refusal(["dev"]) is None


def test_shared_notes_and_mode_b_agents_take_no_readers(engine: MemoryEngine) -> None:
    main = engine.agent("main")
    with pytest.raises(InvalidInput, match="shared note"):
        main.add("Everyone reads this shared note anyway", shared=True, readers=["dev"])
    shared = main.add("Everyone reads this shared note", shared=True)
    with pytest.raises(InvalidInput, match="unpublish"):
        main.update(shared.id, readers=["dev"])
    with pytest.raises(InvalidInput, match="Mode B"):
        engine.agent("sandbox").add("Sandbox keeps this to itself", readers=["dev"])


def test_identical_content_with_other_readers_is_refused(engine: MemoryEngine) -> None:
    main = engine.agent("main")
    note = main.add("The on-call rota is in the shared calendar")
    with pytest.raises(InvalidInput, match=f"update {note.id} --readers"):
        main.add("The on-call rota is in the shared calendar", readers=["dev"])
    assert stored(engine, note.id)["readers"] == ["main"]


def test_mem0_memories_take_no_readers() -> None:
    engine = mem0_engine(user="alice")
    view = engine.agent("main")
    with pytest.raises(ReadOnlyStore, match="readers are not part of mem0"):
        view.add("Alice prefers green tea", readers=["dev"])
    memory = view.list_notes().notes[0]
    with pytest.raises(ReadOnlyStore, match="user_id alone"):
        view.update(memory.id, readers=["dev"])
    refusal = view.readers_refusal(["dev"])
    assert refusal is not None and "user_id alone" in str(refusal)
    assert view.readers_sentence(["dev"]) is None
    engine.close()


def test_readers_refusal_says_what_a_form_must_say_before_saving(engine: MemoryEngine) -> None:
    main, dev = engine.agent("main"), engine.agent("dev")
    own = main.add("The deploy checklist lives in the runbook")
    assert main.readers_refusal(["dev"], note=own) is None
    # Another agent's note: the owner's choice, even for a writer.
    engine.store.set_payload(
        "amem_notes",
        own.id,
        {**stored(engine, own.id), "readers": ["main", "dev"], "writers": ["main", "dev"]},
    )
    refused = dev.readers_refusal([], note=dev.get(own.id))
    assert isinstance(refused, PermissionDenied) and "only its owner (main)" in str(refused)
    # A shared note takes no readers, whether it is written or published.
    assert main.readers_refusal([], shared=True) is None
    refused = main.readers_refusal(["dev"], shared=True)
    assert refused is not None and "shared note" in str(refused)
    published = main.publish(main.add("Everyone reads the on-call rota").id)
    refused = main.readers_refusal([], note=published)
    assert refused is not None and "unpublish" in str(refused)
    # Mode B: nobody else reads the collection, whatever is chosen.
    refused = engine.agent("sandbox").readers_refusal([])
    assert refused is not None and "Mode B" in str(refused)
