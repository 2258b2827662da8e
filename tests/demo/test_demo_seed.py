"""Seeding the demo twice embeds nothing the second time, and repairs changed notes."""

from __future__ import annotations

from typing import Any

from amem_tui.demo import demo_notes, seed_demo
from tests.support.tui import demo_engine


def test_second_seed_embeds_nothing_and_changed_notes_are_rewritten() -> None:
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
    collection, group = next(iter(notes.items()))
    note = group[0]
    engine.store.set_payload(collection, note.id, {"content": "tampered"})
    seed_demo(engine)
    assert embedded == [note.content]
    (point,) = engine.store.retrieve(collection, [note.id])
    assert point.payload == note.to_payload()
