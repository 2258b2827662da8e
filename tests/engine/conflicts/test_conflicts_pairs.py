"""Flagged notes read as pairs: what each agent can read, store-wide, and the dangling
flags; every planted item found with its kind, and no look-alike listed."""

from __future__ import annotations

import pytest

from amem_tui.engine import ConflictList, MemoryEngine
from amem_tui.engine.for_apps import plain_diff
from tests.support.conflict_store import MISSING, SCANNED, plant_conflicts
from tests.support.consolidation_data import nid


def pair_ids(found: ConflictList) -> set[frozenset[str]]:
    return {frozenset(p.ids) for p in found.pairs}


def pair(*keys: str) -> frozenset[str]:
    return frozenset(nid(k) for k in keys)


def dangling(found: ConflictList) -> dict[str, tuple[list[tuple[str, str]], int, bool]]:
    return {
        d.note.id: ([(g.id, g.state) for g in d.gone], d.hidden, d.unpaired) for d in found.dangling
    }


@pytest.fixture
def planted(engine: MemoryEngine) -> MemoryEngine:
    plant_conflicts(engine)
    return engine


def test_an_agent_lists_the_pairs_it_can_read(planted: MemoryEngine) -> None:
    found = planted.agent("main").conflicts.list()
    assert found.agent == "main"
    assert pair_ids(found) == {pair("cross-main", "cross-dev"), pair("inside-new", "inside-old")}
    assert dangling(found) == {
        # As an agent, a missing partner and an unreadable one look the same: counted.
        nid("gone-missing"): ([], 1, False),
        nid("gone-retired"): ([(nid("retired"), "retired")], 0, False),
        nid("unpaired"): ([], 0, True),
    }


def test_another_agent_sees_only_its_own_pairs_and_counts_what_it_cannot_read(
    planted: MemoryEngine,
) -> None:
    found = planted.agent("dev").conflicts.list()
    assert pair_ids(found) == {pair("dev-a", "dev-b")}
    # dev reads its shared note, not main's private partner: named nowhere.
    assert dangling(found) == {nid("cross-dev"): ([], 1, False)}
    assert nid("cross-main") not in found.model_dump_json()


def test_a_mode_b_agent_reads_its_own_collection(planted: MemoryEngine) -> None:
    found = planted.agent("sandbox").conflicts.list()
    assert pair_ids(found) == {pair("sb-a", "sb-b")}
    assert found.collections == ["amem_notes_sandbox"]
    assert found.dangling == []


def test_store_wide_every_pair_and_every_gone_partner_is_named(planted: MemoryEngine) -> None:
    found = planted.conflicts()
    assert found.agent is None
    assert pair_ids(found) == {
        pair("cross-main", "cross-dev"),
        pair("inside-new", "inside-old"),
        pair("dev-a", "dev-b"),
        pair("sb-a", "sb-b"),
    }
    assert dangling(found) == {
        nid("gone-missing"): ([(MISSING, "missing")], 0, False),
        nid("gone-retired"): ([(nid("retired"), "retired")], 0, False),
        nid("unpaired"): ([], 0, True),
    }
    assert sorted(found.collections) == ["amem_notes", "amem_notes_sandbox"]


def test_look_alikes_are_never_listed(planted: MemoryEngine) -> None:
    listed = planted.conflicts().model_dump_json()
    for key in ("settled", "plain"):
        assert nid(key) not in listed
    # The retired note is named only as the gone partner of its flagged partner.
    found = planted.conflicts()
    assert all(nid("retired") not in (p.a.id, p.b.id) for p in found.pairs)
    assert all(d.note.id != nid("retired") for d in found.dangling)


def test_a_pair_shows_both_texts_owners_scopes_reason_and_scan_time(
    planted: MemoryEngine,
) -> None:
    found = planted.agent("main").conflicts.list()
    cross = next(p for p in found.pairs if p.a.id == nid("cross-main"))
    assert (cross.a.owner, cross.a.scope, cross.b.owner, cross.b.scope) == (
        "main",
        "private",
        "dev",
        "shared",
    )
    assert cross.b.content == "The staging database is rebuilt every Sunday at noon"
    assert cross.reason == "two schedules for the staging rebuild"
    assert cross.scanned_at == SCANNED
    data = cross.to_json()
    assert {"a", "b", "reason", "owners", "scanned_at"} <= set(data)
    assert data["owners"] == ["main", "dev"]
    # main may not modify dev's shared note: the rule is named on that side.
    assert cross.a.refusal is None
    assert cross.b.refusal is not None and "only its owner (dev)" in cross.b.refusal


def test_the_newer_note_comes_first_and_the_diff_reads_older_to_newer(
    planted: MemoryEngine,
) -> None:
    inside = planted.agent("main").conflicts.pair(nid("inside-old"), nid("inside-new"))
    assert inside.a.id == nid("inside-old")  # as asked
    listed = planted.agent("main").conflicts.list().pairs
    newer_first = next(p for p in listed if p.reason == "two home cities")
    assert newer_first.a.id == nid("inside-new")
    text = plain_diff(newer_first.diff())
    assert text.startswith("The user [-lives -]{+moved to Lisbon +}in [-Berlin -]")


def test_a_one_sided_flag_is_still_a_pair(engine: MemoryEngine) -> None:
    plant_conflicts(engine)
    # A sweep that stopped between its two patches leaves one note naming the other.
    engine.store.set_payload(
        "amem_notes",
        nid("inside-old"),
        {**engine.store.retrieve("amem_notes", [nid("inside-old")])[0].payload}
        | {"conflict": False, "conflicts_with": [], "conflict_reason": ""},
    )
    found = engine.agent("main").conflicts.list()
    inside = next(p for p in found.pairs if nid("inside-old") in p.ids)
    assert inside.one_sided
