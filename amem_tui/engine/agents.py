"""Who acts: agents resolved as the plugin that wrote the store resolves them.

In an openclaw-amem store an agent is named explicitly, or by a session key
``agent:<id>:<rest>``, or by the configured ``agentId``, else it is ``main``; its
configuration decides its mode (an entry naming a collection is Mode B). In a mem0
store the OpenClaw mem0 plugin's rules apply instead: a user, an agent inside that
user's ``user_id``, and subagent sessions that search one namespace and recall
another (see ``amem_tui.engine.formats.mem0``).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

import amem_tui.engine.scope as rules
from amem_tui.engine.collections import CollectionService
from amem_tui.engine.errors import InvalidInput, UserNotChosen
from amem_tui.engine.formats import mem0
from amem_tui.engine.models import SHARED
from amem_tui.engine.scope import DEFAULT_AGENT, AgentScope
from amem_tui.engine.settings import EngineSettings
from amem_tui.engine.store.filters import Filter, MatchAny
from amem_tui.engine.words import first_of

#: Points read per step while looking for the agents a collection holds.
AGENT_PAGE = 64
#: How many known names a stranger's sentence lists before "… and N more".
NAMES_SHOWN = 12


def label(scope: AgentScope) -> str:
    """How people name a view: the agent, with its mem0 user and view when it has them
    (``alice/dev``, ``alice/main (agentId)``), so two users' ``main`` never read alike."""
    if scope.user is None:
        return scope.agent
    view = f" ({scope.view})" if scope.view not in (None, "search") else ""
    return f"{scope.user}/{scope.agent}{view}"


def notes_scope(
    settings: EngineSettings, agent: str | None = None, session_key: str | None = None
) -> AgentScope:
    """The scope of an agent of openclaw-amem's notes, from the settings alone (no store
    read: a mem0 collection's agents need ``AgentDirectory.scope``)."""
    if agent is not None:  # an explicit id, even an empty one, is never replaced
        name = rules.validate_agent_id(agent)
    else:
        name = rules.resolve_agent(
            settings.agent, session_key or settings.session_key, settings.default_agent
        )
    configured = name in settings.configured_agents()
    return rules.scope_for(name, settings.dedicated_collections(), settings.collection, configured)


class AgentDirectory:
    """Resolves agents from the settings, and finds the ones the Mode A collection holds."""

    def __init__(self, settings: EngineSettings, shared: CollectionService) -> None:
        self.settings = settings
        self.shared = shared

    def scope(self, agent: str | None = None, session_key: str | None = None) -> AgentScope:
        """The scope of an agent, resolved as the plugin that wrote the store resolves it."""
        settings = self.settings
        found = notes_scope(settings, agent, session_key)
        if found.mode == "A" and self.shared.format == "mem0":
            if agent is not None or settings.agent:
                return self.mem0_scope(found.agent, None)
            return self.mem0_scope(None, session_key or settings.session_key)
        return found

    def view_scope(
        self, agent: str | AgentScope | None, session_key: str | None
    ) -> tuple[AgentScope, str | None]:
        """The scope an agent's view is made for, and the session key it came from.

        An explicit agent wins (an id is checked as an id: a session key given as the
        agent is refused, with where it goes instead); else a session key
        ``agent:<id>:<rest>`` resolves to ``<id>``, and a malformed one is refused.
        """
        if isinstance(agent, AgentScope):  # this view, in that session (if one is named)
            return agent, session_key
        if isinstance(agent, str):
            if agent.startswith("agent:"):
                raise InvalidInput(
                    f"{agent!r} is a session key, not an agent id: give it as the session key"
                )
            return self.scope(agent), None
        malformed = rules.agent_from_session_key(session_key or "") is None
        if session_key and session_key.startswith("agent:") and malformed:
            raise InvalidInput(f"not a session key of the form agent:<id>:<rest>: {session_key!r}")
        settings = self.settings
        if agent is None and session_key:
            if self.shared.format == "mem0":
                return self.mem0_scope(None, session_key), session_key
            name = rules.resolve_agent(None, session_key, settings.default_agent)
            return self.scope(name), session_key
        if agent is None and not settings.agent and settings.session_key:
            # No agent named anywhere: the configured session key decides, so say so.
            return self.scope(None), settings.session_key
        return self.scope(None), None

    def named(self, name: str) -> AgentScope:
        """An agent by id, or in a mem0 collection a namespace as the plugin writes it
        (``alice``, ``alice:agent:dev``): any user's view, whoever the chosen user is."""
        if self.shared.format == "mem0" and name in self.shared.namespaces():
            for found in self.mem0_scopes():
                if found.namespace == name:
                    return found
        return self.scope(name)

    # ------------------------------------------------------------------ mem0
    def mem0_user(self) -> str | None:
        """Whose memories a mem0 collection is read for: ``--user``, the plugin's
        ``userId``, else the only user the collection holds (None: it holds none).

        Several users and no choice is refused: their memories are never merged.
        """
        if self.settings.user:
            return self.settings.user
        users = self.mem0_users()
        if len(users) > 1:
            raise UserNotChosen(
                f"collection '{self.shared.name}' holds the memories of several users "
                f"({', '.join(users)}): choose one with --user (or AMEM_USER)",
                users,
            )
        return users[0] if users else None

    def mem0_users(self) -> list[str]:
        """Every user whose memories the mem0 collection holds, sorted."""
        return sorted({mem0.parse_namespace(n).user for n in self.shared.namespaces()})

    def mem0_scope(
        self,
        agent: str | None,
        session_key: str | None,
        *,
        view: str | None = None,
        user: str | None = None,
    ) -> AgentScope:
        """A view of the mem0 collection as the plugin reads it for one user.

        ``agent`` names an agent's sessions; else ``session_key`` picks one (a
        subagent's key gives its search view, or its auto-recall view of the plain
        user id when ``view`` or the settings ask for ``recall``). ``--namespace``
        reads exactly one ``user_id``, for instance ``<user>:agent:main``. ``user``
        overrides the settings' user.
        """
        collection = self.settings.collection
        if self.settings.namespace:
            found = mem0.parse_namespace(self.settings.namespace)
            return AgentScope(
                found.agent,
                "A",
                collection,
                configured=found.user_id in self.shared.namespaces(),
                user=found.user,
                namespace=found.user_id,
                view=found.view,
            )
        user = user or self.mem0_user()
        view = "recall" if (view or self.settings.mem0_view) == "recall" else "search"
        subagent = mem0.is_subagent_session(session_key)
        if agent is None:
            agent = mem0.session_agent(session_key) or DEFAULT_AGENT
        elif not session_key:  # an agent named alone: a subagent by its name
            subagent = agent.startswith(mem0.SUBAGENT_PREFIX)
        rules.validate_agent_id(agent)
        if user is None:
            return AgentScope(agent, "A", collection, configured=False, view=view)
        read = (
            mem0.recall_namespace(user, agent, subagent)
            if view == "recall"
            else (mem0.namespace(user, agent))
        )
        return AgentScope(
            agent,
            "A",
            collection,
            configured=read in self.shared.namespaces() or agent == DEFAULT_AGENT,
            user=user,
            namespace=read,
            view=view,
        )

    def session_views(self, session_key: str, user: str | None = None) -> list[AgentScope]:
        """The views a session key reads: its agent's; in a mem0 collection its
        memory_search view, then its auto-recall view (what the plugin injects before a
        turn; a subagent's reads the plain user id). ``user``: whose, if not the
        settings'."""
        if self.shared.format != "mem0":
            name = rules.agent_from_session_key(session_key)
            if name is None:
                raise InvalidInput(
                    f"not a session key of the form agent:<id>:<rest>: {session_key!r}"
                )
            return [self.scope(name)]
        return [
            self.mem0_scope(None, session_key, view="search", user=user),
            self.mem0_scope(None, session_key, view="recall", user=user),
        ]

    def mem0_scopes(self) -> list[AgentScope]:
        """Every user and agent pair the mem0 collection holds, one view per namespace."""
        out: list[AgentScope] = []
        for value in self.shared.namespaces():
            found = mem0.parse_namespace(value)
            out.append(
                AgentScope(
                    found.agent,
                    "A",
                    self.settings.collection,
                    configured=True,
                    user=found.user,
                    namespace=found.user_id,
                    view=found.view,
                )
            )
        return out

    # ------------------------------------------------------------ discovery
    def agents(self) -> list[AgentScope]:
        """Configured agents, then any other agent found in the Mode A collection."""
        if self.shared.format == "mem0":
            dedicated = self.settings.dedicated_collections()
            mode_b = [
                self.scope(name) for name in self.settings.configured_agents() if name in dedicated
            ]
            return self.mem0_scopes() + mode_b
        found = [self.scope(name) for name in self.settings.configured_agents()]
        known = {s.agent for s in found}
        for name in sorted(self.agent_ids_in_store() - known):
            try:
                found.append(self.scope(name))
            except InvalidInput:
                continue
        return found

    def agent_ids_in_store(self) -> set[str]:
        """Every private ``agent_id`` in the Mode A collection (not ``shared``)."""
        shared = self.shared
        seen: set[str] = set()
        if not shared.exists():
            return seen
        if shared.format == "mem0":
            return {mem0.parse_namespace(n).agent for n in shared.namespaces()}
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


# ------------------------------------------------------------------ strangers
@dataclass(frozen=True)
class Stranger:
    """What a store does not know of a scope (``said``: a sentence naming the nearest
    known name, then the first of them) and the names it knows instead (``known``)."""

    said: str
    known: list[str]


def _stranger(said: str, name: str, names: list[str], listed: str) -> Stranger:
    """``said`` of ``name``, the nearest of ``names``, and the first of them
    (``listed``: what they are)."""
    close = difflib.get_close_matches(name, names, n=1)
    near = f" (did you mean '{close[0]}'?)" if close else ""
    return Stranger(f"{said}{near}; {listed}: {first_of(names, NAMES_SHOWN) or 'none'}", names)


def agent_stranger(agent: str, known: list[str]) -> Stranger | None:
    """An agent none of the ``known`` (configured or in the store) is, or None."""
    if agent in known:
        return None
    said = f"agent '{agent}' is neither configured nor in the store"
    return _stranger(said, agent, known, "known agents")


def mem0_stranger(scope: AgentScope, namespaces: list[str], exact: bool) -> Stranger | None:
    """A mem0 view whose ``user_id`` holds nothing of its collection's ``namespaces``,
    named in the plugin's terms (``exact``: the ``user_id`` was given as it is), or
    None."""
    wanted = scope.namespace
    if wanted is None or wanted in namespaces:
        return None
    where = f"collection '{scope.collection}'"
    parsed = [mem0.parse_namespace(n) for n in namespaces]
    users = sorted({n.user for n in parsed})
    agents = sorted({n.agent for n in parsed if n.user == scope.user and not n.explicit})
    if exact:
        said = f"user_id '{wanted}' holds no memories in {where}"
        return _stranger(said, wanted, namespaces, "its user_ids")
    if scope.user not in users:
        said = f"user '{scope.user}' has no memories in {where}"
        return _stranger(said, str(scope.user), users, "its users")
    said = (
        f"agent '{scope.agent}' of user '{scope.user}' has no memories in {where} "
        f"(user_id '{wanted}')"
    )
    return _stranger(said, scope.agent, agents, f"{scope.user}'s agents")
