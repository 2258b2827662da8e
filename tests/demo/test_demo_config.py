"""The demo's openclaw.json: written beside its store, and the configuration in use."""

from __future__ import annotations

import json
from pathlib import Path

from amem_tui.config import Settings
from amem_tui.demo import demo_config_path, demo_settings
from tests.support.cli import run


def test_the_demo_settings_name_the_demo_configuration(tmp_path: Path) -> None:
    settings = demo_settings(Settings(store_path=tmp_path / "demo"))
    assert settings.config_file == tmp_path / "demo" / "openclaw.json"
    assert settings.config_file == demo_config_path(settings)
    assert [a.agent for a in settings.agents] == ["dev", "sandbox"]
    # A configuration the user named is never replaced.
    mine = tmp_path / "mine.json"
    assert demo_settings(Settings(config_file=mine)).config_file == mine


def test_the_demo_writes_its_configuration_and_the_audit_names_it(tmp_path: Path) -> None:
    store = tmp_path / "demo"
    done = run(["demo", "--no-tui", "--store", str(store)], tmp_path)
    assert done.returncode == 0, done.stderr
    config = store / "openclaw.json"
    entry = json.loads(config.read_text(encoding="utf-8"))["plugins"]["entries"]
    assert "sandbox" in entry["openclaw-amem"]["config"]["agents"]
    audit = run(["--store", str(store), "--config", str(config), "audit", "--json"], tmp_path)
    assert audit.returncode == 0, audit.stderr
    assert json.loads(audit.stdout)["config_file"] == str(config)
