"""The theme, the layout (+) and each pane's sort order are remembered in the user
config folder (inspector.toml) and restored at the next start."""

from __future__ import annotations

from pathlib import Path

import pytest

from amem_tui.tui.app import AmemApp
from amem_tui.tui.preferences import Preferences, parse, render
from tests.support.tui import demo_engine, main_screen, settle, started


def app_in(config: Path, monkeypatch: pytest.MonkeyPatch) -> AmemApp:
    """The app on the demo, reading and writing the user config in ``config``."""
    monkeypatch.setenv("AMEM_CONFIG_DIR", str(config))
    app = AmemApp(demo_engine(), user_config=True)
    app.animation_level = "none"
    return app


async def test_choices_are_restored_at_the_next_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config"
    first = app_in(config, monkeypatch)
    async with started(first) as pilot:
        assert first.theme == "amem-dark"
        first.theme = "amem-light"
        await pilot.press("S", "S", "tab", "S", "plus")  # private by owner, shared by updated
        await settle(pilot)
        assert main_screen(first).has_class("-layout-panes")
    saved = (config / "inspector.toml").read_text(encoding="utf-8")
    assert parse(saved) == Preferences(
        theme="amem-light",
        layout="panes",
        sort={"private": "owner asc", "shared": "updated desc"},
    )
    second = app_in(config, monkeypatch)
    async with started(second) as pilot:
        main = main_screen(second)
        assert second.theme == "amem-light"
        assert main.has_class("-layout-panes")
        assert main.private_pane.view.order.label == "owner ↑"
        assert main.shared_pane.view.order.label == "updated ↓"
        labels = [c.label.plain for c in main.private_pane.table.ordered_columns]
        assert labels == ["owner ↑", "content"]
        await pilot.press("plus", "plus")  # detail taller, then even again
        await settle(pilot)
        assert not main.has_class("-layout-panes") and not main.has_class("-layout-detail")
    assert parse((config / "inspector.toml").read_text(encoding="utf-8")).layout == "even"


async def test_an_app_that_leaves_the_user_config_alone_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AMEM_CONFIG_DIR", str(tmp_path))
    app = AmemApp(demo_engine(), user_config=False)
    async with started(app) as pilot:
        app.theme = "amem-light"
        await pilot.press("S", "plus")
        await settle(pilot)
    assert not (tmp_path / "inspector.toml").exists()


async def test_an_unreadable_file_is_said_and_the_defaults_are_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "inspector.toml").write_text("theme = [not toml", encoding="utf-8")
    app = app_in(tmp_path, monkeypatch)
    async with started(app, notifications=True):
        assert app.theme == "amem-dark"
        assert any("inspector.toml" in message for _, message in app.notice_log)


def test_the_file_is_read_back_as_written_and_odd_values_are_ignored() -> None:
    chosen = Preferences(theme='my "odd" theme', layout="detail", sort={"private": "recalls asc"})
    assert parse(render(chosen)) == chosen
    odd = parse('theme = 3\nlayout = "sideways"\n[sort]\nprivate = 1\nhistory = "x"\n')
    assert odd == Preferences()
