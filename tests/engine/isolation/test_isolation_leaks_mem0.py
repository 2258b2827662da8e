"""The leak audit of a mem0 store: namespaces are the identities, a memory copied into
another user's namespace is a leak, and memories no identity of the plugin reads are
orphans."""

from __future__ import annotations

import pytest
from qdrant_client import models as qm

from amem_tui.config import Settings
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.leak_store import found
from tests.support.mem0_stores import (
    ALICE_COFFEE,
    ALICE_EXPLICIT_MAIN,
    ALICE_SUBAGENT,
    TEXTS,
    TS_COLLECTION,
    build_mem0_stores,
    mid,
    openclaw_json,
    typescript_payload,
)

BOB_COPY = mid(41)
NO_USER = mid(42)


def _plant(store: QdrantStore, vectors: list[list[float]]) -> None:
    # Written a week after alice's: the later of two memories alike is the copy.
    copied = typescript_payload(ALICE_COFFEE) | {"user_id": "bob", "createdAt": "2026-02-08"}
    orphan = {"data": "A memory the SDK wrote without a user", "createdAt": "2026-02-01"}
    store.client.upsert(
        TS_COLLECTION,
        points=[
            qm.PointStruct(id=BOB_COPY, vector=vectors[0], payload=copied),
            qm.PointStruct(id=NO_USER, vector=vectors[1], payload=orphan),
        ],
        wait=True,
    )


@pytest.mark.qdrant_client_only
def test_a_memory_copied_into_another_users_namespace_and_the_orphans(
    store: QdrantStore,
) -> None:
    engine = make_engine(store, settings=Settings(collection=TS_COLLECTION))
    build_mem0_stores(store.client, engine.embedder)
    texts = [TEXTS[ALICE_COFFEE], "A memory the SDK wrote without a user"]
    _plant(store, engine.embedder.embed_documents(texts).tolist())
    report = engine.leaks([TS_COLLECTION])
    assert found(report) == {
        ("content-copied", "alice", "bob", (BOB_COPY, ALICE_COFFEE)),
        ("orphan-namespace", "alice:agent:subagent-helper", None, (ALICE_SUBAGENT,)),
        ("orphan-namespace", "alice:agent:main", None, (ALICE_EXPLICIT_MAIN,)),
        ("orphan-namespace", None, None, (NO_USER,)),
    }
    assert "bob" in report.agents and "alice:agent:dev" in report.agents
    copied = next(f for f in report.findings if f.kind == "content-copied")
    assert (copied.path, copied.certainty) == ("search", "certain")


@pytest.mark.qdrant_client_only
def test_another_user_than_the_plugins_is_an_orphan(store: QdrantStore, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    config = tmp_path / "openclaw.json"
    config.write_text(json.dumps(openclaw_json(user="alice")), encoding="utf-8")
    from amem_tui.config import load_settings

    settings = load_settings({"config_file": config, "collection": TS_COLLECTION})
    engine = make_engine(store, settings=settings)
    build_mem0_stores(store.client, engine.embedder)
    orphans = {
        f.from_agent for f in engine.leaks([TS_COLLECTION]).findings if f.kind == "orphan-namespace"
    }
    assert {"bob", "bob:agent:dev"} <= orphans
