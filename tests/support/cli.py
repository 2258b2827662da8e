"""The CLI as users run it: ``python -m amem_tui`` in a fresh process, and checks on
what reaches their terminal."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from amem_tui.cli import main
from amem_tui.demo import DEMO_EPOCH
from amem_tui.engine import MemoryEngine
from amem_tui.engine.embed import TEST_MODEL
from tests.support.engines import fixed_clock
from tests.support.paths import REPO_ROOT


def cli_env(home: Path, **env: str) -> dict[str, str]:
    """The environment of a CLI process: the test embedder and private folders under
    ``home``, nothing of the caller's ``AMEM_*`` or ``QDRANT_*`` settings."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("AMEM_", "QDRANT_"))} | {
        "PYTHONPATH": str(REPO_ROOT),
        "HOME": str(home),
        "AMEM_DATA_DIR": str(home / "data"),
        "AMEM_CONFIG_DIR": str(home / "config"),
        "AMEM_CACHE_DIR": str(home / "cache"),
        "AMEM_MODEL": TEST_MODEL,
        **env,
    }


def run(
    args: list[str | bytes], home: Path, stdin: bytes | None = None, **env: str
) -> subprocess.CompletedProcess[bytes]:
    """Run the CLI in a fresh process with the test embedder and private folders."""
    return subprocess.run(
        [sys.executable, "-m", "amem_tui", *args],
        cwd=REPO_ROOT,
        env=cli_env(home, **env),
        input=stdin,
        capture_output=True,
        timeout=120,
        check=False,
    )


def start(args: list[str], home: Path, **env: str) -> subprocess.Popen[bytes]:
    """Start the CLI in a fresh process (as ``run``) and return at once."""
    return subprocess.Popen(
        [sys.executable, "-m", "amem_tui", *args],
        cwd=REPO_ROOT,
        env=cli_env(home, **env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def inert(output: bytes) -> str:
    """The output as text, asserting a terminal would show it and nothing else."""
    text = output.decode("utf-8")  # strict: never half a character
    bad = sorted({f"U+{ord(ch):04X}" for ch in text if not (ch.isprintable() or ch in "\n\t")})
    assert not bad, f"raw non-printable characters reached the terminal: {bad}"
    return text


def one_error_line(result: subprocess.CompletedProcess[bytes], code: int) -> str:
    """The single stderr line of a failed run with exit ``code``."""
    err = inert(result.stderr)
    assert result.returncode == code, err
    assert "Traceback" not in err
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1 and lines[0].startswith("amem-tui: "), err
    return lines[0]


def in_this_process(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the CLI in this process; its exit code, stdout and stderr."""
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@contextlib.contextmanager
def on_demo_calendar() -> Iterator[None]:
    """Engines opened in this process meanwhile get the demo's fixed clock (from
    ``DEMO_EPOCH``) unless given one: the ``demo`` command dates its notes from the
    hour it runs, and figures worked out by hand need the fixed calendar."""
    opened = MemoryEngine.__init__

    def dated(engine: MemoryEngine, *args: Any, **options: Any) -> None:
        options.setdefault("clock", fixed_clock(DEMO_EPOCH))
        opened(engine, *args, **options)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(MemoryEngine, "__init__", dated)
        yield


def demo_store(store: Path) -> list[str]:
    """Make the demo store (test embedder) in ``store``, on the demo's fixed calendar;
    the options that reach it with its agents."""
    with on_demo_calendar():
        assert main(["demo", "--no-tui", "--store", str(store), "--model", TEST_MODEL]) == 0
    return ["--store", str(store), "--config", str(store / "openclaw.json"), "--model", TEST_MODEL]


def demo_like_config(folder: Path) -> Path:
    """The agents of ``demo_like_settings`` (main and dev in Mode A, sandbox in Mode B)
    as an openclaw.json written in ``folder``, for the CLI's ``--config``."""
    agents = {
        "dev": {"agentId": "dev"},
        "sandbox": {"agentId": "sandbox", "collection": "amem_notes_sandbox"},
    }
    plugin = {"enabled": True, "config": {"agentId": "main", "agents": agents}}
    path = folder / "openclaw.json"
    path.write_text(json.dumps({"plugins": {"entries": {"openclaw-amem": plugin}}}), "utf-8")
    return path


def answer(result: subprocess.CompletedProcess[bytes], code: int = 0) -> Any:
    """The JSON a CLI process wrote, once its exit status is ``code``."""
    assert result.returncode == code, result.stderr.decode()
    return json.loads(result.stdout)
