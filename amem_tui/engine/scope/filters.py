"""What an agent finds, lists and counts, as the neutral filters every store backend
translates into its own query types; and ``matches``, the same filters judged in
Python, one note at a time."""

from __future__ import annotations

from datetime import UTC, datetime

from amem_tui.engine.models import EVERYONE, SHARED, MemoryNote, parse_time
from amem_tui.engine.scope.agents import AgentScope
from amem_tui.engine.store.filters import (
    Before,
    Condition,
    Empty,
    Filter,
    HasId,
    Match,
    MatchAny,
    MatchExcept,
    Range,
    Since,
)

NOT_DELETED = Match("is_active", False)


NEVER = Filter(must=(Match("agent_id", SHARED),), must_not=(Match("agent_id", SHARED),))


def read_filter(scope: AgentScope, include_inactive: bool = False) -> Filter:
    """What ``scope`` finds by search, listing and count in its collection.

    Mode A, as openclaw-amem's ``agentFilter`` (used by its search, list and count):
    ``agent_id`` in [self, "shared"], soft-deleted notes left out with must_not, so
    notes without ``is_active`` stay visible. ``readers`` plays no part: a note whose
    readers name the agent is read only by id (``get_only_filter``). Mode B: its
    own collection, no agent filter.
    """
    must_not = () if include_inactive else (NOT_DELETED,)
    if scope.mode == "B":
        return Filter(must_not=must_not)
    return Filter(must=(MatchAny("agent_id", (scope.agent, SHARED)),), must_not=must_not)


def hidden_filter(scope: AgentScope) -> Filter:
    """Everything in the agent's own collection that ``read_filter`` leaves out."""
    if scope.mode == "B":
        return Filter(must=(NOT_DELETED,))
    visible = read_filter(scope, include_inactive=True)
    return Filter(should=(Filter(must_not=visible.must), NOT_DELETED))


def get_only_filter(scope: AgentScope, include_inactive: bool = False) -> Filter:
    """The notes the agent reads by id but never finds (Mode A): outside
    ``read_filter``, yet its owner, or named in ``readers``, or ``readers`` holds
    ``"*"``. openclaw-amem's ``getNote`` returns them to the agent; its search, list
    and count never do. ``get_only_because`` judges each one again."""
    if scope.mode == "B":
        return NEVER
    readable = Filter(
        should=(MatchAny("readers", (scope.agent, EVERYONE)), Match("owner", scope.agent))
    )
    outside: tuple[Condition, ...] = (MatchAny("agent_id", (scope.agent, SHARED)),)
    must_not = outside if include_inactive else (*outside, NOT_DELETED)
    return Filter(must=(readable,), must_not=must_not)


def private_filter(scope: AgentScope, include_inactive: bool = False) -> Filter:
    """The agent's own private notes."""
    must_not = () if include_inactive else (NOT_DELETED,)
    return Filter(must=(Match("agent_id", scope.agent),), must_not=must_not)


def shared_filter(owner: str | None = None, include_inactive: bool = False) -> Filter:
    """The shared scope, optionally only the notes of one owner."""
    must: tuple[Condition, ...] = (Match("agent_id", SHARED),)
    if owner:
        must += (Match("owner", owner),)
    must_not = () if include_inactive else (NOT_DELETED,)
    return Filter(must=must, must_not=must_not)


def shared_view_filter(
    scope: AgentScope, owner: str | None = None, include_inactive: bool = False
) -> Filter:
    """The shared scope as the agent's Shared listing shows it (``agent_id`` "shared",
    optionally one owner's). Notes shared with it alone through ``readers`` are not
    in it: they are ``get_only_filter``'s."""
    return shared_filter(owner, include_inactive)


def active_filter() -> Filter:
    """Every note not soft-deleted (old notes without ``is_active`` included)."""
    return Filter(must_not=(NOT_DELETED,))


def deleted_filter() -> Filter:
    """Every soft-deleted note."""
    return Filter(must=(NOT_DELETED,))


def unowned_filter() -> Filter:
    """Notes whose ``owner`` is missing, null or empty: their ``agent_id`` wrote them
    (see ``MemoryNote.effective_owner``), unless it is ``shared``."""
    return Filter(
        should=(Empty("owner"), Match("owner", "")), must_not=(Match("agent_id", SHARED),)
    )


def authored_filter(agent: str) -> Filter:
    """The notes ``agent`` wrote: it is their owner, or they have none and its agent id."""
    legacy = Filter(must=(Match("agent_id", agent), unowned_filter()))
    return Filter(should=(Match("owner", agent), legacy))


def legacy_filter(writers: bool = True) -> Filter:
    """Notes without the access fields (owner, readers or writers missing or null).

    ``writers`` False leaves that field out, for a store without an index on it (both
    openclaw-amem and amem-tui write the three fields together)."""
    fields = ("owner", "readers", "writers") if writers else ("owner", "readers")
    return Filter(should=tuple(Empty(key) for key in fields))


def selective_filter(scope: AgentScope) -> Filter:
    """The agent's active private notes it wrote whose readers name other agents (not
    everyone): shared with chosen readers only."""
    own: tuple[Condition, ...] = () if scope.mode == "B" else (Match("agent_id", scope.agent),)
    return Filter(
        must=(
            *own,
            authored_filter(scope.agent),
            MatchExcept("readers", (scope.agent, EVERYONE)),
        ),
        must_not=(NOT_DELETED, Match("readers", EVERYONE)),
    )


def consolidation_filter(scope: AgentScope) -> Filter:
    """Candidates for consolidating ``scope``: its private, active ``memory`` notes."""
    return Filter(
        must=(Match("agent_id", scope.agent),),
        must_not=(NOT_DELETED, Match("note_type", "knowledge")),
    )


def utc_time(value: str | None) -> datetime | None:
    """An ISO time as an aware UTC time (a time without an offset is taken as UTC, as
    Qdrant takes it); None when absent or unreadable."""
    when = parse_time(value)
    if when is None:
        return None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def matches(flt: Filter, note: MemoryNote) -> bool:
    """Evaluate a neutral filter against a note in Python (for tests and fallbacks)."""
    payload = note.to_payload()
    payload.setdefault("agent_id", note.agent_id)

    def holds(cond: Condition) -> bool:
        if isinstance(cond, Filter):
            return matches(cond, note)
        if isinstance(cond, HasId):
            return note.id in cond.ids
        value = payload.get(cond.key)
        if isinstance(cond, Range):
            return cond.holds(value)
        if isinstance(cond, Since | Before):
            when, moment = (
                utc_time(value if isinstance(value, str) else None),
                utc_time(cond.moment),
            )
            if when is None or moment is None:
                return False
            return when >= moment if isinstance(cond, Since) else when < moment
        if isinstance(cond, Empty):
            return value is None or value == []
        if isinstance(cond, MatchExcept):
            items = value if isinstance(value, list) else [] if value is None else [value]
            return any(isinstance(item, str) and item not in cond.values for item in items)
        wanted = (cond.value,) if isinstance(cond, Match) else cond.values
        if isinstance(value, list):
            return any(item in wanted for item in value)
        return any(value == item and type(value) is type(item) for item in wanted)

    return (
        all(holds(c) for c in flt.must)
        and (not flt.should or any(holds(c) for c in flt.should))
        and not any(holds(c) for c in flt.must_not)
    )
