"""A multi-agent store whose every view is known by hand, for compare and stats tests.

Agents: ``main``, ``dev`` and ``ops`` in Mode A on ``amem_notes``; ``sandbox`` in Mode
B on ``amem_notes_sandbox`` and ``lab`` in Mode B on ``amem_notes_lab``.

Notes (key: what it is):

- ``m1``: main's private note; ``m_gone``: main's private note, soft-deleted;
  ``m_shared``: shared by main.
- ``d1``: dev's private note; ``d_sel``: dev's, its readers name dev and ops
  (selectively shared with ops); ``d_star``: dev's, readers ``["*"]`` but agent_id
  ``dev`` (anyone may read it by id, nobody else finds it).
- ``o1``: ops's private note; ``o_old``: ops's legacy note (no access fields);
  ``o_shared``: shared by ops.
- ``bad``: a point with no agent_id (malformed: nobody sees it).
- ``s1``: sandbox's note; ``l1``: lab's note, each in its own collection.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from amem_tui.config import AgentConfig, Settings
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.formats.openclaw import openclaw_payload
from amem_tui.engine.models import MemoryNote

LAB = "amem_notes_lab"
SANDBOX = "amem_notes_sandbox"
TEAM_NAMESPACE = uuid.UUID("0e0a9c1e-51b2-4f7a-9a43-6d3b8f1c2e77")


def team_settings(**extra: Any) -> Settings:
    """main, dev and ops in Mode A; sandbox and lab in Mode B."""
    return Settings(
        agents=[
            AgentConfig(agent="dev"),
            AgentConfig(agent="ops"),
            AgentConfig(agent="sandbox", collection=SANDBOX),
            AgentConfig(agent="lab", collection=LAB),
        ],
        **extra,
    )


def team_config(folder: Path) -> Path:
    """The same agents as an openclaw.json, for the CLI."""
    config = {
        "plugins": {
            "entries": {
                "openclaw-amem": {
                    "config": {
                        "agentId": "main",
                        "agents": {
                            "dev": {"agentId": "dev"},
                            "ops": {"agentId": "ops"},
                            "sandbox": {"agentId": "sandbox", "collection": SANDBOX},
                            "lab": {"agentId": "lab", "collection": LAB},
                        },
                    }
                }
            }
        }
    }
    path = folder / "openclaw.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


def _put(engine: MemoryEngine, collection: str, key: str, payload: dict[str, Any]) -> str:
    note_id = str(uuid.uuid5(TEAM_NAMESPACE, key))
    engine.put_notes(collection, [MemoryNote.from_payload(note_id, payload)])
    return note_id


def build_team_store(engine: MemoryEngine) -> dict[str, str]:
    """Write the notes of the module docstring; returns their ids by key."""
    ids = {
        "m1": engine.agent("main")
        .add("Main keeps the quarterly budget spreadsheet in the drive")
        .id,
        "m_gone": engine.agent("main").add("Main's temporary note about an old VPN password").id,
        "m_shared": engine.agent("main").add("The office closes at six on Fridays", shared=True).id,
        "d1": engine.agent("dev").add("Dev runs the linters before every commit").id,
        "o1": engine.agent("ops").add("Ops rotates the pager every Monday morning").id,
        "o_shared": engine.agent("ops")
        .add("Incidents are reported in the ops channel", shared=True)
        .id,
        "s1": engine.agent("sandbox").add("Sandbox experiment: the plugin was blocked").id,
        "l1": engine.agent("lab").add("Lab measured the cache hit rate at ninety percent").id,
    }
    engine.agent("main").delete(ids["m_gone"])
    ids["d_sel"] = _put(
        engine,
        "amem_notes",
        "d_sel",
        openclaw_payload(
            "Dev shares the staging credentials rotation with ops",
            agent_id="dev",
            owner="dev",
            readers=["dev", "ops"],
            writers=["dev"],
            timestamp="2026-11-03T10:00:00.000Z",
        ),
    )
    ids["d_star"] = _put(
        engine,
        "amem_notes",
        "d_star",
        openclaw_payload(
            "Dev's note readable by anyone who has its id",
            agent_id="dev",
            owner="dev",
            readers=["*"],
            writers=["dev"],
            timestamp="2026-11-18T10:00:00.000Z",
        ),
    )
    ids["o_old"] = _put(
        engine,
        "amem_notes",
        "o_old",
        openclaw_payload(
            "Ops wrote this before access fields existed",
            agent_id="ops",
            owner="ops",
            legacy=True,
            timestamp="2026-10-01T08:00:00.000Z",
        ),
    )
    bad = openclaw_payload("A point that names no agent", agent_id="x", owner="x")
    for field in ("agent_id", "owner", "readers", "writers", "timestamp"):
        bad.pop(field, None)
    ids["bad"] = _put(engine, "amem_notes", "bad", bad)
    return ids
