"""Property: a run changes only the acting agent's private notes, and undo restores all."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.consolidation_data import MODE_A, MODE_B, make_note, nid, put, snapshot, turned
from tests.support.engines import fixed_ids, make_engine

# Weighted so that most examples hold near-duplicates that may be merged.
SCOPES = ["main", "main", "main", "dev", "dev", "shared:main", "shared:dev", "sandbox", "sandbox"]

note_spec = st.fixed_dictionaries(
    {
        "scope": st.sampled_from(SCOPES),
        "base": st.integers(0, 1),
        "angle": st.sampled_from([0, 4, 12, 20, 35, 60]),
        "category": st.sampled_from(["Personal", "Personal", "Personal", "Project"]),
        "knowledge": st.sampled_from([False, False, False, False, True]),
        "active": st.sampled_from([True, True, True, True, False, None]),
        "length": st.integers(0, 3),
        "links": st.lists(st.integers(0, 11), max_size=3),
    }
)


def build(specs: list[dict[str, Any]]) -> tuple[MemoryEngine, QdrantStore]:
    store = QdrantStore(path=":memory:")
    engine = make_engine(store, new_id=fixed_ids(7))
    by_collection: dict[str, list] = {MODE_A: [], MODE_B: []}
    for i, spec in enumerate(specs):
        scope = spec["scope"]
        agent_id, owner = (
            ("shared", scope.split(":")[1]) if scope.startswith("shared") else (scope, scope)
        )
        extra: dict[str, Any] = {}
        if spec["active"] is False:
            extra["is_active"] = False
        note = make_note(
            f"n{i}",
            agent_id,
            f"Note number {i} about topic {spec['base']}" + " and more" * spec["length"],
            owner=owner,
            category=spec["category"],
            note_type="knowledge" if spec["knowledge"] else "memory",
            links=[nid(f"n{j}") for j in spec["links"] if j < len(specs)],
            retrieval_count=i,
            legacy=spec["active"] is None,
            **extra,
        )
        vector = turned(2 * spec["base"], spec["angle"], 2 * spec["base"] + 1 + (i % 2) * 10)
        collection = MODE_B if agent_id == "sandbox" else MODE_A
        by_collection[collection].append((note, vector))
    for collection, items in by_collection.items():
        if items:
            put(engine, collection, items)
    return engine, store


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    specs=st.lists(note_spec, min_size=4, max_size=14),
    threshold=st.sampled_from([0.5, 0.8, 0.95]),
)
def test_only_the_agents_private_notes_change_and_undo_restores(
    specs: list[dict[str, Any]], threshold: float
) -> None:
    engine, store = build(specs)
    first = snapshot(store)
    runs = []
    merges = 0
    for agent in ("main", "dev", "sandbox"):
        before = snapshot(store)
        run = engine.agent(agent).consolidate(threshold=threshold)
        runs.append(run)
        merges += len(run.merges)
        after = snapshot(store)
        collection = MODE_B if agent == "sandbox" else MODE_A
        for key, (payload, vector) in before.items():
            new_payload, new_vector = after[key]
            assert new_payload["content"] == payload["content"]  # nothing is ever lost
            own = key.startswith(collection + "/") and payload.get("agent_id") == agent
            candidate = (
                own
                and payload.get("note_type") != "knowledge"
                and payload.get("is_active") is not False
            )
            if not candidate:  # shared, other agents', knowledge, deleted: field for field
                assert (new_payload, new_vector) == (payload, vector), key
        touched = {m.keeper for m in run.merges} | {d for m in run.merges for d in m.dropped}
        touched |= {c.note for c in run.link_changes}
        changed = {key.split("/")[1] for key in before if before[key] != after[key]}
        assert changed == touched
    event(f"merges: {min(merges, 3)}")
    for run in reversed(runs):
        if run.merges:
            engine.agent(run.agent).undo(run.id)
    assert snapshot(store) == first
