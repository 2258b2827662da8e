"""Aliases a migration left behind, on stores that have aliases; a store without any
says so instead of passing."""

from __future__ import annotations

from pathlib import Path

import pytest
from qdrant_client import models as qm

from amem_tui.engine.store.edge import EdgeStore
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.consolidation_data import axis, make_note, nid
from tests.support.engines import fixed_clock, make_engine
from tests.support.health_store import NOW, health_settings


def collection(store: QdrantStore, name: str, notes: int) -> None:
    store.ensure_collection(name, 64, "amem-test/hash")
    points = [
        qm.PointStruct(
            id=nid(f"{name}-{i}"),
            vector=axis(i).tolist(),
            payload=make_note(f"{name}-{i}", "main", f"note {i} of {name}").to_payload(),
        )
        for i in range(notes)
    ]
    store.client.upsert(name, points=points, wait=True)


def alias(store: QdrantStore, name: str, target: str) -> None:
    op = qm.CreateAliasOperation(
        create_alias=qm.CreateAlias(collection_name=target, alias_name=name)
    )
    store.client.update_collection_aliases(change_aliases_operations=[op])


@pytest.mark.qdrant_client_only
def test_an_alias_left_on_an_older_generation_is_stale(store: QdrantStore, tmp_path: Path) -> None:
    collection(store, "team_v2", 3)
    collection(store, "team_v3", 3)  # amem-migrate's next target, as full as the source
    collection(store, "lab_v2", 3)
    collection(store, "lab_v3", 1)  # a migration under way: not stale yet
    collection(store, "docs_v4", 2)
    alias(store, "team", "team_v2")
    alias(store, "lab", "lab_v2")
    alias(store, "docs", "docs_v4")  # on the newest generation: fine
    engine = make_engine(store, settings=health_settings(tmp_path), clock=fixed_clock(NOW))
    report = engine.health()
    stale = report.of_kind("stale-alias")
    assert [(p.severity, p.collection) for p in stale] == [("warning", "team")]
    assert "team_v3" in stale[0].why and "team_v2" in stale[0].why
    assert report.checks["stale-alias"].state == "problems"


def test_a_store_without_aliases_says_so(tmp_path: Path) -> None:
    store = EdgeStore(tmp_path / "edge")
    try:
        engine = make_engine(store, settings=health_settings(tmp_path), clock=fixed_clock(NOW))
        check = engine.health().checks["stale-alias"]
        assert (check.state, check.detail) == (
            "not supported",
            "aliases: not supported by this store",
        )
    finally:
        store.close()
