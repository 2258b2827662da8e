"""The engine is a library: importing it never loads the UI toolkit."""

from __future__ import annotations

import subprocess
import sys


def test_engine_import_does_not_load_textual() -> None:
    code = (
        "import sys, amem_tui.engine.engine, amem_tui.engine.scope, amem_tui.config;"
        "import amem_tui.engine as e; e.MemoryEngine;"
        "bad = [m for m in ('textual', 'rich') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
