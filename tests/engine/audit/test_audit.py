"""The audit of stores that openclaw-amem and mem0 wrote: every section of the report."""

from __future__ import annotations

from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.engines import make_engine
from tests.support.real_stores import (
    AMEM_REAL,
    BAD_AGENT_LIST,
    BAD_NO_AGENT,
    CAMEL,
    DEV_READERS,
    DEV_SHARED,
    LEGACY,
    MAIN_PRIVATE,
    MAIN_SHARED,
    MALFORMED,
    MEM0,
    MEM0_AGENT_ONLY,
    MEM0_BAD,
    SANDBOX,
    real_settings,
)


def test_audit_reports_each_section(real_store: QdrantStore) -> None:
    engine = make_engine(real_store, settings=real_settings())
    report = engine.audit()
    assert [c.name for c in report.collections] == [AMEM_REAL, SANDBOX]
    assert {o: [r.id for r in refs] for o, refs in report.shared_by_owner.items()} == {
        "main": [MAIN_SHARED],
        "dev": [DEV_SHARED],
    }
    assert [r.id for r in report.readers_beyond_owner] == [DEV_READERS]
    assert {m.id for m in report.malformed} == MALFORMED
    bad = {m.id: m for m in report.malformed}
    assert "agent_id is missing" in bad[BAD_NO_AGENT].problems
    assert any("list" in p for p in bad[BAD_AGENT_LIST].problems)
    legacy = {n.id: n for n in report.legacy}
    assert set(legacy) == {LEGACY, CAMEL}
    assert legacy[LEGACY].missing == ["is_active", "owner", "readers", "writers"]
    assert legacy[LEGACY].owner == "main"
    assert [(link.source, link.target, link.exposed_to) for link in report.cross_scope_links] == [
        (MAIN_SHARED, MAIN_PRIVATE, ["*"])
    ]
    assert [(a.agent, a.collections) for a in report.unconfigured_agents] == [("ops", [AMEM_REAL])]
    # The same report on a mem0 collection: agents come from user_id.
    mem0 = engine.audit([MEM0])
    # No user_id: the OpenClaw mem0 plugin never reads it, so it is listed, never shown.
    assert [m.id for m in mem0.malformed] == [MEM0_AGENT_ONLY, MEM0_BAD]
    no_user = next(m for m in mem0.malformed if m.id == MEM0_AGENT_ONLY)
    assert no_user.problems == [
        "user_id is missing: the OpenClaw mem0 plugin never reads this memory"
    ]
    assert [a.agent for a in mem0.unconfigured_agents] == ["ops"]
    assert mem0.shared_by_owner == {}
