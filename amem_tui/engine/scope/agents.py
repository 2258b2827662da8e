"""Who an agent is: its id, the session keys that name it, and its scope (the mode it
runs in and the collection it reads and writes)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from amem_tui.engine.errors import InvalidInput
from amem_tui.engine.models import EVERYONE, SHARED

DEFAULT_AGENT = "main"


DEFAULT_COLLECTION = "amem_notes"


RESERVED_AGENT_IDS = frozenset({SHARED, EVERYONE})


_AGENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


Mode = Literal["A", "B"]


def validate_agent_id(agent: str | None) -> str:
    """Return ``agent`` if it is a usable agent id, else raise ``InvalidInput``.

    A missing id is rejected (nothing is ever shared by accident), and so are the
    reserved names ``shared`` and ``*``.
    """
    if agent is None or not str(agent).strip():
        raise InvalidInput("an agent id is required: a write with no agent id is rejected")
    if not isinstance(agent, str):
        raise InvalidInput(f"an agent id must be text, got {type(agent).__name__}")
    if agent in RESERVED_AGENT_IDS:
        raise InvalidInput(f"'{agent}' is reserved and cannot be used as an agent id")
    # fullmatch: with match() and ``$``, "main\n" would pass as a second "main".
    if not _AGENT_ID.fullmatch(agent):
        shown = repr(agent if len(agent) <= 40 else agent[:40] + "…")
        raise InvalidInput(
            f"invalid agent id {shown}: use letters, digits, '_', '-' or '.', "
            "at most 64 characters, starting with a letter or digit"
        )
    return agent


#: The session keys OpenClaw gives, as a message names them.
SESSION_KEY_SHAPES = (
    "agent:<id>:<rest> (e.g. agent:dev:main, agent:main:subagent:<name>), "
    "or main (the primary session)"
)


_PRIMARY_SESSION = re.compile(r"^main(:.*)?$", re.DOTALL)


def validate_session_key(session_key: str) -> str:
    """Return ``session_key`` if it has a session key's shape, else raise
    ``InvalidInput`` naming the shapes: a key that names no agent would
    otherwise act as the default agent without a word."""
    agent = agent_from_session_key(session_key)
    if agent is not None:
        validate_agent_id(agent)
        return session_key
    if _PRIMARY_SESSION.fullmatch(session_key):
        return session_key
    shown = repr(session_key if len(session_key) <= 40 else session_key[:40] + "…")
    raise InvalidInput(f"{shown} is not a session key; the accepted shapes: {SESSION_KEY_SHAPES}")


def agent_from_session_key(session_key: str | None) -> str | None:
    """The ``<id>`` of a session key ``agent:<id>:<rest>``, or None.

    As openclaw-amem parses it: the key's parts between colons, empty ones dropped,
    must be at least three with ``agent`` first (``agent:dev:`` names no agent).
    """
    if not session_key:
        return None
    parts = [part for part in session_key.split(":") if part]
    return parts[1] if len(parts) >= 3 and parts[0] == "agent" else None


def resolve_agent(
    explicit: str | None = None,
    session_key: str | None = None,
    configured: str | None = None,
) -> str:
    """Resolve the acting agent as openclaw-amem does, and validate it.

    Explicit agent id, else the middle part of ``agent:<id>:<rest>``, else the
    configured ``agentId``, else ``main``.
    """
    agent = explicit or agent_from_session_key(session_key) or configured or DEFAULT_AGENT
    return validate_agent_id(agent)


@dataclass(frozen=True)
class AgentScope:
    """An agent as the engine sees it: its id, mode and collection.

    In a mem0 collection a view also has a ``user`` (mem0's plugin keeps every user
    in one collection) and reads exactly one ``namespace``, the ``user_id`` value
    the plugin reads for that user, agent and ``view``
    (see ``amem_tui.engine.formats.mem0``).
    """

    agent: str
    mode: Mode
    collection: str
    configured: bool = True
    user: str | None = None
    namespace: str | None = None
    view: str | None = None

    @property
    def has_shared_scope(self) -> bool:
        """Only Mode A agents see (and can publish to) the shared scope."""
        return self.mode == "A"

    @property
    def is_mem0_view(self) -> bool:
        """A view of a mem0 collection: one user's memories, one ``namespace`` (False
        for an openclaw-amem agent)."""
        return self.user is not None or self.namespace is not None


def scope_for(
    agent: str,
    dedicated_collections: dict[str, str],
    shared_collection: str,
    configured: bool = True,
) -> AgentScope:
    """The scope of ``agent``: Mode B when its configuration names a collection."""
    validate_agent_id(agent)
    dedicated = dedicated_collections.get(agent)
    if dedicated:
        return AgentScope(agent, "B", dedicated, configured)
    return AgentScope(agent, "A", shared_collection, configured)
