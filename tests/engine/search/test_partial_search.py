"""A search that does not wait: answered from what is loaded, and marked partial.

An app's first queries come while the model loads and the keyword index is read;
``search(wait=False)`` answers by words while the model loads, by meaning while the
index is read, and says so in ``partial``; once both are there it is the whole answer.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from amem_tui.engine.embed import HashEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.store.edge import EdgeStore
from tests.support.engines import make_engine

NOTES = (
    "Deploy freeze starts Friday for the billing service",
    "The billing review moved to Tuesday afternoon",
    "Auth tokens expire after twelve hours in staging",
    "Staging cache is flushed every night at two",
    "Deploy the search indexer only after the freeze ends",
    "Friday lunch is at the usual place near the office",
)


class LoadingModel(HashEmbedder):
    """The test embedder, as a real model is before it has loaded."""

    def __init__(self) -> None:
        super().__init__()
        self._loaded = False

    @property
    def loaded(self) -> bool:
        return self._loaded

    def load(self) -> None:
        self._loaded = True


def written_store(folder: Path) -> None:
    engine = make_engine(EdgeStore(folder))
    for text in NOTES:
        engine.agent("main").add(text)
    engine.agent("dev").add("Deploy freeze notes of dev, private to dev")
    engine.agent("dev").add("Deploy freeze shared by dev for everyone", shared=True)
    engine.close()
    # No saved note index: a new process reads every note before its first keyword search.
    for saved in folder.rglob("derived"):
        shutil.rmtree(saved)


def opened(folder: Path) -> MemoryEngine:
    return make_engine(EdgeStore(folder), embedder=LoadingModel())


def ids(engine: MemoryEngine, query: str, **how: object) -> list[str]:
    return [hit.note.id for hit in engine.agent("main").search(query, **how).hits]  # type: ignore[arg-type]


def test_answers_from_what_is_loaded_then_whole(tmp_path: Path) -> None:
    written_store(tmp_path / "store")
    engine = opened(tmp_path / "store")
    nothing = engine.agent("main").search("deploy freeze", wait=False)
    assert nothing.hits == []
    assert nothing.partial == "no hits yet: the model and the keyword index are still loading"

    engine.embedder.load()
    by_meaning = engine.agent("main").search("deploy freeze", wait=False, hidden=True)
    assert by_meaning.partial == "the keyword index is still loading: matched by meaning only"
    assert by_meaning.search_mode == "dense"
    assert by_meaning.hidden == []  # hidden matches wait for the whole answer
    assert by_meaning.hits
    assert {hit.because for hit in by_meaning.hits} <= {"private", "shared"}
    assert [h.note.id for h in by_meaning.hits] == ids(engine, "deploy freeze", mode="dense")

    engine.agent("main").warm_up()
    whole = engine.agent("main").search("deploy freeze", wait=False)
    assert whole.partial is None
    assert whole.search_mode == "hybrid"
    assert [h.note.id for h in whole.hits] == ids(engine, "deploy freeze")
    engine.close()


def test_by_words_while_the_model_loads(tmp_path: Path) -> None:
    written_store(tmp_path / "store")
    first = opened(tmp_path / "store")
    first.agent("main").warm_up()  # reads every note once, and saves the index
    first.close()
    engine = opened(tmp_path / "store")
    by_words = engine.agent("main").search("billing review", wait=False)
    assert by_words.partial == "the model is still loading: matched by words only"
    assert by_words.search_mode == "keyword"
    assert [h.note.id for h in by_words.hits] == ids(engine, "billing review", mode="keyword")
    assert by_words.hits
    # A search that waits loads what it needs and is whole.
    waited = engine.agent("main").search("billing review")
    assert waited.partial is None
    assert waited.search_mode == "hybrid"
    engine.close()


def test_a_warm_up_walks_the_graph_the_agents_dense_search_walks(tmp_path: Path) -> None:
    # The store opens what a graph search reads on its first walk: the warm-up walks it
    # once, over what the agent may see, so the first query typed does not pay for it.
    written_store(tmp_path / "store")
    engine = opened(tmp_path / "store")
    walks: list[tuple[str, bool, object]] = []
    search = engine.store.search

    def recorded(collection: str, vector: object, flt: object, limit: int, **how: object) -> object:
        walks.append((collection, bool(how.get("exact", True)), flt))
        return search(collection, vector, flt, limit, **how)  # type: ignore[arg-type]

    engine.store.search = recorded  # type: ignore[method-assign]
    view = engine.agent("main")
    view.warm_up()
    assert [(collection, exact) for collection, exact, _ in walks] == [
        (view.scope.collection, False)
    ]
    view.search("deploy freeze", exact=False)  # the agent's own graph search
    assert walks[1] == walks[0]
    engine.close()
