"""The health report and the contradiction desk on stores other tools wrote."""

from __future__ import annotations

from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.mem0_stores import TS_COLLECTION, mem0_engine
from tests.support.real_stores import real_settings


def test_a_store_openclaw_amem_wrote_is_read_as_it_is(real_store: QdrantStore) -> None:
    engine = make_engine(real_store, settings=real_settings())
    report = engine.health()
    # Its Mode A alias holds bge-m3 vectors, its Mode B collection the legacy model's:
    # openclaw-amem could not open both in one process.
    [mixed] = report.of_kind("mixed-models")
    assert "amem_notes (alias of amem_notes_v2)" in mixed.why
    assert {"main", "dev", "sandbox"} <= set(report.agents)
    assert report.checks["stale-alias"].state == "ok"  # the alias is on the newest generation
    assert engine.conflicts().collections == ["amem_notes_v2", "amem_notes_sandbox"]


def test_a_mem0_store_is_said_not_checked() -> None:
    engine = mem0_engine()
    report = engine.health()
    assert report.problems == []
    check = report.checks["hollow-notes"]
    assert check.state == "not checked" and TS_COLLECTION in check.detail
    assert engine.conflicts().pairs == []
