"""Render the main states of the inspector to SVG, for the README and the docs.

Demo data, the deterministic test embedder and a fixed clock, so the images only
change when the app does. Run from the repository root:

    python scripts/screenshots.py [--out screenshots]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from textual.pilot import Pilot

from amem_tui.config import Settings
from amem_tui.demo import demo_id, demo_settings, seed_demo
from amem_tui.engine.embed import HashEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.store.qdrant import QdrantStore
from amem_tui.tui.app import AmemApp
from amem_tui.tui.widgets.compared_list import ComparedList
from amem_tui.tui.widgets.note_pane import NotePane
from tests.support.tui import settle

SIZE = (120, 40)
START = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


def engine() -> MemoryEngine:
    """The demo memory with a fixed clock and ids, in memory."""
    ticks = itertools.count()
    ids = itertools.count(1)
    eng = MemoryEngine(
        demo_settings(Settings(store_path=Path("demo-store"))),
        store=QdrantStore(path=":memory:"),
        embedder=HashEmbedder(),
        clock=lambda: START + timedelta(seconds=next(ticks)),
        new_id=lambda: str(uuid.UUID(int=next(ids))),
    )
    seed_demo(eng)
    return eng


async def select(pilot: Pilot[Any], which: str, key: str) -> None:
    """Put the cursor on a demo note."""
    pane = pilot.app.screen.query_one(f"#{which}", NotePane)
    pane.select(demo_id(key))
    pane.table.focus()
    await settle(pilot)


Steps = Callable[[Pilot[Any]], Awaitable[None]]


async def _nothing(pilot: Pilot[Any]) -> None:
    await settle(pilot)


async def _search(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.press("slash", *"production deploy frozen", "enter")
    await settle(pilot)


async def _detail(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await select(pilot, "shared", "shared-freeze")


async def _preview(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.press("c")
    await settle(pilot)


async def _compare(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.press("v")
    await settle(pilot)
    # dev's note that main reads by id only: listed as only dev's, with main's get rule.
    for which in ("#list-both", "#list-b", "#list-a"):
        listed = pilot.app.screen.query_one(which, ComparedList)
        ids = [getattr(entry, "id", "") for entry in listed.entries]
        if demo_id("dev-selective") in ids:
            listed.table.focus()
            listed.table.move_cursor(row=ids.index(demo_id("dev-selective")))
            break
    await settle(pilot)


async def _compare_search(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.press("v")
    await settle(pilot)
    await pilot.press("slash", *"deploy freeze", "enter")
    await settle(pilot)


async def _overview(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    pilot.app.engine.agent("dev").consolidate()  # so that the savings have something to show
    await pilot.press("o")
    await settle(pilot)


async def _versions(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    trip = demo_id("main-trip")
    view = pilot.app.engine.agent("main")
    for content in (
        "Flight to Lisbon for the offsite is booked for December 15, seat 12A",
        "Flight to Lisbon for the offsite is booked for December 15, seat 3C",
    ):
        view.update(trip, content=content)
    await pilot.press("f5")
    await settle(pilot)
    await select(pilot, "private", "main-trip")
    await pilot.press("V")
    await settle(pilot)
    await pilot.press("down")
    await settle(pilot)


SMALL = (80, 24)

SHOTS: list[tuple[str, str | None, Steps, tuple[int, int]]] = [
    ("main-view", None, _nothing, SIZE),
    ("live-search", "dev", _search, SIZE),
    ("mode-b-agent", "sandbox", _nothing, SIZE),
    ("note-detail", "dev", _detail, SIZE),
    ("consolidation-preview", "dev", _preview, SIZE),
    ("live-search-80x24", "dev", _search, SMALL),
    ("compare", None, _compare, SIZE),
    ("compare-search", None, _compare_search, SIZE),
    ("overview", None, _overview, SIZE),
    ("versions", "main", _versions, SIZE),
]


async def shoot(
    out: Path, name: str, agent: str | None, steps: Steps, size: tuple[int, int]
) -> Path:
    """Run one state at ``size`` and save it as ``out/name.svg``."""
    app = AmemApp(engine(), agent=agent, user_config=False)
    app.animation_level = "none"
    async with app.run_test(size=size) as pilot:
        await steps(pilot)
        path = app.save_screenshot(filename=f"{name}.svg", path=str(out))
    return Path(path)


def main(argv: list[str] | None = None) -> int:
    """Render every state."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="screenshots", help="folder for the SVG files")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, agent, steps, size in SHOTS:
        print(asyncio.run(shoot(out, name, agent, steps, size)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
