"""mem0 memories as amem_tui reads them: read-only note views, and mem0's identity rules.

mem0 keeps the memory text in ``data``; the OpenClaw mem0 plugin keeps the agent
inside ``user_id`` (``<user>:agent:<agent>``; a plain user id is the primary
session, ``main``). Each memory reads as a note private to that agent. mem0 has
no shared scope and no soft delete. Nothing here touches a store.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from amem_tui.engine.models import NOTE_FIELDS, MemoryNote
from amem_tui.engine.scope import DEFAULT_AGENT
from amem_tui.engine.store.filters import Condition, Filter, Match, MatchAny

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


# ------------------------------------------------------------------ identity
#: How mem0's OpenClaw plugin names a non-main agent inside ``user_id``.
MEM0_AGENT_MARK = ":agent:"


def mem0_agent(user_id: object, agent_id: object = None) -> str | None:
    """The agent a mem0 memory belongs to, or None when it names none.

    ``<user>:agent:<agent>`` gives ``<agent>``; a plain ``user_id`` is the primary
    session, ``main``. Only a memory with no usable ``user_id`` falls back to its
    own ``agent_id``.
    """
    if isinstance(user_id, str) and user_id.strip():
        _, mark, agent = user_id.partition(MEM0_AGENT_MARK)
        if mark:
            return agent or None
        return DEFAULT_AGENT
    if isinstance(agent_id, str) and agent_id.strip():
        return agent_id
    return None


def mem0_read_filter(agent: str, user_ids: Iterable[str]) -> Filter:
    """What ``agent`` may read in a mem0 collection, given every ``user_id`` in it.

    A neutral filter cannot match a suffix, so the caller lists the ``user_id``
    values present and this picks the ones that map to ``agent``. Memories with
    no ``user_id`` count by their ``agent_id``. mem0 has no shared scope and no
    soft delete.
    """
    everyone = tuple(sorted(set(user_ids)))
    mine = tuple(u for u in everyone if mem0_agent(u) == agent)
    options: list[Condition] = []
    if mine:
        options.append(MatchAny("user_id", mine))
    by_agent_id = Filter(
        must=(Match("agent_id", agent),),
        must_not=(MatchAny("user_id", everyone),) if everyone else (),
    )
    options.append(by_agent_id)
    return Filter(must=(Filter(should=tuple(options)),))
