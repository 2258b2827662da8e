"""Start-up: a locked store, themes from data files, hidden matches of a search."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from amem_tui.cli import main
from amem_tui.demo import demo_id
from amem_tui.paths import config_dir
from amem_tui.tui.app import AmemApp
from amem_tui.tui.themes import bundled_theme_dir, load_themes
from tests.support.tui import SIZE, demo_engine, settle, started

HOLD = (
    "import sys, time\n"
    "from qdrant_client import QdrantClient\n"
    "client = QdrantClient(path=sys.argv[1])\n"
    "print('ready', flush=True)\n"
    "time.sleep(120)\n"
)


def test_a_locked_store_ends_with_a_message_and_exit_5(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store"
    path.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"

        run_app = AmemApp.run

        def headless(app: AmemApp, **options: object) -> object:
            return run_app(app, headless=True, size=SIZE)

        # The layout shows first; the store's refusal then ends the app, and the
        # command line reports it as it reports any store error.
        monkeypatch.setattr(AmemApp, "run", headless)
        code = main(["--store", str(path)])
    finally:
        holder.kill()
        holder.wait()
    assert code == 5
    err = capsys.readouterr().err
    assert "amem-tui:" in err and "another process" in err and "Traceback" not in err


def test_bundled_themes_are_valid_data_files() -> None:
    themes, problems = load_themes(bundled_theme_dir())
    assert problems == []
    names = {t.name: t for t in themes}
    assert names["amem-dark"].dark and not names["amem-light"].dark


async def test_user_themes_are_loaded_and_bad_ones_reported() -> None:
    folder = config_dir() / "themes"
    folder.mkdir(parents=True)
    (folder / "mine.toml").write_text('name = "mine"\nprimary = "#336699"\ndark = true\n')
    (folder / "broken.toml").write_text('name = "broken"\nprimary = "not a colour"\n')
    app = AmemApp(demo_engine(), user_config=True)
    async with started(app):
        assert app.theme == "amem-dark"
        assert {"amem-dark", "amem-light", "mine"} <= set(app.available_themes)
        assert "broken" not in app.available_themes
        assert any("broken.toml" in message for _, message in app.notice_log)


async def test_hidden_matches_toggle_shows_reasons_not_content() -> None:
    app = AmemApp(demo_engine(), agent="dev", user_config=False)
    async with started(app) as pilot:
        await pilot.press("slash", *"flight to lisbon offsite seat", "enter")
        await settle(pilot)
        screen: Any = app.screen
        result = screen.search_box.result
        assert result is not None
        hidden_ids = {h.id for h in result.hidden}
        assert demo_id("main-trip") in hidden_ids
        await pilot.press("h")
        await settle(pilot)
        text = str(screen.query_one("#detail-text", Static).render())
        assert demo_id("main-trip") in text and "not visible" in text
        assert "Lisbon" not in text
