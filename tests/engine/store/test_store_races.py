"""Two processes on one server creating what they need at the same moment: the one
that loses the race uses what the other made, never a 409 for the user."""

from __future__ import annotations

import threading
from typing import Any

from amem_tui.engine.store.base import CollectionInfo
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.qdrant_standin import QdrantStandIn


def test_a_collection_created_by_another_process_meanwhile_is_used() -> None:
    with QdrantStandIn() as server:
        first, second = QdrantStore(url=server.url), QdrantStore(url=server.url)
        creates: list[str] = []

        def first_create(method: str, path: str, body: Any) -> bool:
            if method == "PUT" and path == "/collections/__amem_runs":
                creates.append(path)
                return len(creates) == 1  # only the first store's create waits
            return False

        server.hold(first_create)
        outcome: dict[str, CollectionInfo | BaseException] = {}

        def create_in_first() -> None:
            try:
                outcome["first"] = first.ensure_collection("__amem_runs", 4, "m")
            except BaseException as exc:  # reported below, not lost in the thread
                outcome["first"] = exc

        thread = threading.Thread(target=create_in_first)
        thread.start()
        try:
            while not server.held:
                threading.Event().wait(0.01)
            # The first store saw no collection and its create is on the wire; the
            # second one creates it now, indexes and all.
            made = second.ensure_collection("__amem_runs", 4, "m")
        finally:
            server.release()
        thread.join(timeout=30)

        got = outcome["first"]
        assert not isinstance(got, BaseException), got
        assert len(creates) == 2, "both stores sent their create"
        assert got.name == made.name == "__amem_runs"
        assert got.vector_size == 4
        assert got.metadata.get("created_by") == "amem-tui"
