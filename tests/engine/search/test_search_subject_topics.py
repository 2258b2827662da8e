"""openclaw-amem's memory_search filters: ``subject`` (notes about that person or about
nobody, in the dense search, the keyword ranking and the walk over links) and
``topicsFilter`` (a knowledge note among the matches must hold every topic; other
notes pass; the matches are not refilled; notes found through links stay)."""

from __future__ import annotations

import uuid

import pytest

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import InvalidInput
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.real_stores import MEM0_SMALL, real_settings

QUERY = "deploy freeze schedule"


def nid(n: int) -> str:
    return str(uuid.UUID(int=0xB0000000000000000000000000000000 + n))


def note(n: int, content: str, **extra: object) -> MemoryNote:
    return MemoryNote(
        id=nid(n),
        content=content,
        agent_id="main",
        owner="main",
        readers=["main"],
        writers=["main"],
        is_active=True,
        **extra,  # type: ignore[arg-type]
    )


ABOUT_ALICE = 1
ABOUT_BOB = 2
ABOUT_BOTH = 3
ABOUT_NOBODY = 4
LINKED_BOB = 5
LINKED_NOBODY = 6
KNOWS_BOTH = 7
KNOWS_ONE = 8
KNOWS_CASE = 9
LINKED_KNOWLEDGE = 10


@pytest.fixture
def people(engine: MemoryEngine) -> MemoryEngine:
    notes = [
        note(
            ABOUT_ALICE,
            "Alice asked about the deploy freeze schedule",
            subjects=["alice"],
            links=[nid(LINKED_BOB), nid(LINKED_NOBODY)],
        ),
        note(ABOUT_BOB, "Bob asked about the deploy freeze schedule too", subjects=["bob"]),
        note(
            ABOUT_BOTH, "Alice and Bob share the deploy freeze schedule", subjects=["alice", "bob"]
        ),
        note(ABOUT_NOBODY, "The deploy freeze schedule is on the wiki"),
        note(LINKED_BOB, "Bob keeps the deploy freeze calendar", subjects=["bob"]),
        note(LINKED_NOBODY, "The deploy freeze calendar lives in the ops repo"),
    ]
    engine.put_notes("amem_notes", notes)
    return engine


def ids(result: object) -> set[str]:
    return {h.note.id for h in result.hits}  # type: ignore[attr-defined]


def test_a_subject_keeps_the_notes_about_that_person_or_nobody(people: MemoryEngine) -> None:
    view = people.agent("main")
    everyone = ids(view.search(QUERY))
    assert nid(ABOUT_BOB) in everyone
    for mode in (None, "dense", "keyword"):
        about_alice = ids(view.search(QUERY, mode=mode, subject="alice"))  # type: ignore[arg-type]
        assert about_alice
        assert about_alice <= {
            nid(ABOUT_ALICE),
            nid(ABOUT_BOTH),
            nid(ABOUT_NOBODY),
            nid(LINKED_NOBODY),
        }
        assert not about_alice & {nid(ABOUT_BOB), nid(LINKED_BOB)}
    # A keyword match, exactly: "Alice" is not "alice".
    capital = ids(view.search(QUERY, subject="Alice"))
    assert nid(ABOUT_ALICE) not in capital and nid(ABOUT_NOBODY) in capital


def test_the_walk_over_links_honours_the_subject(people: MemoryEngine) -> None:
    view = people.agent("main")
    result = view.search("Alice asked about the deploy freeze calendar", limit=1, subject="alice")
    assert result.hits[0].note.id == nid(ABOUT_ALICE)
    linked = {h.note.id for h in result.hits if h.via == "link"}
    assert nid(LINKED_BOB) not in linked
    # Without a subject the same walk reaches Bob's note.
    plain = view.search("Alice asked about the deploy freeze calendar", limit=1)
    assert nid(LINKED_BOB) in {h.note.id for h in plain.hits if h.via == "link"}


@pytest.fixture
def knowledge(people: MemoryEngine) -> MemoryEngine:
    notes = [
        note(
            KNOWS_BOTH,
            "Qdrant python client deploy notes",
            note_type="knowledge",
            topics=["Python", "qdrant"],
            links=[nid(LINKED_KNOWLEDGE)],
        ),
        note(
            KNOWS_ONE,
            "Qdrant deploy notes without python",
            note_type="knowledge",
            topics=["qdrant"],
        ),
        note(
            KNOWS_CASE,
            "QDRANT PYTHON deploy cheatsheet",
            note_type="knowledge",
            topics=["QDRANT", "PYTHON", "ops"],
        ),
        note(
            LINKED_KNOWLEDGE,
            "Rust client notes for qdrant deploy",
            note_type="knowledge",
            topics=["rust"],
        ),
    ]
    people.put_notes("amem_notes", notes)
    return people


def test_topics_keep_knowledge_notes_holding_every_topic(knowledge: MemoryEngine) -> None:
    view = knowledge.agent("main")
    query = "qdrant python deploy notes"
    plain = view.search(query, limit=20, links=False)
    matches = ids(plain)
    assert {nid(KNOWS_ONE), nid(LINKED_KNOWLEDGE)} <= matches
    result = view.search(query, limit=20, links=False, topics=["python", "QDRANT"])
    kept = ids(result)
    assert {nid(KNOWS_BOTH), nid(KNOWS_CASE)} <= kept  # case does not matter
    assert nid(KNOWS_ONE) not in kept and nid(LINKED_KNOWLEDGE) not in kept
    memory = {h.note.id for h in plain.hits if h.note.note_type == "memory"}
    assert memory and memory <= kept  # other notes pass
    assert kept == matches - {nid(KNOWS_ONE), nid(LINKED_KNOWLEDGE)}
    # The top match dropped, no other takes its place.
    top = view.search("Qdrant deploy notes without python", limit=1, links=False)
    assert ids(top) == {nid(KNOWS_ONE)}
    narrowed = view.search(
        "Qdrant deploy notes without python", limit=1, links=False, topics=["python"]
    )
    assert narrowed.hits == []


def test_topics_leave_the_notes_found_through_links(knowledge: MemoryEngine) -> None:
    view = knowledge.agent("main")
    result = view.search("Qdrant python client deploy notes", limit=1, topics=["python"])
    assert result.hits[0].note.id == nid(KNOWS_BOTH)
    linked = {h.note.id for h in result.hits if h.via == "link"}
    assert nid(LINKED_KNOWLEDGE) in linked  # a knowledge note without the topic, via a link


def test_the_filters_are_refused_on_a_mem0_collection(real_store: QdrantStore) -> None:
    mem0 = make_engine(real_store, settings=real_settings(collection=MEM0_SMALL))
    with pytest.raises(InvalidInput, match="memory_search filters"):
        mem0.agent("main").search("coffee", subject="alice")


def test_an_empty_topic_is_refused(engine: MemoryEngine) -> None:
    with pytest.raises(InvalidInput, match="topic"):
        engine.agent("main").search(QUERY, topics=[""])
