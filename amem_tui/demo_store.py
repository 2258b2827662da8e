"""The demo store filled: ``amem_tui.demo``'s notes (only the missing ones), the plants
of ``amem_tui.demo_desk``, and the demo's openclaw.json beside the store, written once."""

from __future__ import annotations

from pathlib import Path

from amem_tui.config import Settings
from amem_tui.demo import demo_config, demo_config_path, demo_epoch, seed_demo
from amem_tui.demo_desk import plant_conflicts_and_health
from amem_tui.engine import MemoryEngine


def fill_demo_store(
    engine: MemoryEngine, settings: Settings, leaks: bool = False
) -> tuple[dict[str, int], Path | None]:
    """Fill the demo store (``leaks``: one case of each leak finding too): the notes per
    collection, and the configuration its agents are read from (None: none could be
    written)."""
    # Dated from now: the health report, on the real clock, sees the demo as meant (only
    # monitor silent) whatever day it is made; an injected clock keeps it fixed.
    epoch = demo_epoch(engine.clock())
    counts = seed_demo(engine, leak_cases=leaks, epoch=epoch)
    planted = plant_conflicts_and_health(engine, epoch)
    counts["amem_notes"] = counts.get("amem_notes", 0) + planted
    config, ours = settings.config_file, demo_config_path(settings)
    if config is not None and config != ours:
        return counts, config
    # Later commands need the demo's agents (sandbox is Mode B): leave them a config,
    # once: a configuration the user has since edited is theirs, as the notes are.
    try:
        ours.parent.mkdir(parents=True, exist_ok=True)
        if not ours.exists():
            ours.write_text(demo_config() + "\n", encoding="utf-8")
    except OSError:
        return counts, None
    return counts, ours
