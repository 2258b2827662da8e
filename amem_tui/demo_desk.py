"""The demo's plants for the contradiction desk and the health report.

The ``demo`` command plants, beside ``amem_tui.demo.seed_demo``'s notes, what the
contradiction desk and the health report show: ``monitor``, an agent of the store no
configuration names, silent for 13 days, with hollow notes, a pending merge, an open
conflict pair and a settled one. They are ``monitor``'s own private notes, so what the other
agents see (and every picture of it) stays as it was.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from amem_tui.demo import DEMO_EPOCH, demo_id
from amem_tui.engine.clock import iso
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.formats.openclaw import openclaw_payload
from amem_tui.engine.models import MemoryNote


def at(days_ago: float, epoch: datetime = DEMO_EPOCH) -> str:
    """The demo's calendar: ``days_ago`` days before its epoch, as an ISO string."""
    return iso(epoch - timedelta(days=days_ago))


#: The agent the write-health plants belong to: an operations agent that wrote an
#: episode a day, then fell silent.
MONITOR = "monitor"
#: The pair the demo settles as it seeds (keep the newer: pages moved to Opsgenie).
SETTLED_PAIR = ("ops-pager-new", "ops-pager-old")


def conflict_and_health_notes(epoch: datetime = DEMO_EPOCH) -> list[MemoryNote]:
    """The demo's planted conflicts and write-health problems, all ``monitor``'s own private
    notes (so the other agents' views stay as they were): an episode a day from 26 to
    13 days ago and nothing since (a silent agent), the episodes hollow (no keywords,
    tags or context, as openclaw-amem's ``addEpisodic`` writes them), a note waiting
    for the nightly merge (``pending_merge``), an open conflict pair and a pair
    ``plant_conflicts_and_health`` settles (keep the newer)."""
    scanned = at(12.9, epoch)

    def note(key: str, content: str, days: float, **extra: Any) -> MemoryNote:
        fields: dict[str, Any] = {
            "keywords": sorted({w.strip(".,").lower() for w in content.split() if len(w) > 5})[:4],
            "tags": ["ops"],
            "context": "Operations note from monitor",
            "timestamp": at(days, epoch),
            "last_accessed": at(days, epoch),
            "category": "System",
            "conflict_scanned_at": scanned,
            **extra,
        }
        payload = openclaw_payload(content, agent_id=MONITOR, owner=MONITOR, **fields)
        return MemoryNote.from_payload(demo_id(key), payload)

    def flagged(partner: str, reason: str) -> dict[str, Any]:
        return {
            "conflict": True,
            "evolution_type": "CONFLICT",
            "conflicts_with": [demo_id(partner)],
            "conflict_reason": reason,
        }

    hosts = ("db-1", "db-2", "web-1", "web-2", "queue-1", "cache-1", "db-1")
    episodes = [
        note(
            f"ops-episode-{n}",
            f"Episode: nightly backup of {hosts[n % len(hosts)]} finished in {11 + n} minutes",
            26 - n,
            keywords=[],
            tags=[],
            context="",
            category="Episode",
        )
        for n in range(14)
    ]
    pager = "two paging services for ops"
    backup = "two backup times for db-1"
    return [
        *episodes,
        note("ops-disk", "Disk usage on db-2 is above 80 percent", 15),
        note(
            "ops-disk-again", "Disk usage on db-2 crossed 80 percent again", 14, pending_merge=True
        ),
        note(
            "ops-backup-early",
            "Backups of db-1 run at 01:00 UTC every night",
            20,
            **flagged("ops-backup-late", backup),
        ),
        note(
            "ops-backup-late",
            "Backups of db-1 run at 03:00 UTC since the maintenance window moved",
            16,
            **flagged("ops-backup-early", backup),
        ),
        note(
            "ops-pager-old", "Pages for ops go to PagerDuty", 24, **flagged("ops-pager-new", pager)
        ),
        note(
            "ops-pager-new",
            "Pages for ops moved to Opsgenie in October",
            18,
            **flagged("ops-pager-old", pager),
        ),
    ]


def plant_conflicts_and_health(engine: MemoryEngine, epoch: datetime = DEMO_EPOCH) -> int:
    """Write the planted notes of ``conflict_and_health_notes`` that are missing,
    and settle the settled pair (keep the newer) as a person would at the contradiction
    desk, when neither of its notes was there yet: a recorded decision, in ``monitor``'s
    history, undone with ``undo``. Returns how many notes the plants hold."""
    notes = conflict_and_health_notes(epoch)
    keep, retire = (demo_id(k) for k in SETTLED_PAIR)
    store = engine.store
    fresh = store.collection_info("amem_notes") is None or not store.retrieve(
        "amem_notes", [keep, retire]
    )
    engine.put_notes("amem_notes", notes, skip_existing=True)
    if fresh:
        # Decided on the demo's own calendar, with a fixed id: the engine's clock and
        # ids (injected by tests and pictures) are left to what the user does next.
        ids = iter([demo_id("ops-pager-decision")])
        time = engine.time
        own = time.clock, time.new_id
        time.clock, time.new_id = (lambda: epoch - timedelta(days=12)), (lambda: next(ids))
        try:
            engine.agent(MONITOR).conflicts.resolve(
                keep, retire, "A", reason="Paging moved to Opsgenie in October"
            )
        finally:
            time.clock, time.new_id = own
    return len(notes)
