"""A note's neighbourhood as one agent sees it: two links out in both directions, the
unreadable neighbours counted and never named, the links across scopes marked."""

from __future__ import annotations

import json

import pytest

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import NotFound


def chain(engine: MemoryEngine) -> dict[str, str]:
    """main's private trip <- shared freeze -> shared API note -> dev's private tests;
    dev's private debug note links to the freeze note."""
    main, dev = engine.agent("main"), engine.agent("dev")
    trip = main.add("Flight to Lisbon for the offsite is booked for March")
    tests = dev.add("Run the integration tests with make test-int before merging")
    api = main.add("All API endpoints use snake_case JSON keys", shared=True, links=[tests.id])
    freeze = main.add(
        "Production deploy is frozen until the audit ends", shared=True, links=[trip.id, api.id]
    )
    debug = dev.add("Debugging the deploy pipeline while the freeze holds", links=[freeze.id])
    return {
        "trip": trip.id,
        "tests": tests.id,
        "api": api.id,
        "freeze": freeze.id,
        "debug": debug.id,
    }


def test_two_links_out_both_ways_as_the_owner_sees_them(engine: MemoryEngine) -> None:
    ids = chain(engine)
    graph = engine.agent("main").neighbourhood(ids["freeze"])
    assert graph.reach == "shared"
    assert [(n.note.id, n.reach, n.crosses) for n in graph.links_to] == [
        (ids["trip"], "private", True),  # the shared note points into main's private notes
        (ids["api"], "shared", False),
    ]
    api = graph.links_to[1]
    assert api.beyond == [] and api.unreadable == 1  # dev's private note, counted only
    assert graph.unreadable_to == 0
    assert graph.linked_from == [] and graph.unreadable_from == 1  # dev's debug note


def test_another_agent_gets_counts_where_it_may_not_read(engine: MemoryEngine) -> None:
    ids = chain(engine)
    graph = engine.agent("dev").neighbourhood(ids["freeze"])
    assert [n.note.id for n in graph.links_to] == [ids["api"]]
    assert graph.unreadable_to == 1  # main's trip
    [api] = graph.links_to
    assert [(n.note.id, n.reach, n.crosses) for n in api.beyond] == [
        (ids["tests"], "private", True)
    ]
    [debug] = graph.linked_from
    assert (debug.note.id, debug.reach, debug.crosses) == (ids["debug"], "private", True)
    dumped = json.dumps(
        [n.note.model_dump(mode="json") for n in (*graph.links_to, *graph.linked_from)]
    )
    assert ids["trip"] not in dumped and "Lisbon" not in dumped


def test_depth_one_stops_at_the_first_link(engine: MemoryEngine) -> None:
    ids = chain(engine)
    graph = engine.agent("dev").neighbourhood(ids["freeze"], depth=1)
    assert [n.note.id for n in graph.links_to] == [ids["api"]]
    assert graph.links_to[0].beyond == [] and graph.links_to[0].unreadable == 0


def test_a_note_met_twice_is_shown_once_with_its_links(engine: MemoryEngine) -> None:
    main = engine.agent("main")
    first = main.add("The staging cluster runs in eu-west-1 for now")
    second = main.add("Staging database snapshots are taken nightly", links=[first.id])
    third = main.add("Restore drills use the staging snapshots", links=[first.id, second.id])
    graph = main.neighbourhood(third.id)
    assert [(n.note.id, n.seen_before) for n in graph.links_to] == [
        (first.id, False),
        (second.id, False),
    ]
    [again] = graph.links_to[1].beyond
    assert (again.note.id, again.seen_before, again.beyond) == (first.id, True, [])
    backwards = main.neighbourhood(first.id).linked_from
    assert sorted(n.note.id for n in backwards) == sorted([second.id, third.id])
    # third also links to second: met again one level out, and marked so
    assert [n.seen_before for b in backwards for n in b.beyond] == [True]


def test_dangling_links_are_counted_as_missing(engine: MemoryEngine) -> None:
    main = engine.agent("main")
    note = main.add(
        "The release checklist lives in the wiki", links=["0" * 8 + "-0000-4000-8000-" + "0" * 12]
    )
    graph = main.neighbourhood(note.id)
    assert graph.links_to == [] and graph.missing_to == 1 and graph.unreadable_to == 0


def test_a_note_the_agent_may_not_read_has_no_neighbourhood(engine: MemoryEngine) -> None:
    ids = chain(engine)
    with pytest.raises(NotFound):
        engine.agent("dev").neighbourhood(ids["trip"])
