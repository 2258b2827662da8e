"""What a version keeps of a note: its payload without the fields that change by use.

openclaw-amem bumps ``retrieval_count`` and ``last_accessed`` whenever a search
returns a note, and every write appends to ``evolution_history``. None of them is
what a person edits, and a revert must never wind back a recall count or rewrite
history, so a snapshot leaves them out; everything else (content, tags, links,
access fields, flags, unknown keys) is kept as stored.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

#: Payload fields a snapshot leaves out: they change by use, not by an edit.
RUNTIME_FIELDS = frozenset(
    {"evolution_history", "retrieval_count", "last_accessed", "lastAccessed"}
)
#: Fields whose change shares or unshares a note: only its owner may revert them.
ACCESS_FIELDS = ("agent_id", "readers", "writers")

Snapshot = dict[str, Any]


def snapshot(payload: Mapping[str, Any]) -> Snapshot:
    """The versioned part of a stored payload."""
    return {key: value for key, value in payload.items() if key not in RUNTIME_FIELDS}


def digest(snap: Mapping[str, Any] | None) -> str:
    """A short fingerprint of a snapshot (empty for no note at all)."""
    if snap is None:
        return ""
    text = json.dumps(snap, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def changed_fields(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> list[str]:
    """The fields that differ between two snapshots (added, removed or changed), sorted;
    none when there was no note before (the change created it)."""
    if before is None:
        return []
    old, new = before, after or {}
    return sorted(key for key in old.keys() | new.keys() if old.get(key) != new.get(key))
