"""Seeding the demo adds only what is missing: it never reverts what the user changed."""

from __future__ import annotations

from typing import Any

from amem_tui.demo import demo_id, demo_notes, seed_demo
from tests.support.tui import demo_engine


def test_second_seed_embeds_nothing_and_keeps_every_change_the_user_made() -> None:
    engine = demo_engine(seed=False)
    embedded: list[str] = []
    original = engine.embedder.embed_documents

    def counting(texts: list[str]) -> Any:
        embedded.extend(texts)
        return original(texts)

    engine.embedder.embed_documents = counting  # type: ignore[method-assign]
    notes = demo_notes()
    total = sum(len(v) for v in notes.values())
    first = seed_demo(engine)
    assert sum(first.values()) == total and len(embedded) == total
    embedded.clear()
    assert seed_demo(engine) == first
    assert embedded == []

    # The user edits one note and soft-deletes another (as a merge would).
    edited = engine.agent("main").update(demo_id("main-vendor"), content="The vendor account moved")
    dropped = engine.agent("main").delete(demo_id("main-trip"))
    embedded.clear()
    seed_demo(engine)
    assert embedded == []
    assert engine.agent("main").get(edited.id).content == "The vendor account moved"
    assert engine.agent("main").get(dropped.id).active is False

    # A demo note that is gone altogether comes back.
    collection, group = next(iter(notes.items()))
    gone = group[0]
    engine.store.delete_points(collection, [gone.id])
    seed_demo(engine)
    assert embedded == [gone.content]
    (point,) = engine.store.retrieve(collection, [gone.id])
    assert point.payload == gone.to_payload()
