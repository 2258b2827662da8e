"""What the readers field of the add and edit forms needs from the engine: the agents
to choose from, the readers a note has, whether they may be chosen at all, and, for
each choice, what openclaw-amem will do with it or why it would be refused.

The rules are the engine's (``AgentView.readers_sentence``,
``AgentView.readers_refusal``); this module only reads them, in a worker of the
field (``readers_choice`` asks the store which agents exist).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from amem_tui.engine import AgentScope, AgentView, MemoryEngine, MemoryNote

#: What ``readers`` holds for every agent: publishing, never a reader to pick. It is
#: offered anyway, so that choosing it says how to share a note with everyone.
EVERY_AGENT = "*"


@dataclass(frozen=True)
class ReadersAdvice:
    """What a choice of readers means: the sentence (what openclaw-amem gives them), or
    why saving it would be refused (the engine's words)."""

    sentence: str | None
    refusal: str | None


@dataclass(frozen=True)
class ReadersChoice:
    """The readers field of one form: whose note, the agents offered, those chosen now,
    why the field is read-only (None: it is not), and the advice for a choice."""

    agent: str
    owner: str
    candidates: tuple[str, ...]
    chosen: tuple[str, ...]
    locked: str | None
    advise: Callable[[Sequence[str], bool], ReadersAdvice]


def advice_of(
    view: AgentView, readers: Sequence[str], shared: bool, note: MemoryNote | None
) -> ReadersAdvice:
    """The engine's sentence for ``readers``, or its refusal (a refusal wins)."""
    refused = view.readers_refusal(readers, note=note, shared=shared)
    if refused is not None:
        return ReadersAdvice(None, str(refused))
    return ReadersAdvice(view.readers_sentence(readers), None)


def readers_choice(
    engine: MemoryEngine, scope: AgentScope, note: MemoryNote | None = None
) -> ReadersChoice:
    """The field's facts for a new note of ``scope`` (``note`` None) or for ``note``.

    Reads the store (the agents it holds): call it in a worker.
    """
    from amem_tui.engine import PermissionDenied

    view = engine.agent(scope)
    owner = (note.effective_owner if note is not None else None) or scope.agent
    chosen = tuple(r for r in ((note.readers or []) if note is not None else []) if r != owner)
    known = [s.agent for s in engine.agents()]
    candidates = tuple(
        dict.fromkeys(a for a in [*known, *chosen, EVERY_AGENT] if a not in (owner, scope.agent))
    )
    locked = view.readers_refusal([], note=note)
    if isinstance(locked, PermissionDenied):  # the form names the note already
        locked_text: str | None = locked.rule
    else:
        locked_text = str(locked) if locked is not None else None

    def advise(readers: Sequence[str], shared: bool) -> ReadersAdvice:
        return advice_of(view, readers, shared, note)

    return ReadersChoice(
        agent=scope.agent,
        owner=owner,
        candidates=candidates,
        chosen=chosen,
        locked=locked_text,
        advise=advise,
    )
