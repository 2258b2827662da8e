"""Search with the real fastembed model (all-MiniLM-L6-v2), as users run it."""

from __future__ import annotations

import pytest

from amem_tui.engine.embed import FastEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine

pytestmark = pytest.mark.slow


@pytest.fixture
def real_engine(fastembed_embedder: FastEmbedder) -> MemoryEngine:
    return make_engine(QdrantStore(path=":memory:"), embedder=fastembed_embedder)


def test_real_model_recall_and_what_stays_hidden(real_engine: MemoryEngine) -> None:
    engine = real_engine
    freeze = engine.add_shared("main", "Production deploy is frozen until December 20")
    trip = engine.add("main", "Flight to Lisbon for the offsite is booked, seat 12A")
    engine.put_notes(
        "amem_notes", [engine.get("main", freeze.id).model_copy(update={"links": [trip.id]})]
    )
    hotfix = engine.add("main", "The release freeze has an exception for the payments hotfix")
    own = engine.add("dev", "Debugging the auth middleware, JWT expiry is too short")
    engine.add("dev", "The team lunch order on Fridays is pizza")
    boxed = engine.add("sandbox", "Sandbox must never push a release during a freeze")

    result = engine.search("dev", "when can we release to production?", limit=2, hidden=True)
    assert result.search_mode == "hybrid" and result.notice is None
    assert result.hits[0].note.id == freeze.id
    assert result.hits[0].because == "shared"
    assert result.hits[0].similarity is not None and result.hits[0].similarity > 0.3
    seen = {h.note.id for h in result.hits}
    assert trip.id not in seen and hotfix.id not in seen
    hidden = {h.id: h for h in result.hidden}
    assert hidden[hotfix.id].kind == "private" and "'main'" in hidden[hotfix.id].reason
    assert hidden[boxed.id].kind == "mode_b"
    assert own.id not in hidden

    # main reads its own trip note; the link from the shared note may bring it along.
    mine = engine.search("main", "Lisbon offsite flight", limit=1)
    assert mine.hits[0].note.id == trip.id and mine.hits[0].because == "private"


def test_real_model_dense_and_hybrid_agree_on_a_clear_winner(real_engine: MemoryEngine) -> None:
    engine = real_engine
    target = engine.add("main", "Invoices for the cloud bill go to finance at ACME")
    for text in (
        "User prefers bullet points in standup summaries",
        "Run the integration tests before pushing to main",
        "The repository uses ruff with line length 100",
    ):
        engine.add("main", text)
    for mode in ("dense", "hybrid"):
        result = engine.search("main", "who receives the cloud invoices?", limit=3, mode=mode)  # type: ignore[arg-type]
        assert result.hits[0].note.id == target.id, mode


def test_a_repeated_query_gets_the_same_vector_whatever_the_caller_did_with_it(
    fastembed_embedder: FastEmbedder,
) -> None:
    text = "who reviews the auth middleware"
    first = fastembed_embedder.embed_query(text)
    expected = fastembed_embedder.embed_documents([text])[0]
    first[:] = 0.0  # a caller changing its copy must not change the next answer
    again = fastembed_embedder.embed_query(text)
    assert again.tolist() == pytest.approx(expected.tolist(), abs=1e-6)
    assert fastembed_embedder.embed_query("something else").tolist() != again.tolist()
