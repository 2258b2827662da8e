"""openclaw-amem's note payload, as its storage writes it (and as amem_tui writes notes).

Reading needs nothing format-specific: ``MemoryNote.from_payload`` reads every
variant (legacy notes without access fields, ``evolution_history`` as a JSON string
or a list). This module builds the payload of a new note, the one shape both tools
write, for demo data, fixtures and imports.
"""

from __future__ import annotations

from typing import Any

from amem_tui.engine.models import EVERYONE, SHARED, content_hash

#: Access fields old notes lack (their values are derived from ``agent_id``).
ACCESS_FIELDS = ("is_active", "owner", "readers", "writers")


def openclaw_payload(
    content: str, *, agent_id: str, owner: str, legacy: bool = False, **fields: Any
) -> dict[str, Any]:
    """The full payload openclaw-amem writes for a new note, with ``fields`` overriding.

    Access fields follow the scope contract (shared: ``readers=["*"]``). With
    ``legacy`` the payload is as old notes were: no ``is_active``, ``owner``,
    ``readers`` or ``writers``.
    """
    payload: dict[str, Any] = {
        "content": content,
        "keywords": [],
        "tags": [],
        "context": "",
        "links": [],
        "timestamp": "",
        "last_accessed": "",
        "agent_id": agent_id,
        "hash": content_hash(content),
        "retrieval_count": 0,
        "evolution_history": "[]",
        "category": "General",
        "note_type": "memory",
        "topics": [],
        "pending_merge": False,
        "evolution_type": "NEW",
        "conflict": False,
        "conflicts_with": [],
        "conflict_reason": "",
        "conflict_scanned_at": "",
        "subjects": [],
        "ephemeral": False,
        "low_quality": False,
        "is_active": True,
        "owner": owner,
        "readers": [EVERYONE] if agent_id == SHARED else [owner],
        "writers": [owner],
    }
    payload.update(fields)
    if legacy:
        for field in ACCESS_FIELDS:
            payload.pop(field, None)
    return payload
