"""Two ``consolidate --all-agents`` processes on one Qdrant server (the REST stand-in):
exactly one runs the pass, the other is refused with who holds the run lock."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

from amem_tui.config import Settings
from amem_tui.demo import demo_settings, seed_demo
from amem_tui.engine import NightlyPass
from amem_tui.engine.for_apps import BUSY_EXIT_CODE
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.cli import inert, start
from tests.support.engines import make_engine
from tests.support.qdrant_standin import QdrantStandIn


def first_run_header(method: str, path: str, body: Any) -> bool:
    """The request that records the first consolidation run: sent only by the process
    that holds the run lock, after it took it."""
    if method != "PUT" or not path.endswith("__amem_runs/points") or not isinstance(body, dict):
        return False
    return any(p.get("payload", {}).get("kind") == "run" for p in body.get("points", []))


def wait_for_first_exit(
    processes: list[subprocess.Popen[bytes]], timeout: float = 90.0
) -> subprocess.Popen[bytes]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for process in processes:
            if process.poll() is not None:
                return process
        time.sleep(0.05)
    raise AssertionError("neither process ended")


def test_two_processes_one_runs_the_other_is_told_who_holds_the_lock(tmp_path: Path) -> None:
    with QdrantStandIn() as server:
        settings = demo_settings(Settings(url=server.url))
        seeder = make_engine(QdrantStore(url=server.url), settings=settings)
        seed_demo(seeder)
        # The winner stops at its first run's record, holding the lock, until released.
        server.hold(first_run_header)
        argv = ["--url", server.url, "consolidate", "--all-agents", "--threshold", "0.65"]
        processes = [start([*argv, "--json"], tmp_path / "a"), start(argv, tmp_path / "b")]
        try:
            loser = wait_for_first_exit(processes)
            assert server.held, "the process that exited first never reached the held write"
        finally:
            server.release()
        winner = next(p for p in processes if p is not loser)
        out, err = winner.communicate(timeout=90)
        lost_out, lost_err = loser.communicate(timeout=10)

        assert winner.returncode == 0, inert(err)
        if winner is processes[0]:
            assert json.loads(out)["ran"]
        else:
            assert inert(out).startswith("nightly pass of ")
        assert loser.returncode == BUSY_EXIT_CODE == 75, inert(lost_err)
        assert inert(lost_out) == ""  # nothing done, nothing answered
        said = inert(lost_err).strip().splitlines()
        assert len(said) == 1, said
        if loser is processes[0]:  # --json: one JSON error object naming the holder
            error = json.loads(said[0])["error"]
            assert error["kind"] == "pass_busy" and error["exit_code"] == 75
            assert error["pid"] == winner.pid and error["host"] and error["since"]
            assert "already running" in error["message"]
        else:
            assert said[0].startswith("amem-tui: the nightly pass is already running: ")
            assert f"(pid {winner.pid})" in said[0] and "on host " in said[0]

        # Exactly one pass ran, by the winner, one run per agent.
        records = NightlyPass(seeder).records()
        assert [(r.pid, r.status) for r in records] == [(winner.pid, "done")]
        runs = seeder.history()
        assert sorted(r.agent for r in runs) == sorted(records[0].agents)
        assert {r.id for r in runs} == set(records[0].runs)
        # And the lock was given back: the next pass may run.
        assert NightlyPass(seeder).holder() is None
        seeder.close()
