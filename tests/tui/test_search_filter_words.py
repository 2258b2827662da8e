"""The search box's parameter words (``subject:NAME``, ``topics:A,B``, ``limit:N``:
openclaw-amem's memory_search parameters) and the header's word on how searches rank."""

from __future__ import annotations

from typing import Any

from qdrant_client import models as qm

from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.real_stores import real_settings
from tests.support.tui import (
    demo_app,
    demo_engine,
    header_text,
    main_screen,
    search_status,
    settle,
    started,
)


def _note(n: int, content: str, **extra: object) -> MemoryNote:
    return MemoryNote(
        id=f"00000000-0000-0000-0000-{n:012d}",
        content=content,
        agent_id="main",
        owner="main",
        readers=["main"],
        writers=["main"],
        **extra,  # type: ignore[arg-type]
    )


ALICE = _note(1, "Alice wants the deploy freeze lifted", subjects=["alice"])
BOB = _note(2, "Bob wants the deploy freeze kept", subjects=["bob"])
RUNBOOK = _note(3, "The deploy freeze runbook", note_type="knowledge", topics=["ops"])
CHECKLIST = _note(4, "The deploy freeze checklist", note_type="knowledge", topics=["ops", "ci"])


def hits(app: Any) -> set[str]:
    result = main_screen(app).search_box.result
    assert result is not None
    return {hit.note.id for hit in result.hits}


async def test_subject_and_topics_words_filter_and_show_on_the_status_line() -> None:
    engine = demo_engine()
    engine.put_notes(engine.settings.collection, [ALICE, BOB, RUNBOOK, CHECKLIST])
    app = demo_app(engine)
    async with started(app) as pilot:
        await pilot.press("slash")
        await pilot.press(*"subject:alice deploy freeze")
        await settle(pilot)
        assert ALICE.id in hits(app) and BOB.id not in hits(app)
        status = search_status(app)
        assert "'deploy freeze'" in status and "about alice or nobody" in status
        await pilot.press("ctrl+u")
        await pilot.press(*"deploy freeze topics:OPS,ci")
        await settle(pilot)
        assert CHECKLIST.id in hits(app) and RUNBOOK.id not in hits(app)
        assert {ALICE.id, BOB.id} <= hits(app)  # memory notes pass
        assert "knowledge notes with topics OPS, ci" in search_status(app)
        await pilot.press("ctrl+u")
        await pilot.press(*"deploy freeze")
        await settle(pilot)
        assert {ALICE.id, BOB.id, RUNBOOK.id} <= hits(app)
        assert "nobody" not in search_status(app) and "topics" not in search_status(app)


async def test_the_box_shows_what_the_agents_own_search_returns_and_limit_asks_more() -> None:
    """Without ``limit:`` the hits are the matches memory_search returns the agent by
    default (5, ranked for 5), in its order, and the status line says how to see more;
    ``limit:N`` asks for N, as the agent's own call can."""
    engine = demo_engine()
    app = demo_app(engine, agent="dev")
    async with started(app) as pilot:
        await pilot.press("slash", *"deploy freeze")
        await settle(pilot)
        box = main_screen(app).search_box
        assert box.scope is not None and box.result is not None
        own = engine.agent(box.scope).search("deploy freeze", exact=False)
        shown = [hit.note.id for hit in box.result.hits if hit.via == "match"]
        assert shown == [hit.note.id for hit in own.hits if hit.via == "match"]
        assert len(shown) == 5 and box.result.limit == 5
        assert "the top 5 the agent gets (limit:N for more)" in search_status(app)
        await pilot.press("ctrl+u", *"limit:7 deploy freeze")
        await settle(pilot)
        assert box.result is not None and box.result.query == "deploy freeze"
        assert sum(1 for hit in box.result.hits if hit.via == "match") == 7
        status = search_status(app)
        assert "'deploy freeze'" in status and "limit 7" in status and "top 5" not in status
        await pilot.press("ctrl+u", *"limit:0 deploy")  # not a limit: searched as words
        await settle(pilot)
        assert box.result is not None and box.result.query == "limit:0 deploy"


async def test_the_header_says_when_searches_are_by_words_only() -> None:
    async with started(demo_app()) as pilot:
        assert "words only" not in header_text(pilot.app)  # amem-tui's own model: exact
    store = QdrantStore(path=":memory:")
    store.client.create_collection(
        "amem_bge",
        vectors_config=qm.VectorParams(size=384, distance=qm.Distance.COSINE),
        metadata={"embedding_model": "Xenova/bge-small-en-v1.5"},  # its files are not here
    )
    engine = make_engine(store, settings=real_settings(collection="amem_bge"))
    async with started(demo_app(engine)) as pilot:
        assert "search by words only" in header_text(pilot.app)
