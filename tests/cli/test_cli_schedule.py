"""``schedule --print cron|systemd``: a line or unit pair for the configured time that
runs the nightly pass on the same store, with no secret on its command line."""

from __future__ import annotations

import configparser
import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest

from tests.support.cli import demo_store
from tests.support.cli import in_this_process as printed

TEST_MODEL = "amem-test/hash-embedder"


@pytest.fixture
def store(tmp_path: Path) -> list[str]:
    """A demo store and the options that reach it (its agents through its openclaw.json)."""
    return demo_store(tmp_path / "store")


def cron_command(line: str) -> str:
    """The command of a crontab line, as cron hands it to the shell."""
    fields = line.split(" ", 5)
    assert fields[2:5] == ["*", "*", "*"], line
    return fields[5].replace("\\%", "%")


def test_cron_line_runs_the_pass_on_the_same_store(
    store: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = printed(capsys, "schedule", "--print", "cron", *store)
    assert (code, err) == (0, "")
    comment, line = out.strip().splitlines()
    assert comment.startswith("# amem-tui nightly pass at 02:30 (local time)")
    assert line.startswith("30 2 * * * ")
    command = cron_command(line)
    assert "consolidate --all-agents --due" in command
    assert f"--store {store[1]}" in command and f"--config {store[3]}" in command
    assert "AMEM_CONSOLIDATION_TIME=02:30;" in command

    # Run it as cron would (a shell, no terminal, little environment): twice.
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path / "cron-home")}
    env |= {k: v for k, v in os.environ.items() if k.startswith("AMEM_") and k.endswith("_DIR")}
    for _ in range(2):
        done = subprocess.run(["/bin/sh", "-c", command], env=env, timeout=120, check=False)
        assert done.returncode == 0
    log = Path(os.environ["AMEM_DATA_DIR"]) / "nightly.log"
    said = log.read_text(encoding="utf-8")
    assert "nightly pass of " in said and "4 agents" in said  # main, dev, sandbox, monitor
    assert said.count("already ran at ") == 1 and "nothing was done" in said


def test_time_and_zone_come_from_the_settings(
    store: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AMEM_CONSOLIDATION_TIME", "03:15")
    monkeypatch.setenv("AMEM_CONSOLIDATION_TIMEZONE", "Europe/Berlin")
    code, out, _ = printed(capsys, "schedule", "--print", "cron", *store)
    lines = out.strip().splitlines()
    assert code == 0 and lines[1] == "CRON_TZ=Europe/Berlin" and lines[2].startswith("15 3 * * * ")
    assert "AMEM_CONSOLIDATION_TIMEZONE=Europe/Berlin;" in lines[2]
    code, out, _ = printed(capsys, "schedule", "--print", "systemd", "--json", *store)
    units = json.loads(out)
    assert units["time"] == "03:15" and units["timezone"] == "Europe/Berlin"
    timer = next(body for path, body in units["files"].items() if path.endswith(".timer"))
    assert "OnCalendar=*-*-* 03:15:00 Europe/Berlin" in timer
    monkeypatch.setenv("AMEM_CONSOLIDATION_TIMEZONE", "Mars/Olympus")
    code, _, err = printed(capsys, "schedule", "--print", "cron", *store)
    assert code == 2 and "IANA name" in err


def test_systemd_units_and_no_secret_on_the_command_line(
    store: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QDRANT_API_KEY", "sekrit-key")
    url = "http://reader:sekrit-pass@127.0.0.1:6333"
    code, out, _ = printed(capsys, "--url", url, "schedule", "--print", "systemd", "--json")
    assert code == 0
    units = json.loads(out)
    assert "sekrit" not in out
    assert units["secrets"] == ["AMEM_URL", "QDRANT_API_KEY"]
    assert "--url" not in units["command"]
    assert units["command"][-3:] == ["consolidate", "--all-agents", "--due"]
    service_path, timer_path = sorted(units["files"])
    assert service_path.endswith("/amem-tui-nightly.service")
    assert timer_path.endswith("/amem-tui-nightly.timer")
    service = configparser.ConfigParser(strict=False, interpolation=None)
    service.read_string(units["files"][service_path])
    assert service["Service"]["Type"] == "oneshot"
    assert service["Service"]["SuccessExitStatus"] == "75"
    assert service["Service"]["EnvironmentFile"] == "-" + units["env_file"]
    assert shlex.split(service["Service"]["ExecStart"]) == units["command"]
    timer = configparser.ConfigParser(interpolation=None)
    timer.read_string(units["files"][timer_path])
    assert timer["Timer"]["OnCalendar"] == "*-*-* 02:30:00"
    assert timer["Timer"]["Persistent"] == "true"
    assert timer["Install"]["WantedBy"] == "timers.target"
    # As text: the two files under their paths, and what to put in the environment file.
    code, text, _ = printed(capsys, "--url", url, "schedule", "--print", "systemd")
    assert "sekrit" not in text
    assert f"# Put AMEM_URL and QDRANT_API_KEY in {units['env_file']}" in text
    assert f"# {service_path}\n[Unit]" in text and "enable --now amem-tui-nightly.timer" in text


def test_refused_for_one_agent_or_a_read_only_store(
    store: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = printed(capsys, "--agent", "dev", "schedule", "--print", "cron", *store)
    assert code == 2 and "every agent" in err
    code, _, err = printed(capsys, "--read-only", "schedule", "--print", "cron", *store)
    assert code == 3 and "read-only" in err
    code, out, _ = printed(capsys, "schedule", *store)  # cron unless told otherwise
    assert code == 0 and "consolidate --all-agents --due" in out.splitlines()[1]
    code, _, err = printed(capsys, "schedule", "--print", "at", *store)
    assert code == 2 and "--print" in err
