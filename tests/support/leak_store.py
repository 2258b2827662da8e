"""A store that plants one case of each leak finding, beside clean look-alikes.

Agents as ``tests.support.engines.demo_like_settings`` makes them: main and dev in
Mode A on ``amem_notes``, sandbox in Mode B on ``amem_notes_sandbox``; and ``ops``,
which no configuration names but whose note is in the store (so the audit pairs it
too: it reads the shared scope like any Mode A agent).

``EXPECTED`` lists every finding the audit must report, worked out by hand:
(kind, from, to, the note read first, the private notes it exposes).
"""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np

from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.formats.openclaw import openclaw_payload
from amem_tui.engine.models import MemoryNote

SANDBOX = "amem_notes_sandbox"


def lid(name: str) -> str:
    """The fixed id of a planted note."""
    return str(uuid.uuid5(uuid.UUID("2b9c61a4-3d55-4e0f-9a1d-7c3e8f20b6d1"), name))


# content-copied, word for word: main publishes its own private text in a summary.
P_COPY = lid("main-vpn")
C_COPY = lid("shared-summary")
# content-copied, near-verbatim: dev's paraphrase of its private note, shared.
P_NEAR = lid("dev-revenue")
C_NEAR = lid("shared-revenue")
# merged-history: a shared note's history records main's private note merged into it.
P_MERGED = lid("main-bonus")
C_MERGED = lid("shared-comp")
# secret: a shared note holding an access key.
C_SECRET = lid("shared-ci-key")
# link-to-private: a shared note links to main's private note.
P_LINK = lid("main-offsite")
C_LINK = lid("shared-offsite")
# grant-unusable: readers naming a Mode B agent, and a misspelt agent.
G_MODE_B = lid("main-grant-sandbox")
G_MISSPELT = lid("dev-grant-mian")
# unknown-agent: a note of an agent no configuration names.
U_OPS = lid("ops-note")
# misplaced: main's note in sandbox's Mode B collection.
M_MAIN = lid("sandbox-main")

# Look-alikes: nothing may be reported about them.
L_TOPIC = lid("shared-vpn-topic")  # the same topic as P_COPY, other words
L_GRANT = lid("dev-grant-main")  # a readers grant used correctly
L_OWN_SECRET = lid("dev-own-token")  # a credential only its owner reads
L_POLICY = lid("shared-password-policy")  # mentions passwords, holds none
L_SANDBOX = lid("sandbox-own")  # sandbox's own note in its collection

Expected = tuple[str, str | None, str | None, tuple[str, ...]]

#: Every finding of the planted store: (kind, from, to, notes).
EXPECTED: set[Expected] = {
    ("content-copied", "main", "dev", (C_COPY, P_COPY)),
    ("content-copied", "main", "ops", (C_COPY, P_COPY)),
    ("content-copied", "dev", "main", (C_NEAR, P_NEAR)),
    ("content-copied", "dev", "ops", (C_NEAR, P_NEAR)),
    ("merged-history", "main", "dev", (C_MERGED, P_MERGED)),
    ("merged-history", "main", "ops", (C_MERGED, P_MERGED)),
    ("secret", "dev", "main", (C_SECRET,)),
    ("secret", "dev", "ops", (C_SECRET,)),
    ("link-to-private", "main", "dev", (C_LINK, P_LINK)),
    ("link-to-private", "main", "ops", (C_LINK, P_LINK)),
    ("grant-unusable", "main", "sandbox", (G_MODE_B,)),
    ("grant-unusable", "dev", "mian", (G_MISSPELT,)),
    ("unknown-agent", "ops", None, (U_OPS,)),
    ("misplaced", "main", "sandbox", (M_MAIN,)),
}

VPN_TEXT = (
    "The staging VPN pre-shared key rotation happens on the first Monday of the month "
    "and is announced in the infra channel by the on-call engineer"
)
REVENUE_TEXT = "Quarterly revenue target for the EMEA region is forty two million euros this year"

_NOTES: list[tuple[str, str, str, str, dict[str, Any]]] = [
    (P_COPY, "main", "main", VPN_TEXT, {}),
    (
        C_COPY,
        "shared",
        "main",
        f"Weekly summary for the team. {VPN_TEXT}. Questions go to main.",
        {},
    ),
    (P_NEAR, "dev", "dev", REVENUE_TEXT, {}),
    (
        C_NEAR,
        "shared",
        "dev",
        "This year the EMEA region quarterly revenue target is forty two million euros",
        {},
    ),
    (
        P_MERGED,
        "main",
        "main",
        "Bonus pool numbers for the compensation review sit in the finance drive folder",
        {"is_active": False},
    ),
    (
        C_MERGED,
        "shared",
        "main",
        "Compensation review timeline: managers submit proposals before the holidays",
        {},
    ),
    (
        C_SECRET,
        "shared",
        "dev",
        "CI deploy credentials for the staging bucket: AKIAIOSFODNN7EXAMPLE (rotate in March)",
        {},
    ),
    (P_LINK, "main", "main", "Offsite hotel booking reference and room preferences for Lisbon", {}),
    (C_LINK, "shared", "main", "The offsite agenda is final; travel details are with main", {}),
    (G_MODE_B, "main", "main", "Draft of the sandbox escape report, to be reviewed", {}),
    (G_MISSPELT, "dev", "dev", "Notes on the flaky integration test in the payments suite", {}),
    (U_OPS, "ops", "ops", "Pager escalation policy for the database cluster is level two", {}),
    (L_TOPIC, "shared", "dev", "VPN credentials are changed regularly, ask in infra chat", {}),
    (L_GRANT, "dev", "dev", "Release checklist for the mobile app, shared with main", {}),
    (L_OWN_SECRET, "dev", "dev", "my token: ghp_1234567890abcdefghijklmnopqrstuvwxyzAB", {}),
    (L_POLICY, "shared", "main", "Password rotation policy: every ninety days, no reuse", {}),
]
_SANDBOX_NOTES: list[tuple[str, str, str, str, dict[str, Any]]] = [
    (M_MAIN, "main", "main", "Main's travel budget for the offsite, not for the sandbox", {}),
    (L_SANDBOX, "sandbox", "sandbox", "Sandbox experiment log: tool calls blocked today", {}),
]


def _note(key: str, agent_id: str, owner: str, content: str, extra: dict[str, Any]) -> MemoryNote:
    return MemoryNote.from_payload(
        key, openclaw_payload(content, agent_id=agent_id, owner=owner, **extra)
    )


def plant_leaks(engine: MemoryEngine) -> None:
    """Write the planted store (every note exactly as given, its vector embedded)."""
    notes = {key: _note(key, *rest) for key, *rest in _NOTES}
    notes[C_MERGED].evolution_history = MemoryNote.from_payload(
        C_MERGED,
        {
            "evolution_history": [
                {
                    "triggeredBy": P_MERGED,
                    "triggeredAt": "2026-11-10T02:30:00.000Z",
                    "action": "consolidate",
                    "oldContext": "",
                    "newContext": "compensation",
                }
            ]
        },
    ).evolution_history
    notes[C_LINK].links = [P_LINK]
    notes[G_MODE_B].readers = ["main", "sandbox"]
    notes[G_MISSPELT].readers = ["dev", "mian"]
    notes[L_GRANT].readers = ["dev", "main"]
    engine.put_notes("amem_notes", list(notes.values()))
    sandbox = [_note(key, *rest) for key, *rest in _SANDBOX_NOTES]
    engine.put_notes(SANDBOX, sandbox)


def near_cosine(engine: MemoryEngine) -> float:
    """The cosine of the near-verbatim pair's stored vectors (must reach 0.95)."""
    points = engine.store.retrieve("amem_notes", [P_NEAR, C_NEAR], with_vectors=True)
    found = {p.id: np.asarray(p.vector) for p in points}
    a, b = found[P_NEAR], found[C_NEAR]
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


def found(report: Any) -> set[Expected]:
    """A report's findings as ``EXPECTED`` writes them."""
    return {(f.kind, f.from_agent, f.to_agent, tuple(f.notes)) for f in report.findings}
