"""``export --all``: every collection of notes (Mode B ones included) into one folder,
one ``<collection>.jsonl`` each, and ``import`` reads each back."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_cli_commands import CONFIG, base_env, run_cli


def test_export_all_round_trips_every_collection(tmp_path: Path) -> None:
    config = tmp_path / "openclaw.json"
    config.write_text(json.dumps(CONFIG))
    env = base_env(tmp_path)

    def run(store: str, *args: str) -> tuple[int, str, str]:
        result = run_cli("--store", str(tmp_path / store), "--config", str(config), *args, env=env)
        return result.code, result.out, result.err

    assert run("a", "--agent", "dev", "add", "the dev note about deploys")[0] == 0
    assert run("a", "--agent", "sandbox", "add", "the sandbox note, Mode B")[0] == 0
    folder = tmp_path / "out"
    code, out, err = run("a", "export", "--all", "--output", str(folder))
    assert code == 0, err
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["amem_notes.jsonl", "amem_notes_sandbox.jsonl"]
    assert "from amem_notes_sandbox to" in out
    for name in ("amem_notes", "amem_notes_sandbox"):
        file = str(folder / f"{name}.jsonl")
        # into a store with no configuration: a Mode B collection is any collection there
        target = ["--store", str(tmp_path / "b"), "--collection", name]
        assert run_cli(*target, "import", file, env=env).code == 0
        back = run_cli(*target, "export", env=env).out
        assert back == (folder / f"{name}.jsonl").read_text()


def test_export_all_needs_a_folder(tmp_path: Path) -> None:
    env = base_env(tmp_path)
    result = run_cli("--store", str(tmp_path / "s"), "export", "--all", env=env)
    assert result.code == 2
    assert "--output FOLDER" in result.err
