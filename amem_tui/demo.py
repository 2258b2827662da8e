"""A realistic multi-agent demo memory: the same notes, ids and times on every run.

Agents: ``main`` (daily driver) and ``dev`` (coding agent) in Mode A on
``amem_notes``; ``sandbox`` in Mode B on ``amem_notes_sandbox``. Shared notes
from two owners, near-duplicates worth consolidating, links across scopes,
evolution history, a soft-deleted note and an old note without ``is_active``.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from amem_tui.config import AgentConfig, Settings
from amem_tui.engine.clock import iso
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.formats.openclaw import openclaw_payload
from amem_tui.engine.models import EvolutionEntry, MemoryNote
from amem_tui.paths import data_dir

DEMO_NAMESPACE = uuid.UUID("6f1c2a4e-9d0b-4c55-8a77-3e2f0b1d5c90")
DEMO_EPOCH = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
SANDBOX_COLLECTION = "amem_notes_sandbox"
DEMO_CONFIG_NAME = "openclaw.json"


def demo_id(key: str) -> str:
    """The fixed id of a demo note."""
    return str(uuid.uuid5(DEMO_NAMESPACE, key))


def demo_config_path(settings: Settings) -> Path:
    """Where the demo keeps its openclaw.json: beside its embedded store (or, on a
    server, in the data folder)."""
    folder = data_dir() if settings.url else settings.embedded_path
    return folder / DEMO_CONFIG_NAME


def demo_settings(settings: Settings) -> Settings:
    """The settings with the demo's agents, unless a configuration already names agents.

    The demo's own openclaw.json (``demo_config_path``, written by the ``demo``
    command) becomes the configuration in use when none was found, so what shows
    the settings (the audit screen) names the file the agents come from.
    """
    if settings.agents:
        return settings
    agents = [AgentConfig(agent="dev"), AgentConfig(agent="sandbox", collection=SANDBOX_COLLECTION)]
    update: dict[str, Any] = {"agents": agents}
    if settings.config_file is None:
        update["config_file"] = demo_config_path(settings)
    return settings.model_copy(update=update)


def demo_epoch(now: datetime) -> datetime:
    """The demo's calendar for a demo made at ``now``: the hour it is made, so the demo
    looks the same (one agent silent, the others writing) whatever day it is made, and
    a fixed clock (tests, pictures) gives a fixed demo."""
    return now.astimezone(UTC).replace(minute=0, second=0, microsecond=0)


def _at(days_ago: float, epoch: datetime = DEMO_EPOCH) -> str:
    return iso(epoch - timedelta(days=days_ago))


#: A demo note: key, agent_id, owner, content, tags, category, days ago, and extra
#: payload fields (``legacy``: an old-format payload; ``collection``: where it is
#: written, when not where its agent's notes go).
_Row = tuple[str, str, str, str, list[str], str, float, dict[str, Any]]

_NOTES: list[_Row] = [
    (
        "main-vendor",
        "main",
        "main",
        "Vendor account for the cloud bill is under ACME Corp, invoices go to finance@acme.example",
        ["billing", "vendor"],
        "Business",
        30,
        {},
    ),
    (
        "main-standup",
        "main",
        "main",
        "User prefers the daily standup summary as three bullet points, no emoji",
        ["preferences", "standup"],
        "Personal",
        21,
        {},
    ),
    (
        "main-standup-dup",
        "main",
        "main",
        "User prefers daily standup summaries as three short bullet points without emoji",
        ["preferences"],
        "Personal",
        3,
        {},
    ),
    (
        "main-trip",
        "main",
        "main",
        "Flight to Lisbon for the offsite is booked for December 14, seat 12A",
        ["travel"],
        "Personal",
        5,
        {},
    ),
    (
        "main-reviews",
        "main",
        "main",
        "Code reviews from Priya are usually thorough; ask her for the auth changes",
        ["people", "reviews"],
        "Project",
        12,
        {"subjects": ["Priya"]},
    ),
    (
        "main-reviews-dup",
        "main",
        "main",
        "Priya does thorough code reviews, ask Priya to review the auth changes",
        ["people"],
        "Project",
        2,
        {"subjects": ["Priya"]},
    ),
    (
        "main-old",
        "main",
        "main",
        "The team wiki moved to the new docs site last spring",
        ["docs"],
        "General",
        400,
        {"legacy": True},
    ),
    (
        "main-deleted",
        "main",
        "main",
        "Temporary VPN password rotation reminder for the old office network",
        ["vpn"],
        "System",
        60,
        {"is_active": False},
    ),
    (
        "main-knowledge",
        "main",
        "main",
        "Postgres connection pool defaults to 20 connections per service instance",
        ["postgres"],
        "Technical",
        40,
        {"note_type": "knowledge", "topics": ["postgres"]},
    ),
    (
        "dev-jwt",
        "dev",
        "dev",
        "Currently debugging auth middleware, focus on JWT expiry handling in refresh tokens",
        ["auth", "jwt"],
        "Technical",
        1,
        {"ephemeral": True},
    ),
    (
        "dev-tests",
        "dev",
        "dev",
        "Run the integration tests with make test-integration before pushing to main",
        ["testing", "ci"],
        "Technical",
        9,
        {},
    ),
    (
        "dev-tests-dup",
        "dev",
        "dev",
        "Before pushing to main, run make test-integration for the integration tests",
        ["ci"],
        "Technical",
        4,
        {},
    ),
    (
        "dev-tests-dup2",
        "dev",
        "dev",
        "Always run make test-integration integration tests before a push to main",
        ["testing"],
        "Technical",
        2,
        {},
    ),
    (
        "dev-lint",
        "dev",
        "dev",
        "The repository uses ruff for linting and formatting, line length 100",
        ["tooling"],
        "Technical",
        15,
        {},
    ),
    (
        "dev-selective",
        "dev",
        "dev",
        "Staging database credentials rotate every Monday; main may read this note",
        ["staging"],
        "System",
        7,
        {"readers": ["dev", "main"]},
    ),
    (
        "shared-snake",
        "shared",
        "main",
        "All API endpoints use snake_case JSON keys",
        ["conventions", "api"],
        "Technical",
        50,
        {},
    ),
    (
        "shared-freeze",
        "shared",
        "main",
        "Production deploy is frozen until 2026-12-20 for the year-end audit",
        ["deploy", "freeze"],
        "Project",
        6,
        {"ephemeral": True},
    ),
    (
        "shared-oncall",
        "shared",
        "dev",
        "On-call rotation for the payments service is in the ops calendar, handoff on Fridays",
        ["oncall"],
        "Project",
        11,
        {},
    ),
    (
        "shared-branches",
        "shared",
        "dev",
        "Feature branches are named feature/<ticket>-<slug> and squash-merged",
        ["git", "conventions"],
        "Technical",
        20,
        {},
    ),
    (
        "sandbox-exp",
        "sandbox",
        "sandbox",
        "Experiment 7: the untrusted plugin tried to read ~/.ssh; blocked by the sandbox policy",
        ["security"],
        "Research",
        2,
        {},
    ),
    (
        "sandbox-exp-dup",
        "sandbox",
        "sandbox",
        "Experiment 7 result: untrusted plugin attempted to read ~/.ssh, blocked by sandbox policy",
        ["security", "experiments"],
        "Research",
        1,
        {},
    ),
    (
        "sandbox-tools",
        "sandbox",
        "sandbox",
        "Sandbox agent may only use the read-only filesystem tool and the calculator",
        ["policy"],
        "System",
        14,
        {},
    ),
]

# Links: (from, to). The shared freeze note links to main's private trip note: the
# read rule must keep that link closed to dev.
_LINKS = [
    ("shared-freeze", "main-trip"),
    ("shared-freeze", "shared-snake"),
    ("dev-tests", "shared-branches"),
    ("main-reviews", "dev-jwt"),
    ("sandbox-exp", "sandbox-tools"),
]


def demo_notes(epoch: datetime = DEMO_EPOCH) -> dict[str, list[MemoryNote]]:
    """The demo notes, grouped by collection, dated before ``epoch``."""
    links: dict[str, list[str]] = {}
    for source, target in _LINKS:
        links.setdefault(source, []).append(demo_id(target))
    out: dict[str, list[MemoryNote]] = {"amem_notes": [], SANDBOX_COLLECTION: []}
    for collection, notes in _built(_NOTES, links, epoch).items():
        out[collection].extend(notes)
    _add_history(out["amem_notes"], epoch)
    return out


def _built(
    rows: list[_Row], links: dict[str, list[str]], epoch: datetime
) -> dict[str, list[MemoryNote]]:
    """The notes of ``rows``, grouped by collection."""
    out: dict[str, list[MemoryNote]] = {}
    for key, agent_id, owner, content, tags, category, days, extra in rows:
        extra = dict(extra)
        legacy = extra.pop("legacy", False)
        default = SANDBOX_COLLECTION if agent_id == "sandbox" else "amem_notes"
        collection = extra.pop("collection", default)
        payload = openclaw_payload(
            content,
            agent_id=agent_id,
            owner=owner,
            legacy=legacy,
            keywords=sorted({w.strip(".,;:").lower() for w in content.split() if len(w) > 5})[:6],
            tags=tags,
            context=f"{category} note from {owner}",
            links=links.get(key, []),
            timestamp=_at(days, epoch),
            last_accessed=_at(max(days - 1, 0), epoch),
            retrieval_count=int(days) % 7,
            category=category,
            **extra,
        )
        out.setdefault(collection, []).append(MemoryNote.from_payload(demo_id(key), payload))
    return out


def _add_history(notes: list[MemoryNote], epoch: datetime) -> None:
    by_id = {n.id: n for n in notes}
    snake = by_id[demo_id("shared-snake")]
    snake.evolution_history = [
        EvolutionEntry(
            triggeredBy=demo_id("shared-branches"),
            triggeredAt=_at(19, epoch),
            action="strengthen",
            oldContext="API conventions",
            newContext=snake.context,
            oldTags=["api"],
            newTags=list(snake.tags),
        )
    ]
    freeze = by_id[demo_id("shared-freeze")]
    freeze.conflict = True
    freeze.conflicts_with = [demo_id("main-trip")]
    freeze.conflict_reason = "The offsite flight falls inside the deploy freeze window"
    freeze.evolution_type = "CONFLICT"
    vendor = by_id[demo_id("main-vendor")]
    vendor.evolution_history = [
        EvolutionEntry(
            triggeredBy=demo_id("main-trip"),
            triggeredAt=_at(4, epoch),
            action="update_neighbor",
            oldContext="billing",
            newContext=vendor.context,
        )
    ]


def demo_leak_cases(epoch: datetime = DEMO_EPOCH) -> dict[str, list[MemoryNote]]:
    """Notes that plant one case of each leak the audit reports (``engine.leaks()``),
    grouped by collection (``amem-tui demo --leaks``). Beside them, the demo
    has clean look-alikes already: dev's note whose readers name main (a grant used as
    meant), and shared notes on the same topics as private ones in other words. The
    demo's shared freeze note links to main's trip: that is its ``link-to-private``.
    ``orphan-namespace`` needs a mem0 store, which the demo is not."""
    cases: list[_Row] = [
        # content-copied: main's private trip, repeated in a note everyone reads.
        (
            "leak-copied",
            "shared",
            "main",
            "Team travel: Flight to Lisbon for the offsite is booked for December 14, seat 12A",
            ["isolation"],
            "Isolation",
            8,
            {},
        ),
        # merged-history: a private note of main's merged into a shared note.
        (
            "leak-merged-source",
            "main",
            "main",
            "Budget notes for the offsite: catering capped at 4,000 euros",
            ["isolation"],
            "Isolation",
            8,
            {"is_active": False},
        ),
        (
            "leak-merged",
            "shared",
            "main",
            "Offsite budget: venue and catering approved by finance",
            ["isolation"],
            "Isolation",
            8,
            {},
        ),
        # secret: a credential in a note every agent reads (AWS's documented example key).
        (
            "leak-secret",
            "shared",
            "dev",
            "Staging uploads use the access key AKIAIOSFODNN7EXAMPLE until the bucket moves",
            ["isolation"],
            "Isolation",
            8,
            {},
        ),
        # grant-unusable: readers naming sandbox, which is Mode B and reads no shared scope.
        (
            "leak-grant",
            "main",
            "main",
            "Sandbox review checklist, meant for the sandbox agent to read",
            ["isolation"],
            "Isolation",
            8,
            {"readers": ["main", "sandbox"]},
        ),
        # unknown-agent: a note of an agent no configuration names.
        (
            "leak-unknown",
            "ops",
            "ops",
            "Pager escalation for the database cluster goes to level two after ten minutes",
            ["isolation"],
            "Isolation",
            8,
            {},
        ),
        # misplaced: main's note in sandbox's Mode B collection (sandbox reads all of it).
        (
            "leak-misplaced",
            "main",
            "main",
            "Main's reminder: renew the team's password manager licence in January",
            ["isolation"],
            "Isolation",
            8,
            {"collection": SANDBOX_COLLECTION},
        ),
    ]
    out = _built(cases, {}, epoch)
    merged = next(n for n in out["amem_notes"] if n.id == demo_id("leak-merged"))
    merged.evolution_history = [
        EvolutionEntry(
            triggeredBy=demo_id("leak-merged-source"),
            triggeredAt=_at(7, epoch),
            action="consolidate",
            oldContext="offsite budget",
            newContext=merged.context,
        )
    ]
    return out


def seed_demo(
    engine: MemoryEngine, *, leak_cases: bool = False, epoch: datetime = DEMO_EPOCH
) -> dict[str, int]:
    """Write the demo notes that are missing and return counts per collection
    (``leak_cases``: with the notes of ``demo_leak_cases``, as ``amem-tui demo
    --leaks`` seeds them), dated before ``epoch`` (the ``demo`` command: the hour it
    runs, ``demo_epoch``).

    Only missing notes are added: a note the user edited, deleted, restored or had
    merged away stays as the user left it, so running the demo again never reverts
    anything (and embeds nothing when every note is there).
    """
    counts: dict[str, int] = {}
    groups = [demo_notes(epoch), demo_leak_cases(epoch) if leak_cases else {}]
    for group in groups:
        for collection, notes in group.items():
            engine.put_notes(collection, notes, skip_existing=True)
            counts[collection] = counts.get(collection, 0) + len(notes)
    return counts


def demo_config() -> str:
    """An openclaw.json matching the demo's agents (for users who want to copy it)."""
    return json.dumps(
        {
            "plugins": {
                "entries": {
                    "openclaw-amem": {
                        "enabled": True,
                        "config": {
                            "agentId": "main",
                            "agents": {
                                "dev": {"agentId": "dev"},
                                "sandbox": {"agentId": "sandbox", "collection": SANDBOX_COLLECTION},
                            },
                        },
                    }
                }
            }
        },
        indent=2,
    )
