"""A store with conflicts planted as openclaw-amem's nightly sweep flags them, and clean
look-alikes beside them.

Planted (ids from ``tests.support.consolidation_data.nid``):

- ``cross``: a pair in Mode A across two agents: main's private ``cross-main`` and
  dev's shared ``cross-dev`` (main reads both; dev reads only its own);
- ``inside``: a pair inside main: ``inside-new`` and ``inside-old``;
- ``devpair``: a pair inside dev: ``dev-a`` and ``dev-b`` (main reads neither);
- ``sandbox``: a pair in the Mode B collection: ``sb-a`` and ``sb-b``;
- dangling flags on main's notes: ``gone-missing`` names a note that does not exist,
  ``gone-retired`` names ``retired`` (soft-deleted), ``unpaired`` is ``conflict`` true
  with no partner named (openclaw-amem's same-day merge sets it so).

Look-alikes, never listed: ``settled`` (``evolution_type`` CONFLICT and a reason, but
no flag: decided), ``retired`` (flagged, but soft-deleted itself), ``plain`` notes.
"""

from __future__ import annotations

from typing import Any

from amem_tui.engine.engine import MemoryEngine
from tests.support.consolidation_data import MODE_A, MODE_B, axis, make_note, nid, put

SCANNED = "2026-11-19T02:30:05.000Z"
MISSING = nid("never-written")


def flagged(partners: list[str], reason: str = "they contradict each other") -> dict[str, Any]:
    """The fields the sweep sets on a note of a pair it found."""
    return {
        "conflict": True,
        "evolution_type": "CONFLICT",
        "conflicts_with": [nid(p) for p in partners],
        "conflict_reason": reason,
        "conflict_scanned_at": SCANNED,
    }


def day(n: int) -> str:
    """An ISO time ``n`` days into November 2026."""
    return f"2026-11-{n:02d}T10:00:00.000Z"


def plant_conflicts(engine: MemoryEngine) -> None:
    """Write the pairs, dangling flags and look-alikes described above."""
    mode_a = [
        make_note(
            "cross-main",
            "main",
            "The staging database is rebuilt every night at midnight",
            category="Technical",
            timestamp=day(12),
            **flagged(["cross-dev"], "two schedules for the staging rebuild"),
        ),
        make_note(
            "cross-dev",
            "shared",
            "The staging database is rebuilt every Sunday at noon",
            owner="dev",
            category="Technical",
            timestamp=day(10),
            **flagged(["cross-main"], "two schedules for the staging rebuild"),
        ),
        make_note(
            "inside-new",
            "main",
            "The user moved to Lisbon in October and works from there",
            timestamp=day(15),
            **flagged(["inside-old"], "two home cities"),
        ),
        make_note(
            "inside-old",
            "main",
            "The user lives in Berlin and works from the Berlin office",
            timestamp=day(2),
            **flagged(["inside-new"], "two home cities"),
        ),
        make_note("dev-a", "dev", "Tests run on Python 3.12 in CI", **flagged(["dev-b"])),
        make_note("dev-b", "dev", "Tests run on Python 3.11 in CI", **flagged(["dev-a"])),
        make_note(
            "gone-missing",
            "main",
            "The user's favourite editor is Helix",
            timestamp=day(5),
            **flagged(["never-written"]),
        ),
        make_note(
            "gone-retired",
            "main",
            "The user drinks tea, never coffee",
            timestamp=day(6),
            **flagged(["retired"]),
        ),
        make_note(
            "retired",
            "main",
            "The user drinks two coffees every morning",
            timestamp=day(4),
            is_active=False,
            **flagged(["gone-retired"]),
        ),
        make_note(
            "unpaired",
            "main",
            "The quarterly report is due on the first Monday",
            timestamp=day(7),
            conflict=True,
            evolution_type="CONFLICT",
        ),
        make_note(
            "settled",
            "main",
            "The user prefers dark themes in every editor",
            timestamp=day(8),
            evolution_type="CONFLICT",
            conflict_reason="was flagged once, then decided",
            conflict_scanned_at=SCANNED,
        ),
        make_note("plain", "main", "The user's cat is called Miso", conflict_scanned_at=SCANNED),
    ]
    put(engine, MODE_A, [(note, axis(i)) for i, note in enumerate(mode_a)])
    mode_b = [
        make_note("sb-a", "sandbox", "The sandbox may call the calculator", **flagged(["sb-b"])),
        make_note("sb-b", "sandbox", "The sandbox may call no tool at all", **flagged(["sb-a"])),
    ]
    put(engine, MODE_B, [(note, axis(30 + i)) for i, note in enumerate(mode_b)])
