"""What a change would do, before it happens: the checks it would flip and the results
that would enter or leave each agent's top hits, ranked exactly as the real search
ranks after the change, and nothing written."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from amem_tui.engine import MemoryEngine, PermissionDenied
from amem_tui.engine.isolation import (
    Consolidate,
    Delete,
    Publish,
    RecordedQuery,
    SetReaders,
    Unpublish,
    parse_checks,
)
from amem_tui.engine.store.edge import EdgeStore
from tests.support.engines import MovableClock, make_engine
from tests.support.leak_store import C_COPY, C_SECRET, L_GRANT, P_COPY, P_LINK, plant_leaks

CHECKS = f"""\
[[check]]
name = "main's offsite booking stays hidden from dev"
agent = "dev"
query = "offsite hotel booking reference Lisbon"
forbid = ["{P_LINK}"]
hidden_because = "private"

[[check]]
name = "dev recalls the CI credentials"
agent = "dev"
query = "CI deploy credentials staging bucket"
expect = ["CI deploy credentials"]
"""

QUERIES = [
    ("dev", "offsite hotel booking reference Lisbon"),
    ("main", "CI deploy credentials staging bucket"),
    ("dev", "VPN key rotation infra channel"),
    ("ops", "release checklist mobile app"),
    ("main", "release checklist mobile app"),
]


def _recorded() -> list[RecordedQuery]:
    return [RecordedQuery(store="s", agent=a, query=q, at="") for a, q in QUERIES]


def _tops(engine: MemoryEngine) -> dict[tuple[str, str], list[str]]:
    return {
        (a, q): [h.note.id for h in engine.named_agent(a).search(q).hits[:5]] for a, q in QUERIES
    }


@pytest.fixture
def planted(store: object) -> MemoryEngine:
    engine = make_engine(store, clock=MovableClock())  # type: ignore[arg-type]
    plant_leaks(engine)
    return engine


def test_a_publish_names_the_check_it_would_break(planted: MemoryEngine) -> None:
    before = _tops(planted)
    preview = planted.what_if(
        Publish("main", P_LINK), checks=parse_checks(CHECKS, "ci.toml"), queries=_recorded()
    )
    assert [(f.number, f.before, f.after) for f in preview.flips] == [(1, True, False)]
    assert preview.flips[0].failures[0].startswith(f"forbid '{P_LINK}': found at rank")
    moved = {(d.agent, d.query): d for d in preview.changed}
    assert P_LINK in moved[("dev", "offsite hotel booking reference Lisbon")].entered
    assert preview.notes == [P_LINK]
    # Nothing was written: the real searches and the note are as they were.
    assert _tops(planted) == before
    assert planted.agent("main").get(P_LINK).agent_id == "main"


@pytest.mark.parametrize(
    "change",
    [
        Publish("main", P_LINK),
        Unpublish("main", C_COPY),
        Delete("dev", C_SECRET),
        SetReaders("dev", L_GRANT, ()),
        Publish("main", P_COPY),
    ],
    ids=["publish", "unpublish", "delete", "readers", "publish-copy"],
)
def test_the_preview_ranks_exactly_as_the_search_after_the_change(
    planted: MemoryEngine, change: object
) -> None:
    file = parse_checks(CHECKS, "ci.toml")
    preview = planted.what_if(change, checks=file, queries=_recorded())  # type: ignore[arg-type]
    view = planted.named_agent(change.agent)  # type: ignore[attr-defined]
    if isinstance(change, Publish):
        view.publish(change.note)
    elif isinstance(change, Unpublish):
        view.unpublish(change.note)
    elif isinstance(change, Delete):
        view.delete(change.note)
    elif isinstance(change, SetReaders):
        view.update(change.note, readers=list(change.readers))
    after = _tops(planted)
    assert {(d.agent, d.query): d.after for d in preview.deltas} == after
    real = planted.check(file)
    assert preview.checks_after is not None
    assert [v.model_dump() for v in preview.checks_after.verdicts] == [
        v.model_dump() for v in real.verdicts
    ]


def test_a_change_the_store_would_refuse_is_refused(planted: MemoryEngine) -> None:
    with pytest.raises(PermissionDenied) as previewed:
        planted.what_if(Unpublish("dev", C_COPY))  # only its owner (main) may
    with pytest.raises(PermissionDenied) as real:
        planted.agent("dev").unpublish(C_COPY)
    assert previewed.value.message == real.value.message
    assert planted.agent("main").get(C_COPY).agent_id == "shared"


def test_a_consolidation_preview_shows_the_merged_notes_leaving(planted: MemoryEngine) -> None:
    main = planted.agent("main")
    first = main.add("Grocery list for the team lunch: bread cheese olives tomatoes")
    second = main.add("Team lunch grocery list: olives tomatoes bread cheese")
    plan = main.plan_consolidation()
    (merge,) = plan.run.merges
    query = [RecordedQuery(store="s", agent="main", query="grocery list team lunch", at="")]
    preview = planted.what_if(Consolidate(plan), queries=query)
    (delta,) = preview.deltas
    assert delta.left == merge.dropped and {first.id, second.id} == {merge.keeper, *merge.dropped}
    # The plan was not applied: it still applies, exactly as previewed.
    main.apply(plan)
    hits = [h.note.id for h in main.search("grocery list team lunch").hits[:5]]
    assert hits == delta.after


def _files(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_a_dry_run_leaves_the_store_byte_identical(tmp_path: Path) -> None:
    folder = tmp_path / "edge"
    engine = make_engine(EdgeStore(folder))
    plant_leaks(engine)
    file = parse_checks(CHECKS, "ci.toml")
    # Opened, searched (every collection: hidden matches) and closed twice, so that what
    # opening and a first search leave behind (the saved note index, a shard settled on
    # its first load) is there before the snapshot.
    for _ in range(2):
        engine.check(file)
        engine.close()
        engine = make_engine(EdgeStore(folder))
    engine.close()
    before = _files(folder)
    engine = make_engine(EdgeStore(folder))
    preview = engine.what_if(Publish("main", P_LINK), checks=file, queries=_recorded())
    engine.close()
    assert preview.flips
    assert _files(folder) == before


def test_without_queries_it_reruns_every_agents_recorded_ones(planted: MemoryEngine) -> None:
    kept = planted.query_history()
    for agent, query in QUERIES:
        kept.record(agent, query)
    preview = planted.what_if(Publish("main", P_LINK))
    explicit = planted.what_if(Publish("main", P_LINK), queries=kept.everyone())
    assert {(d.agent, d.query) for d in preview.deltas} == set(QUERIES)
    assert preview.deltas == explicit.deltas
