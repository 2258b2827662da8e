"""Our themes come from the package, by name; a missing one is a clear error."""

from __future__ import annotations

import pytest

from amem_tui.tui import themes
from amem_tui.tui.themes import BundledThemeMissing, bundled_theme, bundled_theme_dir


def test_each_bundled_theme_loads_by_its_name() -> None:
    for name in themes.BUNDLED_THEMES:
        assert bundled_theme(name).name == name


def test_an_unknown_bundled_theme_is_an_error_naming_the_ones_there_are() -> None:
    with pytest.raises(BundledThemeMissing, match=r"no bundled theme named 'amem-neon'.*amem-dark"):
        bundled_theme("amem-neon")


def test_a_missing_theme_file_is_an_error_not_a_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(themes, "BUNDLED_THEMES", (*themes.BUNDLED_THEMES, "amem-gone"))
    with pytest.raises(BundledThemeMissing, match=r"missing from .*: amem-gone\.toml; reinstall"):
        bundled_theme_dir()


def test_a_missing_theme_package_is_an_error_not_a_fallback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(themes, "THEME_PACKAGE", "amem_tui.no_such_themes")
    with pytest.raises(BundledThemeMissing, match=r"amem_tui\.no_such_themes.*not installed"):
        bundled_theme_dir()
