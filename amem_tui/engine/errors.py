"""Errors the engine raises. Each carries the CLI exit code that reports it, its kind
and the facts an answer reports besides its message."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from amem_tui.engine.words import first_of


class AmemError(Exception):
    """Base of every error the engine raises on purpose."""

    exit_code = 1
    #: The attributes an answer reports besides the message (see ``facts``), in order.
    FACTS: ClassVar[tuple[str, ...]] = ()

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message

    @property
    def kind(self) -> str:
        """What kind of error this is, for a program to tell: the class's name in snake
        case (``PermissionDenied``: ``permission_denied``)."""
        return re.sub(r"(?<!^)(?=[A-Z])", "_", type(self).__name__).lower()

    def facts(self) -> dict[str, Any]:
        """The facts the error carries besides its message (those of ``FACTS`` that are
        set), by name."""
        found = {name: getattr(self, name, None) for name in self.FACTS}
        return {name: value for name, value in found.items() if value is not None}


class SearchStopped(AmemError):
    """A search its caller stopped before it finished (its answer was no longer wanted)."""


class InvalidInput(AmemError):
    """Rejected input: the quality gate, a bad argument, a reserved agent id."""

    exit_code = 2


class ConfigError(InvalidInput):
    """A configuration file or value that cannot be used."""


class PlanOutdated(InvalidInput):
    """A consolidation plan whose notes changed since it was made: nothing was applied.

    ``modified``, ``deleted`` and ``added`` name the agent's candidate notes that moved
    since the plan (the plan would no longer merge what was shown): plan again.
    """

    #: Ids named in the message, per kind of change (the attributes hold them all).
    SHOWN = 8
    FACTS = ("agent",)

    def __init__(
        self,
        plan_id: str,
        agent: str,
        modified: tuple[str, ...] = (),
        deleted: tuple[str, ...] = (),
        added: tuple[str, ...] = (),
        *,
        why: str = "",
    ) -> None:
        parts = [
            f"{label}: {first_of(ids, self.SHOWN)}"
            for label, ids in (("modified", modified), ("deleted", deleted), ("added", added))
            if ids
        ]
        count = len(modified) + len(deleted) + len(added)
        notes = "1 note" if count == 1 else f"{count} notes"
        super().__init__(
            f"consolidation plan {plan_id} of agent '{agent}' is out of date: {notes} "
            f"changed since it was planned{why} ({'; '.join(parts)}); nothing was merged, "
            "plan again"
        )
        self.plan_id = plan_id
        self.agent = agent
        self.modified = modified
        self.deleted = deleted
        self.added = added


class AmbiguousId(InvalidInput):
    """The start of an id that several runs (or a run's merges) share: ``matches``
    holds their ids."""

    FACTS = ("matches",)

    def __init__(self, message: str, matches: list[str]) -> None:
        super().__init__(message)
        self.matches = matches


class UserNotChosen(InvalidInput):
    """A mem0 collection holds several users' memories and the read names none of them
    (``users``): their memories are never merged."""

    def __init__(self, message: str, users: list[str]) -> None:
        super().__init__(message)
        self.users = users


class PermissionDenied(AmemError):
    """An agent tried to change a note the write rule does not let it change."""

    exit_code = 3
    FACTS = ("agent", "note_id", "action", "rule")

    def __init__(self, agent: str, note_id: str, action: str, rule: str) -> None:
        super().__init__(
            f"PERMISSION_DENIED: agent '{agent}' may not {action} note {note_id}: {rule}"
        )
        self.agent = agent
        self.note_id = note_id
        self.action = action
        self.rule = rule


class ReadOnlyStore(AmemError):
    """A write was attempted while the store is opened read-only."""

    exit_code = 3


#: What a write meets on a store opened read-only.
READ_ONLY_MESSAGE = "the store is opened read-only (--read-only): writes are off"


class NotFound(AmemError):
    """No such note, or not visible to this agent (the same answer, so nothing leaks)."""

    exit_code = 4
    FACTS = ("agent", "note_id")

    def __init__(self, note_id: str, agent: str | None = None) -> None:
        who = f" to agent '{agent}'" if agent else ""
        shown = note_id if note_id.strip() else repr(note_id)  # an empty id still shows
        super().__init__(f"note {shown} not found or not visible{who}")
        self.note_id = note_id
        self.agent = agent


class ConflictNoteMissing(NotFound):
    """A note named in a conflict decision that does not exist or that the agent may not
    read (the same answer, so nothing leaks). Bad input to a decision: exit 2, and
    nothing was written."""

    exit_code = 2


class CheckFileError(InvalidInput):
    """A checks file that cannot be run (syntax, an unknown key, a value of a wrong type,
    an unknown agent): ``source``, ``line`` and ``key`` say where, ``problem`` what."""

    FACTS = ("line", "key")

    def __init__(self, source: str, line: int | None, key: str | None, problem: str) -> None:
        self.source = source
        self.line = line
        self.key = key
        self.problem = problem
        where = f"{source}:{line}" if line else source
        super().__init__(f"{where}: {f'{key}: ' if key else ''}{problem}")


class NotAConflictPair(InvalidInput):
    """Two notes a decision named that are not flagged as contradicting each other, or a
    flag that has nothing to clear: nothing was written."""

    def __init__(self, message: str, a: str, b: str = "") -> None:
        super().__init__(message)
        self.a = a
        self.b = b


class StaleNote(InvalidInput):
    """An update that expected a note's hash, and found the note changed since: nothing
    was written. Both hashes are named, so the caller can tell which version it had."""

    FACTS = ("note_id", "expected_hash", "actual_hash")

    def __init__(self, note_id: str, expected_hash: str, actual_hash: str) -> None:
        super().__init__(
            f"note {note_id} was changed elsewhere since it was loaded: expected hash "
            f"{expected_hash}, it now has {actual_hash or '(none)'}; nothing was written, "
            "reload and retry"
        )
        self.note_id = note_id
        self.expected_hash = expected_hash
        self.actual_hash = actual_hash


class StoreUnavailable(AmemError):
    """The store cannot be opened or reached."""

    exit_code = 5


class StoreLocked(StoreUnavailable):
    """An embedded store is held by another process."""


class ModelUnavailable(AmemError):
    """The embedding model cannot be loaded, or does not match the collection."""

    exit_code = 5


class ModelMismatch(ModelUnavailable):
    """A collection was built by another model or vector size than ours."""
