"""Who acts: agents resolved as openclaw-amem resolves them, and the agents a store holds.

An agent is named explicitly, or by a session key ``agent:<id>:<rest>``, or by the
configured ``agentId``, else it is ``main``. Its configuration decides its mode: an
agent whose entry names a collection is Mode B.
"""

from __future__ import annotations

from amem_tui.config import Settings
from amem_tui.engine import scope as rules
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.errors import InvalidInput
from amem_tui.engine.models import SHARED
from amem_tui.engine.scope import AgentScope
from amem_tui.engine.store.filters import Filter, MatchAny

#: Points read per step while looking for the agents a collection holds.
AGENT_PAGE = 64


class AgentDirectory:
    """Resolves agents from the settings, and finds the ones the Mode A collection holds."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def scope(self, agent: str | None = None, session_key: str | None = None) -> AgentScope:
        """The scope of an agent, resolved as openclaw-amem resolves it."""
        settings = self.settings
        if agent is not None:  # an explicit id, even an empty one, is never replaced
            name = rules.validate_agent_id(agent)
        else:
            name = rules.resolve_agent(
                settings.agent, session_key or settings.session_key, settings.default_agent
            )
        configured = name in settings.configured_agents()
        return rules.scope_for(
            name, settings.dedicated_collections(), settings.collection, configured
        )

    def search_scope(
        self, agent: str | AgentScope | None, session_key: str | None
    ) -> tuple[AgentScope, str | None]:
        """The scope a search runs as, and the session key it came from (if any).

        An explicit agent wins; a session key ``agent:<id>:<rest>`` resolves to
        ``<id>``. An agent given as a session key is read as one.
        """
        if isinstance(agent, AgentScope):
            return agent, None
        if isinstance(agent, str) and agent.startswith("agent:"):
            if rules.agent_from_session_key(agent) is None:
                raise InvalidInput(f"not a session key of the form agent:<id>:<rest>: {agent!r}")
            session_key, agent = agent, None
        settings = self.settings
        if agent is None and session_key:
            name = rules.resolve_agent(None, session_key, settings.default_agent)
            return self.scope(name), session_key
        if agent is None and not settings.agent and settings.session_key:
            # No agent named anywhere: the configured session key decides, so say so.
            return self.scope(None), settings.session_key
        return self.scope(agent), None

    def agents(self, shared: CollectionService) -> list[AgentScope]:
        """Configured agents, then any other agent found in the Mode A collection."""
        found = [self.scope(name) for name in self.settings.configured_agents()]
        known = {s.agent for s in found}
        for name in sorted(self.agent_ids_in_store(shared) - known):
            try:
                found.append(self.scope(name))
            except InvalidInput:
                continue
        return found

    @staticmethod
    def agent_ids_in_store(shared: CollectionService) -> set[str]:
        """Every private ``agent_id`` in the Mode A collection (not ``shared``)."""
        seen: set[str] = set()
        if not shared.exists():
            return seen
        if shared.format == "mem0":
            return set(shared.mem0_identities()[1])
        exclude: tuple[str, ...] = (SHARED,)
        # Ask for one page of unseen agents at a time: cheap even on big stores.
        while True:
            flt = Filter(must_not=(MatchAny("agent_id", exclude),))
            points = shared.store.scroll(shared.name, flt, limit=AGENT_PAGE)
            new = {
                p.payload["agent_id"]
                for p in points
                if isinstance(p.payload.get("agent_id"), str) and p.payload["agent_id"]
            } - seen
            if not new:
                return seen
            seen |= new
            exclude = (SHARED, *sorted(seen))
