"""What the in-process benches share (``typed_answer.py``, ``focus_change.py``): a run
is a child process on this code or on another checkout put first on ``PYTHONPATH``,
and the runs of the two alternate, so both see the same machine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def child_run(script: str, args: list[str], code: str | None) -> dict[str, Any]:
    """The JSON object ``script`` (Python source) prints last, run with ``args`` in a
    child process; ``code``: a checkout first on the path (None: this code)."""
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = code
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd="/",
    )
    if done.returncode != 0:
        sys.exit(f"a run failed ({code or 'this code'}):\n{done.stderr[-2000:]}")
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def alternated(
    runs: int, against: str | None, one_run: Callable[[str | None], dict[str, Any]]
) -> dict[str, list[dict[str, Any]]]:
    """``runs`` runs of this code and (``against``) of that checkout, alternated: each
    one's figures under its name."""
    codes: dict[str, str | None] = {"this code": None}
    if against:
        codes[f"against {against}"] = str(Path(against).resolve())
    found: dict[str, list[dict[str, Any]]] = {name: [] for name in codes}
    for _ in range(runs):
        for name, code in codes.items():
            found[name].append(one_run(code))
    return found
