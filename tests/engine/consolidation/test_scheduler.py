"""The nightly scheduler, driven by an injected clock (no sleeping)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from amem_tui.engine.consolidation.nightly_time import next_occurrence, parse_hhmm
from amem_tui.engine.consolidation.scheduler import ConsolidationScheduler
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.errors import ConfigError
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.consolidation_data import MODE_A, MODE_B, make_note, put, turned
from tests.support.engines import demo_like_settings, make_engine

BERLIN = ZoneInfo("Europe/Berlin")


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def seeded_engine(clock: Clock, **settings: object) -> MemoryEngine:
    engine = make_engine(
        QdrantStore(path=":memory:"), settings=demo_like_settings(**settings), clock=clock
    )
    for agent, collection in (("main", MODE_A), ("dev", MODE_A), ("sandbox", MODE_B)):
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


def test_parse_hhmm() -> None:
    assert parse_hhmm("02:30") == time(2, 30)
    assert parse_hhmm("7:05") == time(7, 5)
    for bad in ("2:3", "24:00", "noon", "02-30", ""):
        with pytest.raises(ConfigError):
            parse_hhmm(bad)


def test_next_occurrence_in_a_time_zone() -> None:
    at = time(2, 30)
    before = datetime(2026, 11, 20, 1, 0, tzinfo=BERLIN)
    assert next_occurrence(before, at, BERLIN) == datetime(2026, 11, 20, 2, 30, tzinfo=BERLIN)
    after = datetime(2026, 11, 20, 2, 30, tzinfo=BERLIN)
    assert next_occurrence(after, at, BERLIN) == datetime(2026, 11, 21, 2, 30, tzinfo=BERLIN)
    # Clocks go back on 25 October: the run stays at 03:30 on the wall clock, now UTC+1.
    autumn = datetime(2026, 10, 24, 12, 0, tzinfo=BERLIN)
    nxt = next_occurrence(autumn, time(3, 30), BERLIN)
    assert (nxt.date().isoformat(), nxt.hour, nxt.minute) == ("2026-10-25", 3, 30)
    assert nxt.utcoffset() == timedelta(hours=1)


def test_runs_every_configured_agent_once_a_day() -> None:
    clock = Clock(datetime(2026, 11, 20, 1, 0, tzinfo=UTC))
    engine = seeded_engine(clock)
    seen: list[str] = []
    scheduler = ConsolidationScheduler(
        engine, at="02:30", clock=clock, tz=UTC, on_run=lambda r: seen.append(r.agent)
    )
    assert scheduler.next_run_time() == datetime(2026, 11, 20, 2, 30, tzinfo=UTC)
    assert scheduler.run_due() == []
    clock.now = datetime(2026, 11, 20, 2, 30, tzinfo=UTC)
    runs = scheduler.run_due()
    assert sorted(r.agent for r in runs) == ["dev", "main", "sandbox"]
    assert {r.trigger for r in runs} == {"nightly"}
    assert all(len(r.merges) == 1 for r in runs)
    assert sorted(seen) == ["dev", "main", "sandbox"]
    assert scheduler.next_run_time() == datetime(2026, 11, 21, 2, 30, tzinfo=UTC)
    assert scheduler.run_due() == []  # not twice the same night
    assert {r.trigger for r in engine.history()} == {"nightly"}
    # A machine that slept through several nights runs once, then waits for the next one.
    clock.now = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)
    assert len(scheduler.run_due()) == 3
    assert scheduler.next_run_time() == datetime(2026, 11, 25, 2, 30, tzinfo=UTC)


def test_time_comes_from_settings_and_one_failure_does_not_stop_the_rest() -> None:
    clock = Clock(datetime(2026, 11, 20, 6, 0, tzinfo=UTC))
    engine = seeded_engine(clock, consolidation_time="07:15")
    scheduler = ConsolidationScheduler(
        engine, clock=clock, tz=UTC, agents=lambda: ["main", "bad agent", "dev"]
    )
    assert scheduler.next_run_time() == datetime(2026, 11, 20, 7, 15, tzinfo=UTC)
    clock.now += timedelta(hours=2)
    runs = scheduler.run_due()
    assert [r.agent for r in runs] == ["main", "dev"]
    assert list(scheduler.last_errors) == ["bad agent"]


def test_read_only_store_has_no_next_run() -> None:
    clock = Clock(datetime(2026, 11, 20, 1, 0, tzinfo=UTC))
    engine = seeded_engine(clock)
    engine.settings.read_only = True
    scheduler = ConsolidationScheduler(engine, clock=clock, tz=UTC)
    assert scheduler.next_run_time() is None
    clock.now += timedelta(days=1)
    assert scheduler.run_due() == []


def test_engine_scheduler_thread_starts_and_stops() -> None:
    clock = Clock(datetime(2026, 11, 20, 1, 0, tzinfo=UTC))
    engine = seeded_engine(clock)
    scheduler = engine.scheduler
    assert scheduler is engine.scheduler
    assert scheduler.next_run_time() is not None
    scheduler.start()
    assert scheduler.running
    engine.close()  # closing the engine stops the thread
    assert not scheduler.running
