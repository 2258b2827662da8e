"""``--follow`` opens the TUI in follow mode, before or after ``demo``."""

from __future__ import annotations

from typing import Any

import pytest

from amem_tui.cli import entry, main
from amem_tui.engine.embed import TEST_MODEL


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []

    def run_tui(options: Any, settings: Any = None) -> int:
        opened = settings if settings is not None else options.settings()
        calls.append({"store": opened.store_label, "follow": options.follow})
        return 0

    monkeypatch.setattr(entry, "run_tui", run_tui)
    return calls


def test_follow_opens_the_tui_following(opened: list[dict[str, Any]], tmp_path: Any) -> None:
    assert main(["--store", str(tmp_path / "s"), "--follow"]) == 0
    assert main(["--store", str(tmp_path / "s")]) == 0
    assert [c["follow"] for c in opened] == [True, False]


def test_demo_follow_opens_the_demo_following(
    opened: list[dict[str, Any]], tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AMEM_MODEL", TEST_MODEL)
    assert main(["demo", "--store", str(tmp_path / "d"), "--follow"]) == 0
    assert opened == [{"store": str(tmp_path / "d"), "follow": True}]
