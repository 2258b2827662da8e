"""Start-up imports: the first frame needs no server client, no model runtime, no audit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.paths import REPO_ROOT

#: ``amem-tui --store PATH`` up to its first frame (what was imported by then), then on
#: until the main screen shows on the opened store.
FIRST_FRAME = r"""
import json, sys
from pathlib import Path
import amem_tui.tui.app as app_module
from amem_tui.cli import main

seen = {}
run_app = app_module.AmemApp.run

class FirstFrame(app_module.AmemApp):
    CSS_PATH = str(Path(app_module.__file__).parent / "app.tcss")

    def on_mount(self) -> None:  # runs before AmemApp.on_mount: fires first after the frame
        self.call_after_refresh(self.first_frame)

    def first_frame(self) -> None:
        seen.update({name: name in sys.modules for name in sys.argv[2:]})
        seen["screen"] = type(self.screen).__name__

    def _opened(self, engine) -> None:
        super()._opened(engine)
        self.call_after_refresh(lambda: self.exit(0))

    def run(self, **options):
        return run_app(self, headless=True, size=(120, 40))

app_module.AmemApp = FirstFrame
seen["exit_code"] = main(["--store", sys.argv[1]])
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


#: What the first frame never waits for: the settings, pydantic, numpy, the store.
STORE_AND_MODELS = [
    "pydantic",
    "numpy",
    "amem_tui.config",
    "amem_tui.engine.models",
    "amem_tui.engine.search_results",
    "amem_tui.engine.run_records",
    "qdrant_edge",
]
#: Nor the subcommands: a line without one is read with the common options alone.
SUBCOMMANDS = ["amem_tui.cli.parser", "amem_tui.cli.command", "amem_tui.cli.search"]


def test_the_first_frame_waits_for_no_settings_models_store_or_model(tmp_path: Path) -> None:
    names = HEAVY + RARE + STORE_AND_MODELS + SUBCOMMANDS
    (tmp_path / "store").mkdir()  # an empty store: a missing --store is refused
    out = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME, str(tmp_path / "store"), *names],
        cwd=REPO_ROOT,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        check=True,
    )
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen.pop("screen") == "OpeningScreen"
    assert seen.pop("exit_code") == 0  # the main screen showed on the opened store
    assert seen == dict.fromkeys(names, False)
