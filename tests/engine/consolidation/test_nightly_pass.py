"""The nightly pass through the engine's public API: every agent, once a day with
``due``, under a run lock kept in the store (on every backend)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from amem_tui.engine import NightlyPass, PassBusy, ReadOnlyStore
from amem_tui.engine.consolidation.runlock import RunLock
from amem_tui.engine.consolidation.runlog import runs_collection
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.for_apps import PassProgress
from amem_tui.engine.store.base import NoteStore
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.consolidation_data import MODE_A, MODE_B, make_note, put, turned
from tests.support.engines import demo_like_settings, make_engine
from tests.support.real_stores import AMEM_ALIAS, MEM0, real_settings
from tests.support.real_stores import snapshot as real_snapshot


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def seeded(store: NoteStore, clock: Clock) -> MemoryEngine:
    """main and dev (Mode A) and sandbox (Mode B), each with one pair of near-duplicates,
    and a note of a fourth agent nobody configured (found in the store)."""
    engine = make_engine(
        store, settings=demo_like_settings(consolidation_timezone="UTC"), clock=clock
    )
    for agent, collection in (
        ("main", MODE_A),
        ("dev", MODE_A),
        ("ops", MODE_A),
        ("sandbox", MODE_B),
    ):
        put(
            engine,
            collection,
            [
                (
                    make_note(f"{agent}-1", agent, f"{agent} keeps this longer note"),
                    turned(0, 0, 1),
                ),
                (make_note(f"{agent}-2", agent, f"{agent} copy"), turned(0, 5, 1)),
            ],
        )
    return engine


AGENTS = ["main", "dev", "sandbox", "ops"]


def test_every_agent_once_a_day_with_due(store: NoteStore) -> None:
    clock = Clock(datetime(2026, 11, 20, 3, 0, tzinfo=UTC))
    engine = seeded(store, clock)
    steps: list[PassProgress] = []
    nightly = NightlyPass(engine, runner="a test")
    first = nightly.run(due=True, trigger="scheduled", progress=steps.append)

    assert first.ran and not first.skipped and first.errors == {}
    assert [r.agent for r in first.runs] == AGENTS
    assert [r.collection for r in first.runs] == [MODE_A, MODE_A, MODE_B, MODE_A]
    assert all(len(r.merges) == 1 and r.trigger == "scheduled" for r in first.runs)
    assert [(s.agent, s.phase) for s in steps if s.phase in ("planning", "done")] == [
        (agent, phase) for agent in AGENTS for phase in ("planning", "done")
    ]
    assert {s.agents for s in steps} == {4}
    # Each step in the words both front ends show.
    said = [step.doing() for step in steps if step.agent == "main"]
    assert said == ["planning", "merging 0/1", "merging 1/1", "1 merge"], said
    record = first.record
    assert record is not None and record.status == "done" and record.day == "2026-11-20"
    assert record.runs == [r.id for r in first.runs] and record.merges == 4
    assert record.runner == "a test" and record.pid > 0 and record.host
    assert record.slot == "2026-11-20T02:30:00.000Z"

    # Later the same day: nothing runs, and the day's pass is named.
    clock.now = datetime(2026, 11, 21, 2, 29, tzinfo=UTC)
    again = nightly.run(due=True, trigger="scheduled")
    assert again.skipped and not again.ran and again.runs == []
    assert again.record is not None and again.record.started_at == record.started_at
    assert nightly.said(again) == [
        f"the nightly pass of 2026-11-20 already ran {record.describe()}; nothing was done "
        "(the next one is due at 2026-11-21T02:30:00+00:00)"
    ]
    assert nightly.said(first) == []
    assert len(engine.history()) == 4
    # Without --due the pass runs whenever asked (nothing left to merge now).
    manual = nightly.run()
    assert manual.ran and all(r.merges == [] for r in manual.runs)
    # The next day starts at the scheduled time: due again.
    clock.now = datetime(2026, 11, 21, 2, 30, tzinfo=UTC)
    assert nightly.run(due=True).ran
    assert [r.day for r in nightly.records()] == ["2026-11-21", "2026-11-20"]


def test_a_pass_told_to_stop_ends_between_agents_and_runs_again_when_due(
    store: NoteStore,
) -> None:
    clock = Clock(datetime(2026, 11, 20, 3, 0, tzinfo=UTC))
    engine = seeded(store, clock)
    nightly = NightlyPass(engine, runner="a test")
    steps: list[PassProgress] = []
    # Told to stop once the second agent is done: the third never starts.
    stopped = nightly.run(
        due=True,
        progress=steps.append,
        stop=lambda: sum(s.phase == "done" for s in steps) >= 2,
    )

    assert stopped.ran and stopped.stopped
    assert [r.agent for r in stopped.runs] == AGENTS[:2]
    assert not any(s.agent in AGENTS[2:] for s in steps)
    record = stopped.record
    assert record is not None and record.status == "stopped"
    assert record.agents == AGENTS[:2] and record.finished_at is not None
    assert nightly.finished("2026-11-20") is None
    # The day's pass is not done: --due runs it again, the agents left included.
    again = nightly.run(due=True)
    assert again.ran and not again.stopped and again.record is not None
    assert again.record.status == "done"
    assert [len(r.merges) for r in again.runs] == [0, 0, 1, 1]


def test_the_day_follows_the_configured_time_and_zone(store: NoteStore) -> None:
    clock = Clock(datetime(2026, 11, 20, 23, 30, tzinfo=UTC))  # 00:30 next day in Berlin
    engine = seeded(store, clock)
    engine.settings = engine.settings.model_copy(
        update={"consolidation_time": "00:15", "consolidation_timezone": "Europe/Berlin"}
    )
    nightly = NightlyPass(engine)
    assert nightly.slot().isoformat() == "2026-11-21T00:15:00+01:00"
    assert nightly.next_slot().isoformat() == "2026-11-22T00:15:00+01:00"
    assert nightly.run(due=True).record.day == "2026-11-21"  # type: ignore[union-attr]


def test_a_held_lock_refuses_with_its_holder_and_changes_nothing(store: NoteStore) -> None:
    clock = Clock(datetime(2026, 11, 20, 3, 0, tzinfo=UTC))
    engine = seeded(store, clock)
    nightly = NightlyPass(engine)
    nightly.run(dry_run=True)  # plans only: no lock, no record, no run
    assert nightly.records() == [] and engine.history() == []
    other = RunLock(engine.store, runs_collection(MODE_A), clock, "cron on another machine")
    store.ensure_collection(runs_collection(MODE_A), 1, "amem-tui/run-log")
    held = other.acquire()
    with pytest.raises(PassBusy) as refused:
        nightly.run(due=True)
    assert refused.value.holder == held and refused.value.exit_code == 75
    assert "cron on another machine on host" in str(refused.value)
    assert f"(pid {held.pid}) since {held.since}" in str(refused.value)
    assert engine.history() == [] and nightly.records() == []
    assert nightly.holder() == held

    # A holder that crashed: once its lock expires, the pass takes it over.
    clock.now += timedelta(minutes=11)
    assert nightly.holder() is None
    assert nightly.run(due=True).ran
    assert nightly.holder() is None  # given back
    assert other.renew() is False and other.lost.is_set()  # the crashed one finds out


def test_read_only_refuses_before_anything(store: NoteStore) -> None:
    clock = Clock(datetime(2026, 11, 20, 3, 0, tzinfo=UTC))
    engine = seeded(store, clock)
    engine.settings = engine.settings.model_copy(update={"read_only": True})
    with pytest.raises(ReadOnlyStore):
        NightlyPass(engine).run()
    assert runs_collection(MODE_A) not in engine.store.list_collections()


def test_one_agent_failing_does_not_stop_the_others(store: NoteStore) -> None:
    clock = Clock(datetime(2026, 11, 20, 3, 0, tzinfo=UTC))
    engine = seeded(store, clock)
    nightly = NightlyPass(engine, agents=lambda: ["main", "bad agent", "dev"])
    result = nightly.run()
    assert [r.agent for r in result.runs] == ["main", "dev"]
    assert list(result.errors) == ["bad agent"]
    # Each agent's part: the runs first, then the agent that failed and why.
    outcomes = result.outcomes()
    assert [(o.agent, o.run_id) for o in outcomes] == [
        ("main", result.runs[0].id),
        ("dev", result.runs[1].id),
        ("bad agent", None),
    ]
    assert outcomes[2].error == result.errors["bad agent"] and outcomes[2].merges == 0
    assert result.merges == sum(o.merges for o in outcomes) == 2  # one merge each
    assert result.record is not None and result.record.errors == result.errors
    assert result.record.status == "done"


@pytest.mark.parametrize("collection", [AMEM_ALIAS, MEM0])
def test_stores_other_tools_wrote_change_only_in_our_bookkeeping(
    real_store: QdrantStore, collection: str
) -> None:
    engine = make_engine(real_store, settings=real_settings(collection=collection))
    before = real_snapshot(real_store.client)
    result = NightlyPass(engine).run(due=True)
    after = real_snapshot(real_store.client)
    ours = {name for name in after if name.endswith("__amem_runs")}
    assert ours == {f"{collection}__amem_runs"} | {
        f"{r.collection}__amem_runs" for r in result.runs
    }
    assert {k: v for k, v in after.items() if k not in ours} == before
    # mem0 views are never consolidated; the Mode B agent is.
    agents = [r.agent for r in result.runs]
    assert agents == (
        ["main", "dev", "sandbox", "ops"] if collection == AMEM_ALIAS else ["sandbox"]
    )


def test_a_store_of_mem0_memories_only_gets_nothing_written(real_store: QdrantStore) -> None:
    engine = make_engine(real_store, settings=real_settings(collection=MEM0, agents=[]))
    before = real_snapshot(real_store.client)
    result = NightlyPass(engine).run(due=True)
    assert not result.ran and not result.skipped and result.record is None
    assert real_snapshot(real_store.client) == before  # not even a lock
