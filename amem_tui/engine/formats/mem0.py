"""mem0 memories as the OpenClaw mem0 plugin sees them: identity, read rules and note views.

mem0 keeps the memory text in ``data``. Its OpenClaw plugin (``@mem0/openclaw-mem0``)
isolates agents inside ``user_id`` and filters on ``user_id`` alone:

- main's memories are the plain ``userId``; any other agent's are
  ``<userId>:agent:<agentId>``;
- a session key ``agent:<id>:<rest>`` picks agent ``<id>`` (``main`` or no key: the
  plain ``userId``); a key ending ``:subagent:<name>`` is agent ``subagent-<name>``,
  whose ``memory_search`` reads ``<userId>:agent:subagent-<name>`` while its
  auto-recall reads the plain ``userId`` (and it may not add memories);
- an explicit ``agentId`` tool parameter names ``<userId>:agent:<agentId>``, for
  ``main`` too: ``<userId>:agent:main`` is a namespace main's sessions never recall.

So one ``user_id`` value is one namespace, and a view of the store reads exactly
one. mem0 has no shared scope and no soft delete; its memories are read here,
never written. Nothing in this module touches a store.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from amem_tui.engine.models import MemoryNote, NoteAccess
from amem_tui.engine.scope import DEFAULT_AGENT, AgentScope
from amem_tui.engine.search_results import HiddenKind, VisibleBecause
from amem_tui.engine.store.filters import Filter, Match

#: How the plugin names a non-main agent inside ``user_id``.
AGENT_MARK = ":agent:"
_SUBAGENT = re.compile(r":subagent:([^:]+)$")
_SESSION_AGENT = re.compile(r"^agent:([^:]+):")

#: Which reading of a session a view shows: what ``memory_search`` reads, what the
#: auto-recall hook reads (they differ for subagents), or an explicit ``agentId``.
Mem0View = Literal["search", "recall", "agentId"]

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
    "textLemmatized",
    "text_lemmatized",
)
#: The extra keys a mem0 view carries (besides the note fields it fills).
MEM0_VIEW_KEYS = (
    "format",
    "user_id",
    "mem0_user",
    "run_id",
    "actor_id",
    "role",
    "mem0_agent_id",
    "updated_at",
    "mem0_metadata",
)
#: Collections the TypeScript SDK keeps beside the memories: bookkeeping, not memories.
BOOKKEEPING_COLLECTIONS = ("memory_migrations",)
ENTITIES_SUFFIX = "_entities"

#: Why readers cannot be chosen for a mem0 memory.
NO_READERS = (
    "readers are not part of mem0: the OpenClaw mem0 plugin reads a memory by its "
    "user_id alone, and amem-tui never writes mem0 memories"
)
NO_USER_ID = "user_id is missing: the OpenClaw mem0 plugin never reads this memory"
READ_ONLY_REASON = (
    "amem-tui reads them but never writes them: it shows mem0 stores as the OpenClaw "
    "mem0 plugin sees them (change memories through mem0 itself)"
)


# ------------------------------------------------------------------ identity
def namespace(user: str, agent: str) -> str:
    """The ``user_id`` a session of ``agent`` reads and writes (main: the plain user id)."""
    return user if agent == DEFAULT_AGENT else f"{user}{AGENT_MARK}{agent}"


def tool_namespace(user: str, agent: str) -> str:
    """The ``user_id`` an explicit ``agentId`` tool parameter names (``main`` included)."""
    return f"{user}{AGENT_MARK}{agent}"


def session_agent(session_key: str | None) -> str | None:
    """The agent a session key picks, as the plugin extracts it (None: main's session)."""
    if not session_key:
        return None
    sub = _SUBAGENT.search(session_key)
    if sub:
        return f"{SUBAGENT_PREFIX}{sub.group(1)}"
    match = _SESSION_AGENT.match(session_key)
    agent = match.group(1) if match else None
    return None if agent in (None, DEFAULT_AGENT) else agent


#: How the plugin names a subagent's agent (``subagent-<name>``).
SUBAGENT_PREFIX = "subagent-"


def recall_namespace(user: str, agent: str, subagent: bool) -> str:
    """The ``user_id`` auto-recall reads before a turn of ``agent``'s session: the
    session's own, except a subagent's, whose recall reads the plain user id."""
    return user if subagent else namespace(user, agent)


def is_subagent_session(session_key: str | None) -> bool:
    """True for a subagent's session key (its auto-recall reads main's memories)."""
    return bool(session_key) and ":subagent:" in (session_key or "").lower()


@dataclass(frozen=True)
class Namespace:
    """One ``user_id`` value of a mem0 collection, taken apart as the plugin builds it."""

    user_id: str
    user: str
    agent: str
    #: True for ``<user>:agent:main``: written with an explicit ``agentId`` of main.
    explicit: bool = False

    @property
    def view(self) -> Mem0View:
        """How a person reaches this namespace: a session's search, or an ``agentId``."""
        return "agentId" if self.explicit else "search"


def parse_namespace(user_id: str) -> Namespace:
    """What a ``user_id`` stands for: ``alice`` is alice's main, ``alice:agent:dev`` her dev."""
    user, mark, agent = user_id.partition(AGENT_MARK)
    if not mark or not agent:
        return Namespace(user_id, user_id, DEFAULT_AGENT)
    return Namespace(user_id, user, agent, explicit=agent == DEFAULT_AGENT)


def mem0_agent(user_id: object, agent_id: object = None) -> str | None:
    """The agent a mem0 memory belongs to, or None when no plugin view can read it.

    Only ``user_id`` counts, as in the plugin; mem0's own ``agent_id`` (written by the
    Python SDK, never by the plugin) is kept on the view but names no namespace.
    """
    if isinstance(user_id, str) and user_id.strip():
        return parse_namespace(user_id).agent
    return None


def scope_namespace(scope: AgentScope) -> str | None:
    """The exact ``user_id`` a scope reads in a mem0 collection (None: no user chosen)."""
    if scope.namespace is not None:
        return scope.namespace
    if scope.user is None:
        return None
    return namespace(scope.user, scope.agent)


def note_namespace(note: NoteAccess) -> str | None:
    """The ``user_id`` of a mem0 note view (None for a memory without one)."""
    return note.user_id


# ---------------------------------------------------------------- read rules
def read_filter(scope: AgentScope) -> Filter:
    """What a scope may read in a mem0 collection: exactly its ``user_id``, as the
    plugin filters. A scope with no user reads nothing."""
    wanted = scope_namespace(scope)
    if wanted is None:
        never = Match("user_id", "")
        return Filter(must=(never,), must_not=(never,))
    return Filter(must=(Match("user_id", wanted),))


def visible_because(scope: AgentScope, note: NoteAccess) -> VisibleBecause | None:
    """Why a mem0 memory is in the scope's view (its own namespace), or None."""
    wanted = scope_namespace(scope)
    if wanted is not None and note_namespace(note) == wanted:
        return "private"
    return None


def hidden_reason(scope: AgentScope, note: MemoryNote) -> tuple[HiddenKind, str]:
    """Why a mem0 memory is not in the scope's view, in the plugin's terms."""
    raw = note_namespace(note)
    if raw is None:
        return "malformed", "has no user_id: the OpenClaw mem0 plugin never reads it"
    theirs = parse_namespace(raw)
    if scope.user is not None and theirs.user != scope.user:
        return "user", f"belongs to user '{theirs.user}' (user_id '{raw}')"
    if theirs.explicit:
        return "private", (
            f"written with an explicit agentId 'main' (user_id '{raw}'): "
            "main's sessions never recall it"
        )
    if theirs.agent == DEFAULT_AGENT:
        return "private", f"main's memory (user_id '{raw}')"
    return "private", f"private to agent '{theirs.agent}' (user_id '{raw}')"


def entities_of(collection: str) -> str | None:
    """The memory collection whose entities ``<collection>_entities`` would hold."""
    if collection.endswith(ENTITIES_SUFFIX) and len(collection) > len(ENTITIES_SUFFIX):
        return collection[: -len(ENTITIES_SUFFIX)]
    return None


def is_bookkeeping(
    collection: str, payloads: Sequence[Mapping[str, Any]], base_exists: bool = False
) -> bool:
    """True for the collections the SDK keeps beside the memories: its telemetry id
    (``memory_migrations``) and the entities of ``<collection>`` (``<collection>_entities``,
    made at the first search, empty until memories are written with ``infer``). An
    entities collection is known by its points (``entityType``, ``linkedMemoryIds``),
    or, while empty, by the memory collection beside it (``base_exists``)."""
    if collection in BOOKKEEPING_COLLECTIONS:
        return True
    if entities_of(collection) is None:
        return False
    if not payloads:
        return base_exists
    return all("entityType" in p or "linkedMemoryIds" in p for p in payloads)


# ---------------------------------------------------------------- note views
def _first_text(payload: Mapping[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = payload.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def mem0_note(point_id: str | int, payload: Mapping[str, Any] | None) -> MemoryNote:
    """A read-only note view of one mem0 memory.

    ``data`` is the content and ``created_at``/``createdAt`` the time; the update time
    (``updated_at``/``updatedAt``) is kept as ``updated_at``, never as an access time.
    The namespace in ``user_id`` gives the agent, and the note is private to it.
    mem0's own ``user_id``, ``agent_id`` (as ``mem0_agent_id``), ``run_id``,
    ``actor_id`` and ``role`` are kept on the view, and every other key, the
    metadata mem0 spreads flat into the payload, under ``mem0_metadata``.
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
        view["updated_at"] = updated
    user_id = raw.get("user_id")
    agent = mem0_agent(user_id)
    if agent is not None and isinstance(user_id, str):
        view.update(agent_id=agent, owner=agent, readers=[agent], writers=[])
        view["mem0_user"] = parse_namespace(user_id).user
    else:  # no namespace: no plugin view reads it, and nothing can change it
        view.update(readers=[], writers=[])
    for key in ("user_id", "run_id", "actor_id", "role"):
        if key in raw:
            view[key] = raw[key]
    if "agent_id" in raw:
        view["mem0_agent_id"] = raw["agent_id"]
    metadata = {k: v for k, v in raw.items() if k not in MEM0_FIELDS}
    if metadata:
        view["mem0_metadata"] = metadata
    note = MemoryNote.from_payload(point_id, view)
    if agent is None:  # say it in mem0's terms: there is no agent_id to miss
        note.replace_problems(
            [NO_USER_ID if p.startswith("agent_id") else p for p in note.problems]
        )
    return note


def is_mem0_note(note: MemoryNote) -> bool:
    """True for a read-only view of a mem0 memory."""
    return (note.model_extra or {}).get("format") == "mem0"
