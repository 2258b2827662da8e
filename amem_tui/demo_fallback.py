"""The demo store in place of the default one: after ``amem-tui demo``, commands that
name no store reach the demo's notes until a store of one's own exists.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from amem_tui.config import Settings, load_settings
from amem_tui.paths import default_store_dir, demo_dir


def demo_in_place_of_default(
    settings: Settings, flags: Mapping[str, Any], env: Mapping[str, str] | None = None
) -> Settings | None:
    """The demo store's settings when nothing names a store, the default store does
    not exist yet and ``amem-tui demo`` made its own; else None.

    So the README's examples, run after ``amem-tui demo`` with no ``--store``, reach
    the demo's notes; a store of one's own (``--store``, ``--url``, or the default
    folder once written) always wins. The demo's openclaw.json comes with it unless a
    configuration was found.
    """
    from amem_tui.engine.store import holds_store

    if settings.url is not None or settings.store_path is not None:
        return None
    demo = demo_dir()
    if holds_store(settings.embedded_path) or not holds_store(demo):
        return None
    instead: dict[str, Any] = {**flags, "store_path": demo}
    demo_config = demo / "openclaw.json"
    if settings.config_file is None and demo_config.is_file():
        instead["config_file"] = demo_config
    return load_settings(instead, env)


def demo_stands_in_for_default(settings: Settings) -> bool:
    """Whether commands that name no store reach the store of ``settings`` in place of
    the default one (``demo_in_place_of_default``)."""
    from amem_tui.engine.store import holds_store

    here = settings.embedded_path
    return not settings.url and here == demo_dir() and not holds_store(default_store_dir())
