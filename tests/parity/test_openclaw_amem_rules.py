"""openclaw-amem's own rules, as facts read in its sources, checked through amem-tui.

openclaw-amem is not published to a package registry, so its code cannot run here.
Each table row is a fact from its sources (repository amemhq/amem,
``packages/amem-core/src``: storage.ts ``agentFilter``, ``listNotes``,
``countNotes``, ``getNote``, ``pointToNote``; auth.ts ``canRead`` and ``canWrite``;
memory.ts ``searchMemory`` and ``buildBM25``; ``packages/openclaw-amem/src/scope.ts``
for session keys), and amem-tui, asked through its engine, must give the same answer.

- search, list and count (``agentFilter``): ``agent_id`` in [self, "shared"], minus
  ``is_active == false`` (must_not: an old note without the field is active).
  ``readers`` is not part of it.
- get by id (``getNote`` then ``canRead``): owner, or named in ``readers``, or
  ``readers`` holds "*"; a missing owner is ``agent_id``, missing readers are
  ``[agent_id]`` (so a legacy shared note is read by id by no agent); soft-deleted
  notes are returned too.
- the link walk of a search visits only what the agent's listing holds.
- the heat boost, ``1 + 0.05 ln(1 + retrieval_count) / (age_days + 1)``, is computed
  after the search has bumped its dense candidates (``retrieval_count + 1``,
  ``last_accessed`` now: the patches are sent before the notes are read, not awaited);
  a note only BM25 found keeps its stored heat; knowledge notes get none.
- BM25 indexes content, keywords and tags, not context.
"""

from __future__ import annotations

import math
import uuid
from dataclasses import dataclass
from typing import Any

import pytest

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import NotFound, PermissionDenied
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.scope import resolve_agent
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.fixed_vectors import QUERY_VECTOR, FixedEmbedder


@dataclass(frozen=True)
class Row:
    """One note and what openclaw-amem gives agent ``dev`` of it."""

    fact: str
    payload: dict[str, Any]
    searched: bool  # memory_search, memory_list, countNotes
    read_by_id: bool  # getNote


ROWS = [
    Row(
        "its own private note", {"agent_id": "dev", "owner": "dev", "readers": ["dev"]}, True, True
    ),
    Row("a shared note", {"agent_id": "shared", "owner": "main", "readers": ["*"]}, True, True),
    Row(
        "a soft-deleted shared note: getNote checks no is_active",
        {"agent_id": "shared", "owner": "main", "readers": ["*"], "is_active": False},
        False,
        True,
    ),
    Row(
        "main's note whose readers name dev: get only",
        {"agent_id": "main", "owner": "main", "readers": ["main", "dev"]},
        False,
        True,
    ),
    Row(
        "main's note whose readers hold '*': get only",
        {"agent_id": "main", "owner": "main", "readers": ["*"]},
        False,
        True,
    ),
    Row(
        "main's private note",
        {"agent_id": "main", "owner": "main", "readers": ["main"]},
        False,
        False,
    ),
    Row(
        "dev owns it under agent_id main: get only",
        {"agent_id": "main", "owner": "dev", "readers": ["main"]},
        False,
        True,
    ),
    Row("its own legacy note (no is_active, owner, readers)", {"agent_id": "dev"}, True, True),
    Row(
        "a legacy shared note: readers default to ['shared'], so no getNote",
        {"agent_id": "shared"},
        True,
        False,
    ),
    Row("main's legacy note", {"agent_id": "main"}, False, False),
    Row(
        "its own soft-deleted note",
        {"agent_id": "dev", "owner": "dev", "readers": ["dev"], "is_active": False},
        False,
        True,
    ),
]


def nid(n: int) -> str:
    return str(uuid.UUID(int=0xA0000 + n))


def note(n: int, fields: dict[str, Any], **extra: Any) -> MemoryNote:
    payload = {"content": f"memory number {n} about deploys", **fields, **extra}
    payload.setdefault("is_active", None)
    return MemoryNote.from_payload(nid(n), {k: v for k, v in payload.items() if v is not None})


@pytest.fixture
def table(store: QdrantStore) -> MemoryEngine:
    engine = make_engine(store, embedder=FixedEmbedder())
    notes = [note(i, row.payload) for i, row in enumerate(ROWS)]
    engine.put_notes("amem_notes", notes, [QUERY_VECTOR.tolist()] * len(notes))
    return engine


def test_search_list_and_count_follow_the_agent_filter(table: MemoryEngine) -> None:
    searched = {nid(i) for i, row in enumerate(ROWS) if row.searched}
    found = {h.note.id for h in table.agent("dev").search("deploys", limit=50, links=False).hits}
    listed = {n.id for n in table.agent("dev").list_notes("visible", limit=50).notes}
    for i, row in enumerate(ROWS):
        assert (nid(i) in found, nid(i) in listed) == (row.searched, row.searched), row.fact
    assert table.agent("dev").count("visible") == len(searched)


def test_get_follows_can_read(table: MemoryEngine) -> None:
    for i, row in enumerate(ROWS):
        try:
            table.agent("dev").get(nid(i))
            got = True
        except NotFound:
            got = False
        assert got == row.read_by_id, row.fact


def test_get_only_notes_are_listed_and_counted_apart(table: MemoryEngine) -> None:
    active = [i for i, row in enumerate(ROWS) if row.payload.get("is_active") is not False]
    get_only = {nid(i) for i in active if ROWS[i].read_by_id and not ROWS[i].searched}
    assert len(get_only) == 3
    listed = {n.id for n in table.agent("dev").list_notes("get_only", limit=50).notes}
    assert listed == get_only
    assert table.agent("dev").count("get_only") == len(get_only)
    assert not get_only & {n.id for n in table.agent("dev").list_notes("visible", limit=50).notes}
    result = table.agent("dev").search("deploys", limit=50, hidden=True, links=False)
    hidden = {h.id: h for h in result.hidden}
    for note_id in get_only:
        assert hidden[note_id].kind == "get_only"
        assert "getNote returns it to dev" in hidden[note_id].reason
        assert "memory_search" in hidden[note_id].reason


def test_the_link_walk_visits_only_the_agents_listing(store: QdrantStore) -> None:
    engine = make_engine(store, embedder=FixedEmbedder())
    start = note(1, {"agent_id": "dev", "owner": "dev", "readers": ["dev"]}, content="deploy")
    start.links = [nid(2), nid(3), nid(4)]
    readable = note(2, {"agent_id": "main", "owner": "main", "readers": ["main", "dev"]})
    shared = note(3, {"agent_id": "shared", "owner": "main", "readers": ["*"]})
    gone = note(4, {"agent_id": "shared", "owner": "main", "readers": ["*"], "is_active": False})
    for other in (readable, shared, gone):
        other.content = "unrelated words entirely"
    engine.put_notes("amem_notes", [start, readable, shared, gone], [QUERY_VECTOR.tolist()] * 4)
    hits = engine.agent("dev").search("deploy", limit=1).hits
    assert [(h.note.id, h.via) for h in hits] == [(nid(1), "match"), (nid(3), "link")]


def test_the_heat_boost_is_the_one_after_the_searchs_own_bump(store: QdrantStore) -> None:
    engine = make_engine(store, embedder=FixedEmbedder())
    base = {"agent_id": "dev", "owner": "dev", "readers": ["dev"]}
    old = {"retrieval_count": 3, "last_accessed": "2026-11-10T09:00:00.000Z"}  # 10 days
    dense = note(1, base, content="heat one", **old)
    knowledge = note(2, base, content="heat two", note_type="knowledge", **old)
    engine.put_notes("amem_notes", [dense, knowledge], [QUERY_VECTOR.tolist()] * 2)
    boosts = {h.note.id: h.boost for h in engine.agent("dev").search("heat", links=False).hits}
    # Bumped first: 4 retrievals, just now (not 3 retrievals, 10 days ago).
    assert boosts[nid(1)] == pytest.approx(1 + 0.05 * math.log(1 + 4))
    assert boosts[nid(2)] == 1.0


@pytest.mark.parametrize(
    ("field", "found"), [("content", True), ("keywords", True), ("tags", True), ("context", False)]
)
def test_bm25_indexes_content_keywords_and_tags(
    store: QdrantStore, field: str, found: bool
) -> None:
    engine = make_engine(store, embedder=FixedEmbedder())
    base = {"agent_id": "dev", "owner": "dev", "readers": ["dev"]}
    value: Any = "xylophone" if field in ("content", "context") else ["xylophone"]
    quiet = note(1, base, content="nothing to see here")
    loud = note(2, base, **{"content": "plain text", field: value})
    engine.put_notes("amem_notes", [quiet, loud], [QUERY_VECTOR.tolist()] * 2)
    hits = engine.agent("dev").search("xylophone", mode="keyword").hits
    assert ([h.note.id for h in hits] == [nid(2)]) is found


@pytest.mark.parametrize(
    ("session_key", "agent"),
    [
        ("agent:dev:abc", "dev"),
        ("agent:dev:abc:more", "dev"),
        ("agent::dev:abc", "dev"),  # empty parts are dropped before counting
        ("agent:dev:", "main"),  # two parts: not a session key of an agent
        ("agent:dev", "main"),
        ("session:dev:abc", "main"),
    ],
)
def test_session_keys_resolve_as_openclaw_amem_parses_them(session_key: str, agent: str) -> None:
    assert resolve_agent(None, session_key, None) == agent


def test_only_owners_and_writers_modify(table: MemoryEngine) -> None:
    table.agent("dev").update(nid(0), tags=["mine"])  # its own note
    with pytest.raises(PermissionDenied):
        table.agent("dev").update(nid(1), tags=["theirs"])  # a shared note of main's
