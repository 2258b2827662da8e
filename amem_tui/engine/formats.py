"""Payload formats of the stores amem_tui reads: openclaw-amem notes and mem0 memories.

openclaw-amem points are notes already (:class:`MemoryNote` reads them). mem0
points carry the memory text in ``data`` and the agent inside ``user_id``; they
are mapped onto read-only note views here, so that the same panes, listings and
searches work on them. Nothing here touches a store.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from amem_tui.engine.models import NOTE_FIELDS, MemoryNote
from amem_tui.engine.scope import mem0_agent

PayloadFormat = Literal["amem", "mem0"]

#: Fields of a mem0 payload that the view maps or keeps under their own name.
MEM0_FIELDS = (
    "data",
    "hash",
    "user_id",
    "agent_id",
    "run_id",
    "actor_id",
    "role",
    "created_at",
    "createdAt",
    "updated_at",
    "updatedAt",
)
#: The extra keys a mem0 view carries (besides the note fields it fills).
MEM0_VIEW_KEYS = ("format", "user_id", "run_id", "actor_id", "role", "mem0_agent_id")


def payload_format(payload: Mapping[str, Any]) -> PayloadFormat | None:
    """``mem0`` for a point with ``data`` and no ``content``, ``amem`` with ``content``."""
    if "content" in payload:
        return "amem"
    if "data" in payload:
        return "mem0"
    return None


def detect_format(payloads: Iterable[Mapping[str, Any]]) -> PayloadFormat:
    """The format of a collection from a sample of its payloads.

    A collection is mem0 only when its points look like mem0 and none looks like
    an openclaw-amem note; anything else (including an empty collection) is read
    as openclaw-amem, where a point without content is simply malformed.
    """
    seen = {payload_format(p) for p in payloads}
    if "mem0" in seen and "amem" not in seen:
        return "mem0"
    return "amem"


def _first_text(payload: Mapping[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = payload.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def mem0_note(point_id: str | int, payload: Mapping[str, Any] | None) -> MemoryNote:
    """A read-only note view of one mem0 memory.

    ``data`` is the content; the agent comes from ``user_id`` (``<user>:agent:<id>``,
    a plain user id being ``main``); the memory is private to that agent.
    ``created_at``/``createdAt`` and ``updated_at``/``updatedAt`` give the times.
    mem0's own ``agent_id``, ``run_id``, ``user_id``, ``actor_id`` and ``role`` are
    kept on the view; other metadata keys are kept flat, or under
    ``mem0_metadata`` when their name is a note field.
    """
    raw = dict(payload or {})
    view: dict[str, Any] = {"format": "mem0"}
    if "data" in raw:
        view["content"] = raw["data"]
    if "hash" in raw:
        view["hash"] = raw["hash"]
    created = _first_text(raw, "created_at", "createdAt")
    if created is not None:
        view["timestamp"] = created
    updated = _first_text(raw, "updated_at", "updatedAt")
    if updated is not None:
        view["last_accessed"] = updated
    agent = mem0_agent(raw.get("user_id"), raw.get("agent_id"))
    if agent is not None:
        view.update(agent_id=agent, owner=agent, readers=[agent], writers=[agent])
    for key in ("user_id", "run_id", "actor_id", "role"):
        if key in raw:
            view[key] = raw[key]
    if "agent_id" in raw:
        view["mem0_agent_id"] = raw["agent_id"]
    metadata: dict[str, Any] = {}
    for key, value in raw.items():
        if key in MEM0_FIELDS:
            continue
        if key in NOTE_FIELDS or key in MEM0_VIEW_KEYS or key == "id":
            metadata[key] = value
        else:
            view[key] = value
    if metadata:
        view["mem0_metadata"] = metadata
    return MemoryNote.from_payload(point_id, view)


def note_view(
    fmt: PayloadFormat, point_id: str | int, payload: Mapping[str, Any] | None
) -> MemoryNote:
    """The note a point of a collection in format ``fmt`` reads as."""
    if fmt == "mem0":
        return mem0_note(point_id, payload)
    return MemoryNote.from_payload(point_id, dict(payload or {}))
