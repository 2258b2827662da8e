"""The nightly pass run by the open inspector at the configured time, driven by a clock
the test moves (no waiting for a real time): once a day, every agent, under the run
lock in the store, recorded with the trigger ``nightly``; and the history pane's line
that says what runs the next one, or that nothing here does and how to."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from amem_tui.config import Settings
from amem_tui.demo import demo_settings, seed_demo
from amem_tui.engine import NightlyPass
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.store.qdrant import QdrantStore
from amem_tui.tui.widgets import nightly
from amem_tui.tui.widgets.history_pane import HistoryPane
from amem_tui.tui.widgets.nightly import RUNNER, NightlyWatch
from tests.support.engines import MovableClock, make_engine
from tests.support.faults import WRITES, FlakyStore
from tests.support.tui import STORE_LABEL, demo_app, demo_engine, main_screen, started, until

BEFORE = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
AT_NIGHT = datetime(2026, 11, 21, 2, 31, tzinfo=UTC)
#: The CLI's pass, as cron or a systemd timer runs it.
CRON = "consolidate --all-agents --due"


@pytest.fixture(autouse=True)
def quick_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The watch looks at the clock every 50 ms instead of every 30 s."""
    monkeypatch.setattr(nightly, "CHECK_INTERVAL", 0.05)


def engine_at(clock: MovableClock) -> MemoryEngine:
    return demo_engine(clock=clock, consolidation_timezone="UTC")


def watch(app: Any) -> NightlyWatch:
    return main_screen(app).query_one(NightlyWatch)


def said(app: Any) -> str:
    return str(watch(app).render())


async def looks(pilot: Any, app: Any, times: int = 3) -> None:
    """Wait until the watch has looked at the clock ``times`` more times."""
    seen = watch(app).checks
    await until(pilot, lambda: watch(app).checks >= seen + times)


def nightly_runs(engine: MemoryEngine) -> dict[str, int]:
    found: dict[str, int] = {}
    for agent in ("main", "dev", "sandbox"):
        runs = [r for r in engine.agent(agent).history() if r.trigger == "nightly"]
        found[agent] = len(runs)
    return found


async def test_the_open_inspector_runs_the_nightly_pass_once_at_its_time() -> None:
    clock = MovableClock(BEFORE)
    engine = engine_at(clock)
    app = demo_app(engine)
    async with started(app, notifications=True) as pilot:
        history = main_screen(app).query_one(HistoryPane)
        assert "Next nightly pass 02:30, by this inspector" in said(app)
        assert "next nightly 02:30" in str(history.border_subtitle)
        await looks(pilot, app)  # the watch looked at the clock: not yet
        assert nightly_runs(engine) == {"main": 0, "dev": 0, "sandbox": 0}
        clock.set(AT_NIGHT)
        await until(pilot, lambda: watch(app).last is not None and not watch(app).running)
        # Every agent (sandbox in its Mode B collection), recorded as nightly.
        assert nightly_runs(engine) == {"main": 1, "dev": 1, "sandbox": 1}
        [record] = NightlyPass(engine).records()
        assert (record.day, record.trigger, record.runner) == ("2026-11-21", "nightly", RUNNER)
        assert record.status == "done"
        await until(pilot, lambda: bool(history.runs))  # the panes reloaded
        assert any("Nightly pass of 2026-11-21" in m for _, m in app.notice_log)
        assert "last pass 2026-11-21, by the amem-tui inspector" in said(app)
        # Later the same night and the next morning: never twice.
        clock.set(datetime(2026, 11, 21, 8, 0, tzinfo=UTC))
        await looks(pilot, app)
        assert nightly_runs(engine) == {"main": 1, "dev": 1, "sandbox": 1}
        assert "Next nightly pass 02:30" in said(app)


async def test_a_pass_cron_ran_already_is_left_alone() -> None:
    clock = MovableClock(BEFORE)
    engine = engine_at(clock)
    app = demo_app(engine)
    async with started(app, notifications=True) as pilot:
        clock.set(datetime(2026, 11, 21, 2, 30, tzinfo=UTC))
        # cron's pass, through the engine as the CLI runs it, at 02:30 sharp; the
        # inspector looks a minute later.
        NightlyPass(engine, runner=CRON, clock=clock).run(due=True, trigger="scheduled")
        clock.set(AT_NIGHT)
        await until(pilot, lambda: any("already ran" in m for _, m in app.notice_log))
        await until(pilot, lambda: not watch(app).running)
        assert nightly_runs(engine) == {"main": 0, "dev": 0, "sandbox": 0}
        assert len(NightlyPass(engine).records()) == 1
        assert f"last pass 2026-11-21, by {CRON} (a scheduled job)" in said(app)


async def test_a_pass_another_machine_runs_now_is_not_run_twice() -> None:
    clock = MovableClock(datetime(2026, 11, 20, 3, 0, tzinfo=UTC))
    engine = engine_at(clock)
    cron = NightlyPass(engine, runner=CRON, clock=clock)
    cron.run(due=True, trigger="scheduled")  # the night before
    before = nightly_runs(engine)
    clock.set(datetime(2026, 11, 21, 2, 29, tzinfo=UTC))
    app = demo_app(engine)
    async with started(app, notifications=True) as pilot:
        with cron.lock().held():  # another machine starts tonight's pass
            clock.set(AT_NIGHT)
            await until(pilot, lambda: watch(app).busy is not None)
            assert any("runs elsewhere" in m and CRON in m for _, m in app.notice_log)
            assert "today's was run elsewhere" in said(app)
        assert nightly_runs(engine) == before


async def test_a_pass_that_cannot_run_is_reported_once() -> None:
    clock = MovableClock(BEFORE)
    settings = demo_settings(Settings(store_path=Path(STORE_LABEL), consolidation_timezone="UTC"))
    store = FlakyStore(QdrantStore(path=":memory:"))
    engine = make_engine(store, settings=settings, clock=clock)  # type: ignore[arg-type]
    seed_demo(engine)
    app = demo_app(engine)
    async with started(app, notifications=True) as pilot:
        store.down = True
        clock.set(AT_NIGHT)
        await until(pilot, lambda: any("did not run" in m for _, m in app.notice_log))
        store.down = False
        await until(pilot, lambda: not watch(app).running)
        assert "Next nightly pass 02:30, by this inspector" in said(app)


async def test_a_read_only_inspector_says_what_would_run_it() -> None:
    engine = demo_engine(read_only=True)
    app = demo_app(engine)
    async with started(app):
        history = main_screen(app).query_one(HistoryPane)
        assert "not scheduled here" in str(history.border_subtitle)
        line = said(app)
        assert "not scheduled here (read-only)" in line
        assert "amem-tui consolidate --all-agents --due" in line
        assert "amem-tui schedule --print cron" in line
    # What the store records of a scheduled job is said instead, when there is one.
    clock = MovableClock(AT_NIGHT)
    engine = engine_at(clock)
    NightlyPass(engine, runner=CRON).run(due=True, trigger="scheduled")
    engine.settings = engine.settings.model_copy(update={"read_only": True})
    app = demo_app(engine)
    async with started(app) as pilot:
        await until(pilot, lambda: watch(app).last is not None)
        line = said(app)
        assert "Nightly pass 02:30: not by this inspector (read-only)" in line
        assert f"last pass 2026-11-21, by {CRON} (a scheduled job)" in line


class HeldWrites:
    """Wraps a store: once ``armed``, the first write to ``collection`` waits until
    ``go`` is set (a pass caught in the middle of its first agent)."""

    def __init__(self, inner: Any, collection: str) -> None:
        self.inner, self.collection = inner, collection
        self.armed = False
        self.reached, self.go = threading.Event(), threading.Event()

    def __getattr__(self, name: str) -> Any:
        target = getattr(self.inner, name)
        if name not in WRITES | {"put_if"}:
            return target

        def write(collection: str, *args: Any, **kwargs: Any) -> Any:
            if self.armed and collection == self.collection:
                self.armed = False
                self.reached.set()
                self.go.wait(10)
            return target(collection, *args, **kwargs)

        return write


async def test_quitting_during_the_pass_stops_it_before_the_next_agent() -> None:
    clock = MovableClock(BEFORE)
    settings = demo_settings(Settings(store_path=Path(STORE_LABEL), consolidation_timezone="UTC"))
    store = HeldWrites(QdrantStore(path=":memory:"), settings.collection)
    engine = make_engine(store, settings=settings, clock=clock)  # type: ignore[arg-type]
    seed_demo(engine)
    app = demo_app(engine)
    async with started(app) as pilot:
        store.armed = True
        clock.set(AT_NIGHT)
        # dev's merge is being written (main, first, has nothing to merge).
        await until(pilot, store.reached.is_set)
        pass_worker = next(w for w in app.workers if w.group == "nightly")

        def go_on_once_told_to_stop() -> None:
            deadline = time.monotonic() + 10
            while not pass_worker.is_cancelled and time.monotonic() < deadline:
                time.sleep(0.01)
            store.go.set()

        # The write goes on once quitting has told the pass to stop.
        threading.Thread(target=go_on_once_told_to_stop).start()
        app.exit()
    # The process would wait for the pass's thread here; the test waits for its record.
    deadline = time.monotonic() + 10
    while NightlyPass(engine).records()[0].status == "running":
        assert time.monotonic() < deadline, "the pass never ended"
        time.sleep(0.05)
    [record] = NightlyPass(engine).records()
    assert record.status == "stopped" and record.agents == ["main", "dev"]
    assert nightly_runs(engine) == {"main": 1, "dev": 1, "sandbox": 0}
    assert "stopped after 2 agents" in nightly.last_said(record)


async def test_a_scheduled_run_shows_its_whole_kind_in_the_history() -> None:
    engine = demo_engine()
    engine.agent("dev").consolidate(trigger="scheduled")
    app = demo_app(engine, agent="dev")
    async with started(app, size=(120, 40)):
        history = main_screen(app).query_one(HistoryPane)
        kinds = [str(history.table.get_row_at(i)[1]) for i in range(history.table.row_count)]
        assert "scheduled" in kinds
        kind = history.table.ordered_columns[history.table.get_column_index("kind")]
        assert kind.get_render_width(history.table) - 2 * history.table.cell_padding >= len(
            "scheduled"
        )
