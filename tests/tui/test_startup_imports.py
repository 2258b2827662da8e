"""Start-up imports: the first frame needs no server client, no model runtime, no audit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.paths import REPO_ROOT

#: The ``amem-tui`` start path on an embedded (Edge) folder, up to the first frame.
FIRST_FRAME = r"""
import json, sys
from pathlib import Path
import amem_tui.cli
from amem_tui.config import Settings
from amem_tui.engine.engine import MemoryEngine
from amem_tui.tui.app import AmemApp

engine = MemoryEngine(Settings(store_path=sys.argv[1]))
seen = {}

class FirstFrame(AmemApp):
    CSS_PATH = str(Path(sys.modules[AmemApp.__module__].__file__).parent / "app.tcss")

    def on_mount(self) -> None:  # runs before AmemApp.on_mount: fires first after the frame
        self.call_after_refresh(self.first_frame)

    def first_frame(self) -> None:
        seen.update({name: name in sys.modules for name in sys.argv[2:]})
        self.exit(0)

FirstFrame(engine, user_config=False).run(headless=True, size=(120, 40))
engine.close()
print(json.dumps(seen))
"""

HEAVY = ["qdrant_client", "fastembed", "onnxruntime"]
RARE = ["amem_tui.engine.audit", "amem_tui.tui.screens.audit", "amem_tui.tui.dialogs.note_editor"]


def _env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(REPO_ROOT),
        "AMEM_DATA_DIR": str(tmp_path / "data"),
        "AMEM_CACHE_DIR": str(tmp_path / "cache"),
    }


def test_importing_the_app_loads_no_client_model_or_audit(tmp_path: Path) -> None:
    names = [*HEAVY, *RARE, "amem_tui.engine.consolidation"]
    code = (
        "import json, sys, amem_tui.cli, amem_tui.tui.app; "
        f"print(json.dumps({{n: n in sys.modules for n in {names!r}}}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert loaded == dict.fromkeys(names, False)


def test_first_frame_on_an_edge_folder_loads_no_client_or_model(tmp_path: Path) -> None:
    names = HEAVY + RARE
    out = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME, str(tmp_path / "store"), *names],
        cwd=REPO_ROOT,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert loaded == dict.fromkeys(names, False)
    assert (tmp_path / "store").exists()  # it really opened an embedded folder
