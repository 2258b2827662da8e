"""The scope contract, in one place, as pure functions.

Who an agent is (session keys), which mode it runs in, what it may read and
write, and the neutral filters that every store backend translates into its own
query types. Nothing here touches a store.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

from amem_tui.engine.errors import InvalidInput, PermissionDenied
from amem_tui.engine.models import (
    EVERYONE,
    SHARED,
    GetOnlyBecause,
    HiddenKind,
    MemoryNote,
    NoteAccess,
    VisibleBecause,
    parse_time,
)
from amem_tui.engine.store.filters import (
    Before,
    Condition,
    Empty,
    Filter,
    HasId,
    Match,
    MatchAny,
    MatchExcept,
    Since,
)

DEFAULT_AGENT = "main"
DEFAULT_COLLECTION = "amem_notes"
RESERVED_AGENT_IDS = frozenset({SHARED, EVERYONE})
_AGENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")

Mode = Literal["A", "B"]


# ------------------------------------------------------------------ agent ids
def validate_agent_id(agent: str | None) -> str:
    """Return ``agent`` if it is a usable agent id, else raise :class:`InvalidInput`.

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
    :class:`InvalidInput` naming the shapes: a key that names no agent would
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


# ---------------------------------------------------------------------- scope
@dataclass(frozen=True)
class AgentScope:
    """An agent as the engine sees it: its id, mode and collection.

    In a mem0 collection a view also has a ``user`` (mem0's plugin keeps every user
    in one collection) and reads exactly one ``namespace``, the ``user_id`` value
    the plugin reads for that user, agent and ``view``
    (see :mod:`amem_tui.engine.formats.mem0`).
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


# ------------------------------------------------------------ the read filters
NOT_DELETED = Match("is_active", False)
NEVER = Filter(must=(Match("agent_id", SHARED),), must_not=(Match("agent_id", SHARED),))


def read_filter(scope: AgentScope, include_inactive: bool = False) -> Filter:
    """What ``scope`` finds by search, listing and count in its collection.

    Mode A, as openclaw-amem's ``agentFilter`` (used by its search, list and count):
    ``agent_id`` in [self, "shared"], soft-deleted notes left out with must_not, so
    notes without ``is_active`` stay visible. ``readers`` plays no part: a note whose
    readers name the agent is read only by id (:func:`get_only_filter`). Mode B: its
    own collection, no agent filter.
    """
    must_not = () if include_inactive else (NOT_DELETED,)
    if scope.mode == "B":
        return Filter(must_not=must_not)
    return Filter(must=(MatchAny("agent_id", (scope.agent, SHARED)),), must_not=must_not)


def hidden_filter(scope: AgentScope) -> Filter:
    """Everything in the agent's own collection that :func:`read_filter` leaves out."""
    if scope.mode == "B":
        return Filter(must=(NOT_DELETED,))
    visible = read_filter(scope, include_inactive=True)
    return Filter(should=(Filter(must_not=visible.must), NOT_DELETED))


def get_only_filter(scope: AgentScope, include_inactive: bool = False) -> Filter:
    """The notes the agent reads by id but never finds (Mode A): outside
    :func:`read_filter`, yet its owner, or named in ``readers``, or ``readers`` holds
    ``"*"``. openclaw-amem's ``getNote`` returns them to the agent; its search, list
    and count never do. :func:`get_only_because` judges each one again."""
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
    in it: they are :func:`get_only_filter`'s."""
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


def is_consolidation_candidate(scope: AgentScope, note: MemoryNote) -> bool:
    """The same selection as :func:`consolidation_filter`, for one note."""
    return note.agent_id == scope.agent and note.active and note.note_type == "memory"


def may_consolidate(scope: AgentScope, note: MemoryNote) -> bool:
    """A candidate the agent may also modify (what consolidation merges or drops)."""
    return is_consolidation_candidate(scope, note) and can_write(scope.agent, note)


def may_rewrite_links(scope: AgentScope, note: MemoryNote) -> bool:
    """Where consolidation may point links at a keeper: the agent's own candidates only.

    Shared notes (even the agent's own) and other agents' notes keep their links:
    consolidation of an agent touches only its private, active ``memory`` notes.
    """
    return may_consolidate(scope, note)


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


# ------------------------------------------------------------------ the rules


def visible_because(scope: AgentScope, note: NoteAccess) -> VisibleBecause | None:
    """Why a note in the agent's collection shows up in its searches, or None.

    This is the search rule (the Mode A filter), used to explain each hit.
    """
    if not note.active:
        return None
    return listed_because(scope, note)


def listed_because(scope: AgentScope, note: NoteAccess) -> VisibleBecause | None:
    """Why a note belongs in the agent's view, soft-deleted or not (None: it does not).

    The Mode A filter again, for one note: the store filters first, and this
    drops what a filter cannot judge (an ``agent_id`` of the wrong type, which
    Qdrant may still match).
    """
    if scope.mode == "B":
        return "collection"
    if note.agent_id == scope.agent:
        return "private"
    if note.malformed:  # a malformed point is never shared
        return None
    if note.agent_id == SHARED:
        return "shared"
    return None


def read_access(note: MemoryNote) -> tuple[str, list[str]]:
    """The owner and readers openclaw-amem's read rule looks at.

    Its storage fills what a note lacks from ``agent_id`` (``main`` when that is
    missing too): ``owner`` or ``agent_id``, and ``readers`` or ``[agent_id]``. So a
    legacy shared note (no access fields) has owner and readers ``shared`` and is
    read by no agent through ``getNote``, though every agent finds it by search.
    """
    agent = note.agent_id if isinstance(note.agent_id, str) and note.agent_id else DEFAULT_AGENT
    owner = note.owner if isinstance(note.owner, str) and note.owner else agent
    readers = list(note.readers) if note.readers is not None else [agent]
    return owner, readers


def get_only_because(scope: AgentScope, note: MemoryNote) -> GetOnlyBecause | None:
    """Why the read rule lets the agent read a note by id that its searches, listings
    and counts never hold (None: it finds the note, or may not read it at all).

    ``reader``: its ``readers`` name the agent; ``everyone``: they hold ``"*"`` (but
    ``agent_id`` is not ``shared``); ``owner``: the agent owns it under another
    ``agent_id``. Soft-deleted notes count too (``getNote`` returns them); listings
    of active notes drop them first.
    """
    if scope.mode == "B" or note.malformed or listed_because(scope, note) is not None:
        return None
    owner, readers = read_access(note)
    if scope.agent in readers:
        return "reader"
    if EVERYONE in readers:
        return "everyone"
    if owner == scope.agent:
        return "owner"
    return None


def get_only_sentence(scope: AgentScope, note: MemoryNote) -> str | None:
    """What an openclaw-amem agent gets of a note it reads only by id, in one sentence
    (None when the note is not get-only for it)."""
    why = get_only_because(scope, note)
    if why is None:
        return None
    agent = scope.agent
    how = {
        "reader": f"its readers name '{agent}'",
        "everyone": "its readers hold '*'",
        "owner": f"'{agent}' owns it under agent_id '{note.agent_id}'",
    }[why]
    return (
        f"get only ({how}): openclaw-amem's getNote returns it to {agent} (read by id, "
        f"e.g. through a link); {agent}'s memory_search, memory_list and counts never do"
    )


def selective_sentence(note: MemoryNote) -> str | None:
    """What openclaw-amem gives the agents a private note's ``readers`` name beyond the
    one its ``agent_id`` names (None when there are none, or the note is shared)."""
    if note.agent_id == SHARED or note.malformed:
        return None
    _, readers = read_access(note)
    return readers_sentence(note.agent_id or DEFAULT_AGENT, readers)


def readers_sentence(agent_id: str, readers: Sequence[str]) -> str | None:
    """What openclaw-amem gives the agents ``readers`` names, of a private note whose
    ``agent_id`` is ``agent_id`` (None when they name no other agent): for an author
    choosing readers, before the note is written."""
    if EVERYONE in readers:
        return (
            "openclaw-amem: getNote returns it to any agent (readers '*'); only "
            f"'{agent_id}'s memory_search finds it (agent_id '{SHARED}' shares a note)"
        )
    others = [r for r in dict.fromkeys(readers) if r != agent_id]
    if not others:
        return None
    names = ", ".join(others)
    return (
        f"openclaw-amem: getNote returns it to {names}; their memory_search, memory_list "
        "and counts do not"
    )


# ------------------------------------------------------ readers an owner chooses
#: Why readers an owner chooses are only ever read by id (said wherever they are set).
READERS_ARE_GET_ONLY = (
    "readers are read by id only: openclaw-amem's getNote returns the note to them, "
    "their memory_search, memory_list and counts never do (only publishing shares a "
    "note with every agent's searches)"
)


def chosen_readers(owner: str, readers: Sequence[str]) -> list[str]:
    """The ``readers`` field of a private note whose owner chose ``readers``: the owner
    first (it always reads its own note), then each chosen agent once."""
    return list(dict.fromkeys([owner, *readers]))


def readers_denial(
    scope: AgentScope, readers: Sequence[str], dedicated_collections: Mapping[str, str]
) -> InvalidInput | None:
    """Why ``scope``'s agent may not give a private note these ``readers`` (None: it
    may), when the choice would mean nothing to openclaw-amem.

    A Mode B agent's collection is read by nobody else; a Mode B reader reads only its
    own collection; ``*`` and ``shared`` are what publishing sets, not readers.
    """
    if scope.mode == "B":
        return InvalidInput(
            f"agent '{scope.agent}' is Mode B (collection {scope.collection}): no other "
            "agent reads its collection, so readers would give nobody anything"
        )
    for reader in readers:
        if reader in RESERVED_AGENT_IDS:
            return InvalidInput(
                f"'{reader}' cannot be a reader: readers name agents; to share a note "
                "with every agent, publish it (add --shared, or publish ID)"
            )
        try:
            validate_agent_id(reader)
        except InvalidInput as exc:
            return InvalidInput(f"reader {exc.message}")
        own = dedicated_collections.get(reader)
        if own is not None and reader != scope.agent:
            return InvalidInput(
                f"'{reader}' is Mode B: it reads only its own collection '{own}', so "
                f"naming it a reader of a note in '{scope.collection}' gives it nothing"
            )
    return None


def hidden_reason(
    scope: AgentScope,
    note: MemoryNote,
    collection: str,
    dedicated_collections: Mapping[str, str],
) -> tuple[HiddenKind, str]:
    """Why ``note`` (in ``collection``) is not among what ``scope`` can find.

    Only meaningful for notes :func:`visible_because` rejects, or notes in
    another collection. ``dedicated_collections`` maps Mode B agents to their
    collections, so a note can be placed in "another agent's Mode B collection".
    """
    if collection != scope.collection:
        owners = sorted(a for a, c in dedicated_collections.items() if c == collection)
        if owners:
            return "mode_b", f"in agent '{owners[0]}'s Mode B collection '{collection}'"
        if scope.mode == "B":
            return "outside", (
                f"outside this agent's collection: '{scope.agent}' is Mode B "
                f"and reads only '{scope.collection}'"
            )
        return "outside", f"outside this agent's collection '{scope.collection}'"
    if scope.mode == "B":
        return "deleted", "soft-deleted"
    if not note.active and visible_because(scope, note.model_copy(update={"is_active": True})):
        return "deleted", "soft-deleted"
    if note.agent_id is None or note.agent_id == "":
        return "malformed", "has no agent_id: never shown to any agent"
    if note.malformed and note.agent_id != scope.agent:
        problems = "; ".join(note.problems)
        return "malformed", f"malformed ({problems}): never shown to another agent"
    who = note.agent_id
    deleted = " (and soft-deleted)" if not note.active else ""
    owner = note.effective_owner
    written = f", written by '{owner}'" if owner and owner != who else ""
    sentence = get_only_sentence(scope, note)
    if sentence is not None:
        return "get_only", f"{sentence}; agent_id '{who}'{written}{deleted}"
    if EVERYONE in note.effective_readers:
        return "private", (
            f"private to agent '{who}'{written}: only agent_id '{SHARED}' puts a note in "
            f"other agents' searches{deleted}"
        )
    return "private", f"private to agent '{who}'{written}{deleted}"


def fits_listing(scope: AgentScope, note: MemoryNote, which: str) -> bool:
    """True when a note the store returned for a ``private``, ``shared``, ``get_only`` or
    ``visible`` listing really belongs there by the rules above."""
    because = listed_because(scope, note)
    if which == "private":
        return scope.mode == "B" or note.agent_id == scope.agent
    if which == "shared":
        return because == "shared"
    if which == "get_only":
        return get_only_because(scope, note) is not None
    return because is not None


def can_read(scope: AgentScope, note: MemoryNote, collection: str) -> bool:
    """The read rule for fetch-by-id (openclaw-amem's ``canRead``, behind ``getNote``).

    The note must be in a collection the agent reads (its own in Mode B, the
    shared collection in Mode A), and the agent must be its owner, or be named in
    ``readers``, or ``readers`` holds ``"*"`` (missing fields filled as
    :func:`read_access` says). A malformed point is read only by the agent it names.
    """
    if collection != scope.collection:
        return False
    if scope.mode == "B":
        return True
    if note.agent_id is None or note.agent_id == "":
        return False
    if note.malformed:  # never shared: only the agent it names may read it
        return note.agent_id == scope.agent
    owner, readers = read_access(note)
    return owner == scope.agent or scope.agent in readers or EVERYONE in readers


def can_write(agent: str, note: MemoryNote) -> bool:
    """The write rule: the owner, or named in ``writers``, or ``writers`` holds ``"*"``."""
    writers = note.effective_writers
    return note.effective_owner == agent or agent in writers or EVERYONE in writers


def write_denial(agent: str, note: MemoryNote, action: str) -> PermissionDenied | None:
    """The refusal ``agent`` gets for trying ``action`` on ``note``, or None if allowed.

    An app can show it before trying; :func:`require_write` raises the same one.
    """
    if can_write(agent, note):
        return None
    owner = note.effective_owner or "nobody"
    writers = ", ".join(note.effective_writers) or "none"
    return PermissionDenied(
        agent,
        note.id,
        action,
        f"only its owner ({owner}) or its writers ({writers}) may modify it",
    )


def require_write(agent: str, note: MemoryNote, action: str) -> None:
    """Raise :class:`PermissionDenied` unless ``agent`` may modify ``note``."""
    denial = write_denial(agent, note, action)
    if denial is not None:
        raise denial


def owner_denial(agent: str, note: MemoryNote, action: str) -> PermissionDenied | None:
    """The refusal a non-owner gets for an owner-only ``action`` (publish, unpublish)."""
    if note.effective_owner == agent:
        return None
    return PermissionDenied(
        agent, note.id, action, f"only its owner ({note.effective_owner}) may {action} it"
    )


def require_owner(agent: str, note: MemoryNote, action: str) -> None:
    """Raise :class:`PermissionDenied` unless ``agent`` owns ``note``."""
    denial = owner_denial(agent, note, action)
    if denial is not None:
        raise denial


@dataclass
class Access:
    """The access fields a new note gets."""

    agent_id: str
    owner: str
    readers: list[str] = field(default_factory=list)
    writers: list[str] = field(default_factory=list)


def private_access(agent: str) -> Access:
    """Access fields of a private note written by ``agent``."""
    validate_agent_id(agent)
    return Access(agent_id=agent, owner=agent, readers=[agent], writers=[agent])


def shared_access(writer: str) -> Access:
    """Access fields of a shared note written by ``writer``."""
    validate_agent_id(writer)
    return Access(agent_id=SHARED, owner=writer, readers=[EVERYONE], writers=[writer])


def apply_access(note: MemoryNote, access: Access) -> None:
    """Set a note's scope fields from ``access``."""
    note.agent_id = access.agent_id
    note.owner = access.owner
    note.readers = list(access.readers)
    note.writers = list(access.writers)
