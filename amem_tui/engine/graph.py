"""A note's neighbourhood: the notes it links to and the notes that link to it, two
links out, as one agent may see them.

A-MEM notes keep the ids of related notes in ``links``. Following them must apply the
read rule (a shared note may link to its owner's private notes), so a neighbour the
agent may not read is counted where it is met and never named: not its id, not its
content. A link that joins notes the agent holds in different scopes (its private
notes and the shared scope, or a note it reads only by id) is marked, since that is
where a private fact can leak into shared memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import amem_tui.engine.scope as rules
from amem_tui.engine.store.filters import Filter, MatchAny

if TYPE_CHECKING:
    from amem_tui.engine.collections import CollectionService
    from amem_tui.engine.models import MemoryNote
    from amem_tui.engine.scope import AgentScope

#: How a neighbour is reached: through the links it holds (``out``: the note links to
#: it) or through a link to it (``in``: it links to the note).
Direction = Literal["out", "in"]
#: Where a readable note sits for the agent: one of its panes, or read only by id.
Reach = Literal["private", "shared", "collection", "get only"]

#: How far the neighbourhood reaches by default (the issue's two links).
DEPTH = 2
#: Notes read per level at most; beyond it a level says how many it left out.
LEVEL_LIMIT = 200


@dataclass
class Neighbour:
    """A readable note one link further out, with what lies beyond it."""

    note: MemoryNote
    reach: Reach
    #: The link joins notes in different scopes of the agent (private and shared...).
    crosses: bool
    #: The note is already in the tree nearer the root: its links are not repeated.
    seen_before: bool = False
    #: Further out in the same direction (empty at the last level).
    beyond: list[Neighbour] = field(default_factory=list)
    #: Links from here, in the same direction, to notes the agent may not read.
    unreadable: int = 0
    #: Links in the same direction to notes that no longer exist.
    missing: int = 0


@dataclass
class Neighbourhood:
    """A note with the notes it links to (``links_to``) and those that link to it
    (``linked_from``), each as deep as ``depth``."""

    root: MemoryNote
    reach: Reach
    depth: int
    links_to: list[Neighbour] = field(default_factory=list)
    linked_from: list[Neighbour] = field(default_factory=list)
    #: At the root: links out to unreadable notes, and unreadable notes linking in.
    unreadable_to: int = 0
    unreadable_from: int = 0
    missing_to: int = 0
    #: Neighbours left out because a level held more than ``LEVEL_LIMIT``.
    left_out: int = 0

    @property
    def size(self) -> int:
        """How many readable neighbours the tree names (a repeat counts once more)."""

        def count(level: Sequence[Neighbour]) -> int:
            return sum(1 + count(n.beyond) for n in level)

        return count(self.links_to) + count(self.linked_from)


def reach_of(scope: AgentScope, note: MemoryNote) -> Reach | None:
    """Where the agent holds ``note``: a pane's scope, "get only", or None (unreadable)."""
    listed = rules.listed_because(scope, note)
    if listed is not None:
        return listed
    return "get only" if rules.get_only_because(scope, note) is not None else None


def neighbourhood(
    service: CollectionService, scope: AgentScope, root: MemoryNote, depth: int = DEPTH
) -> Neighbourhood:
    """The neighbourhood of ``root`` (a note the agent may read) as the agent sees it."""
    walk = _Walk(service, scope)
    reach = reach_of(scope, root) or "get only"
    graph = Neighbourhood(root=root, reach=reach, depth=depth)
    seen = {root.id}
    graph.links_to, graph.unreadable_to, graph.missing_to = walk.level(
        [(root, reach)], "out", depth, seen
    )[0]
    seen = {root.id}
    graph.linked_from, graph.unreadable_from, _ = walk.level([(root, reach)], "in", depth, seen)[0]
    graph.left_out = walk.left_out
    return graph


class _Walk:
    """One breadth-first walk: each level is read with one store call."""

    def __init__(self, service: CollectionService, scope: AgentScope) -> None:
        self.service = service
        self.scope = scope
        self.left_out = 0

    def level(
        self,
        parents: list[tuple[MemoryNote, Reach]],
        direction: Direction,
        depth: int,
        seen: set[str],
    ) -> list[tuple[list[Neighbour], int, int]]:
        """For each parent: its neighbours in ``direction`` (and theirs, ``depth`` - 1
        levels on), how many are unreadable, and how many links point nowhere."""
        found = self._read(parents, direction)
        out: list[tuple[list[Neighbour], int, int]] = []
        nearer = set(seen)
        fresh: list[Neighbour] = []
        for (_, reach), (notes, missing) in zip(parents, found, strict=True):
            neighbours: list[Neighbour] = []
            unreadable = 0
            for note in notes:
                their = reach_of(self.scope, note)
                if their is None:
                    unreadable += 1
                    continue
                repeat = note.id in nearer
                neighbour = Neighbour(note, their, their != reach, seen_before=repeat)
                neighbours.append(neighbour)
                if not repeat:
                    seen.add(note.id)
                    fresh.append(neighbour)
            out.append((neighbours, unreadable, missing))
        if depth > 1 and fresh:
            if len(fresh) > LEVEL_LIMIT:
                self.left_out += len(fresh) - LEVEL_LIMIT
                fresh = fresh[:LEVEL_LIMIT]
            further = self.level([(n.note, n.reach) for n in fresh], direction, depth - 1, seen)
            for neighbour, (beyond, unreadable, missing) in zip(fresh, further, strict=True):
                neighbour.beyond, neighbour.unreadable, neighbour.missing = (
                    beyond,
                    unreadable,
                    missing,
                )
        return out

    def _read(
        self, parents: list[tuple[MemoryNote, Reach]], direction: Direction
    ) -> list[tuple[list[MemoryNote], int]]:
        """Each parent's neighbours as stored (readable or not), and its dangling links."""
        service = self.service
        if direction == "out":
            wanted = sorted({link for parent, _ in parents for link in parent.links})
            points = service.store.retrieve(service.name, wanted) if wanted else []
            stored = {p.id: service.note(p.id, p.payload) for p in points}
            return [
                (
                    [stored[link] for link in dict.fromkeys(parent.links) if link in stored],
                    sum(1 for link in dict.fromkeys(parent.links) if link not in stored),
                )
                for parent, _ in parents
            ]
        ids = tuple(parent.id for parent, _ in parents)
        linking = [
            service.note(p.id, p.payload)
            for p in service.store.scan(service.name, Filter(must=(MatchAny("links", ids),)))
        ]
        return [
            ([note for note in linking if parent.id in note.links and note.id != parent.id], 0)
            for parent, _ in parents
        ]
