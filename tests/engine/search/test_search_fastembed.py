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
    freeze = engine.agent("main").add("Production deploy is frozen until December 20", shared=True)
    trip = engine.agent("main").add("Flight to Lisbon for the offsite is booked, seat 12A")
    engine.put_notes(
        "amem_notes", [engine.agent("main").get(freeze.id).model_copy(update={"links": [trip.id]})]
    )
    hotfix = engine.agent("main").add("The release freeze has an exception for the payments hotfix")
    own = engine.agent("dev").add("Debugging the auth middleware, JWT expiry is too short")
    engine.agent("dev").add("The team lunch order on Fridays is pizza")
    boxed = engine.agent("sandbox").add("Sandbox must never push a release during a freeze")

    result = engine.agent("dev").search("when can we release to production?", limit=2, hidden=True)
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
    mine = engine.agent("main").search("Lisbon offsite flight", limit=1)
    assert mine.hits[0].note.id == trip.id and mine.hits[0].because == "private"


def test_real_model_dense_and_hybrid_agree_on_a_clear_winner(real_engine: MemoryEngine) -> None:
    engine = real_engine
    target = engine.agent("main").add("Invoices for the cloud bill go to finance at ACME")
    for text in (
        "User prefers bullet points in standup summaries",
        "Run the integration tests before pushing to main",
        "The repository uses ruff with line length 100",
    ):
        engine.agent("main").add(text)
    for mode in ("dense", "hybrid"):
        result = engine.agent("main").search("who receives the cloud invoices?", limit=3, mode=mode)  # type: ignore[arg-type]
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
