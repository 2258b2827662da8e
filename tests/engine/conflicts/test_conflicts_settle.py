"""Settling a flagged pair: keep A, keep B, keep both, a dangling flag cleared; each a
recorded, versioned run that undo takes back exactly; dry runs and bad input write
nothing; the write rule names itself."""

from __future__ import annotations

import json
from typing import Any

import pytest

from amem_tui.engine import InvalidInput, MemoryEngine, PermissionDenied, ReadOnlyStore
from amem_tui.engine.activity import Activity
from amem_tui.engine.for_apps import (
    ConflictNoteMissing,
    NotAConflictPair,
    name_merges,
    run_activity,
)
from amem_tui.engine.store.base import NoteStore
from tests.support import amem_sweep
from tests.support.conflict_store import SCANNED, plant_conflicts
from tests.support.consolidation_data import MODE_A, nid
from tests.support.engines import make_engine

BOOKKEEPING = ("amem_notes__amem_runs", "amem_notes__amem_versions")


def stored(engine: MemoryEngine, key: str) -> dict[str, Any]:
    points = engine.store.retrieve(MODE_A, [nid(key)], with_vectors=True)
    assert points, key
    return {"payload": points[0].payload, "vector": points[0].vector}


def raw(engine: MemoryEngine, key: str) -> str:
    """A note's payload as the store gives it back, key order included."""
    return json.dumps(stored(engine, key)["payload"], ensure_ascii=False)


def everything(store: NoteStore) -> dict[str, Any]:
    """Every point of the notes and of their bookkeeping (run log, versions)."""
    out: dict[str, Any] = {}
    for collection in (MODE_A, "amem_notes_sandbox", *BOOKKEEPING):
        if store.collection_info(collection) is None:
            out[collection] = None
            continue
        for point in store.scroll(collection, None, limit=10_000, with_vectors=True):
            out[f"{collection}/{point.id}"] = (point.payload, point.vector)
    return out


@pytest.fixture
def planted(engine: MemoryEngine) -> MemoryEngine:
    plant_conflicts(engine)
    return engine


def test_keep_a_retires_b_as_openclaw_amem_does_and_clears_a(planted: MemoryEngine) -> None:
    b_before = stored(planted, "inside-old")["payload"]
    done = planted.agent("main").conflicts.resolve(
        nid("inside-new"), nid("inside-old"), "A", reason="she moved"
    )
    assert done.applied and done.retired == nid("inside-old")
    b_after = stored(planted, "inside-old")["payload"]
    # invalidateNote's exact write: is_active false, nothing else.
    assert {k: v for k, v in b_after.items() if b_before.get(k) != v} == {"is_active": False}
    assert set(b_before) == set(b_after)
    a_after = stored(planted, "inside-new")["payload"]
    assert (a_after["conflict"], a_after["conflicts_with"], a_after["conflict_reason"]) == (
        False,
        [],
        "",
    )
    assert a_after["conflict_scanned_at"] == SCANNED
    listed = planted.agent("main").conflicts.list()
    assert all(nid("inside-new") not in p.ids for p in listed.pairs)
    assert all(d.note.id != nid("inside-new") for d in listed.dangling)


def test_keep_b_retires_a(planted: MemoryEngine) -> None:
    done = planted.agent("main").conflicts.resolve(nid("inside-new"), nid("inside-old"), "B")
    assert done.retired == nid("inside-new")
    assert stored(planted, "inside-new")["payload"]["is_active"] is False
    assert stored(planted, "inside-old")["payload"]["conflict"] is False


def test_undo_brings_a_retired_note_back_byte_identical(planted: MemoryEngine) -> None:
    before = {key: raw(planted, key) for key in ("inside-new", "inside-old")}
    vectors = {key: stored(planted, key)["vector"] for key in ("inside-new", "inside-old")}
    done = planted.agent("main").conflicts.resolve(nid("inside-new"), nid("inside-old"), "A")
    assert raw(planted, "inside-old") != before["inside-old"]
    undo = planted.agent("main").undo(done.run.id)
    assert undo.trigger == "undo" and undo.settles == done.decision
    for key in ("inside-new", "inside-old"):
        assert raw(planted, key) == before[key]
        assert stored(planted, key)["vector"] == vectors[key]
    again = planted.agent("main").conflicts.list()
    assert frozenset((nid("inside-new"), nid("inside-old"))) in {
        frozenset(p.ids) for p in again.pairs
    }


def test_undo_restores_a_legacy_note_without_is_active(engine: MemoryEngine) -> None:
    plant_conflicts(engine)
    old = stored(engine, "inside-old")["payload"]
    del old["is_active"]
    engine.store.set_payload(MODE_A, nid("inside-old"), old)
    before = raw(engine, "inside-old")
    done = engine.agent("main").conflicts.resolve(nid("inside-new"), nid("inside-old"), "A")
    assert stored(engine, "inside-old")["payload"]["is_active"] is False
    engine.agent("main").undo(done.run.id)
    assert raw(engine, "inside-old") == before


def test_a_decision_is_versioned_and_in_history_and_the_activity_log(
    planted: MemoryEngine,
) -> None:
    view = planted.agent("main")
    done = view.conflicts.resolve(nid("inside-new"), nid("inside-old"), "A", reason="moved")
    labels = [v.label for v in view.versions(nid("inside-old")).versions]
    assert labels[-1] == "conflict settled"
    assert [v.label for v in view.versions(nid("inside-new")).versions][-1] == "conflict settled"
    runs = view.history()
    assert runs[0].id == done.run.id and runs[0].trigger == "resolve"
    assert runs[0].settles is not None and runs[0].settles.reason == "moved"
    said = run_activity(runs[0])
    assert said.kind == "settled"
    assert "kept “The user moved to Lisbon" in said.text and "retired “The user lives" in said.text
    deleted = Activity("deleted", "was deleted", nid("inside-old"))
    assert "was retired: it contradicted" in name_merges([deleted], runs)[0].text
    undo = view.undo(done.run.id)
    assert "undid a conflict decision" in run_activity(undo).text
    assert [v.label for v in view.versions(nid("inside-old")).versions][-1] == (
        "conflict decision undone"
    )
    # A decision is no consolidation: the store's figures count no run or merge for it.
    main = next(a for a in planted.stats().agents if a.agent == "main")
    assert (main.runs, main.merges, main.undo_runs) == (0, 0, 0)


def test_keep_both_leaves_the_flags_as_amems_sweep_treats_settled(planted: MemoryEngine) -> None:
    # Every other note of main's batch has been read by the sweep already.
    for point in planted.store.scan(MODE_A):
        if not point.payload.get("conflict_scanned_at"):
            planted.store.set_payload(
                MODE_A, point.id, {**point.payload, "conflict_scanned_at": SCANNED}
            )
    a, b = nid("inside-new"), nid("inside-old")
    batch = next(x for x in amem_sweep.batches(planted.store, MODE_A, "main") if a in x)
    assert b in batch  # one batch: the next sweep would read the pair again if asked
    planted.agent("main").conflicts.resolve(a, b, "both", reason="both hold")
    for key in ("inside-new", "inside-old"):
        payload = stored(planted, key)["payload"]
        assert payload["is_active"] is True
        assert not amem_sweep.pending_conflict(payload)  # the quality scan lets it be
        assert payload["conflicts_with"] == [] and payload["conflict_reason"] == ""
    assert all(a not in x for x in amem_sweep.read_next(planted.store, MODE_A, "main"))


def test_keep_both_marks_an_unscanned_note_scanned(engine: MemoryEngine) -> None:
    plant_conflicts(engine)
    old = stored(engine, "inside-old")["payload"]
    engine.store.set_payload(MODE_A, nid("inside-old"), {**old, "conflict_scanned_at": ""})
    engine.agent("main").conflicts.resolve(nid("inside-new"), nid("inside-old"), "both")
    assert stored(engine, "inside-old")["payload"]["conflict_scanned_at"]


def test_a_dry_run_writes_nothing(planted: MemoryEngine) -> None:
    before = everything(planted.store)
    for keep in ("A", "B", "both"):
        plan = planted.agent("main").conflicts.resolve(
            nid("inside-new"), nid("inside-old"), keep, dry_run=True
        )
        assert plan.dry_run and not plan.applied and plan.run.status == "planned"
        assert {c.note for c in plan.changes} == {nid("inside-new"), nid("inside-old")}
    cleared = planted.agent("main").conflicts.clear(nid("gone-missing"), dry_run=True)
    assert cleared.changes[0].set["conflicts_with"] == []
    assert everything(planted.store) == before


@pytest.mark.parametrize(
    "a, b, error",
    [
        ("inside-new", "plain", NotAConflictPair),  # not flagged together
        ("inside-new", "cross-main", NotAConflictPair),  # both flagged, not with each other
        ("inside-new", "inside-new", NotAConflictPair),
        ("gone-retired", "retired", NotAConflictPair),  # settled already
        ("inside-new", "never-written", ConflictNoteMissing),
        ("cross-main", "dev-a", ConflictNoteMissing),  # dev's private note: unreadable
    ],
)
def test_bad_input_is_refused_with_a_typed_error_and_nothing_written(
    planted: MemoryEngine, a: str, b: str, error: type[Exception]
) -> None:
    before = everything(planted.store)
    with pytest.raises(error) as raised:
        planted.agent("main").conflicts.resolve(nid(a), nid(b), "A")
    assert getattr(raised.value, "exit_code", None) == 2
    with pytest.raises(error):
        planted.agent("main").conflicts.resolve(nid(a), nid(b), "A", dry_run=True)
    assert everything(planted.store) == before


def test_an_unreadable_note_reads_as_a_missing_one(planted: MemoryEngine) -> None:
    desk = planted.agent("main").conflicts
    with pytest.raises(ConflictNoteMissing) as unreadable:
        desk.resolve(nid("cross-main"), nid("dev-a"), "both")
    with pytest.raises(ConflictNoteMissing) as missing:
        desk.resolve(nid("cross-main"), nid("never-written"), "both")
    shape = str(unreadable.value).replace(nid("dev-a"), "X")
    assert shape == str(missing.value).replace(nid("never-written"), "X")


def test_keep_must_be_a_b_or_both(planted: MemoryEngine) -> None:
    with pytest.raises(InvalidInput):
        planted.agent("main").conflicts.resolve(nid("inside-new"), nid("inside-old"), "C")  # type: ignore[arg-type]


def test_a_note_the_agent_may_not_modify_is_refused_with_the_rule_named(
    planted: MemoryEngine,
) -> None:
    before = everything(planted.store)
    desk = planted.agent("main").conflicts
    for keep in ("A", "B", "both"):
        with pytest.raises(PermissionDenied) as denied:
            desk.resolve(nid("cross-main"), nid("cross-dev"), keep)  # type: ignore[arg-type]
        assert denied.value.exit_code == 3
        assert denied.value.note_id == nid("cross-dev")
        assert "only its owner (dev) or its writers (dev) may modify it" in str(denied.value)
    refusal = desk.refusal(nid("cross-main"), nid("cross-dev"))
    assert isinstance(refusal, PermissionDenied)
    assert everything(planted.store) == before
    # With "*" among its writers, anyone may: the same decision goes through.
    dev_note = stored(planted, "cross-dev")["payload"]
    planted.store.set_payload(MODE_A, nid("cross-dev"), {**dev_note, "writers": ["dev", "*"]})
    assert desk.refusal(nid("cross-main"), nid("cross-dev")) is None
    assert desk.resolve(nid("cross-main"), nid("cross-dev"), "A").applied


def test_a_read_only_store_refuses_a_decision_but_shows_a_dry_run(store: NoteStore) -> None:
    plant_conflicts(make_engine(store))
    from tests.support.engines import demo_like_settings

    ro = make_engine(store, settings=demo_like_settings(read_only=True))
    desk = ro.agent("main").conflicts
    with pytest.raises(ReadOnlyStore):
        desk.resolve(nid("inside-new"), nid("inside-old"), "A")
    assert desk.resolve(nid("inside-new"), nid("inside-old"), "A", dry_run=True).dry_run


def test_a_dangling_flag_is_cleared_and_undone(planted: MemoryEngine) -> None:
    view = planted.agent("main")
    for key in ("gone-missing", "gone-retired", "unpaired"):
        before = raw(planted, key)
        done = view.conflicts.clear(nid(key), reason="partner gone")
        payload = stored(planted, key)["payload"]
        assert payload["conflict"] is False and payload["conflicts_with"] == []
        assert done.decision.keep == "flag"
        assert all(d.note.id != nid(key) for d in view.conflicts.list().dangling)
        view.undo(done.run.id)
        assert raw(planted, key) == before
    # The retired partner stays retired: clearing a flag touches only its own note.
    assert stored(planted, "retired")["payload"]["is_active"] is False


def test_only_a_dangling_flag_can_be_cleared(planted: MemoryEngine) -> None:
    desk = planted.agent("main").conflicts
    with pytest.raises(NotAConflictPair):
        desk.clear(nid("inside-new"))  # its partner is there: a pair to decide
    with pytest.raises(NotAConflictPair):
        desk.clear(nid("plain"))
    with pytest.raises(ConflictNoteMissing):
        desk.clear(nid("dev-a"))


def test_undo_is_refused_when_a_note_changed_since_the_decision(planted: MemoryEngine) -> None:
    view = planted.agent("main")
    done = view.conflicts.resolve(nid("inside-new"), nid("inside-old"), "both")
    # The sweep flags the note again meanwhile.
    payload = stored(planted, "inside-new")["payload"]
    planted.store.set_payload(
        MODE_A, nid("inside-new"), {**payload, "conflict": True, "conflicts_with": [nid("plain")]}
    )
    with pytest.raises(InvalidInput, match="changed since run"):
        view.undo(done.run.id)
