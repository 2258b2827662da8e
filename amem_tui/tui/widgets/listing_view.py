"""What a note pane makes of the rows it holds: a plain-text filter and a sort order.

Both work on what the pane has already loaded (its listing, or its search hits), never
on the store: a keystroke in the filter costs a pass over those notes, however big the
store is. The filter matches a case-insensitive substring of a note's content, tags
or owner. The sort orders the listing by one column (search hits keep the agent's
ranking); notes without a value for it go last, in either direction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

from amem_tui.tui.text import one_line

if TYPE_CHECKING:
    from amem_tui.engine import MemoryNote

SortKey = Literal["created", "updated", "owner", "recalls", "recalled"]
#: The columns a pane sorts by, in the order the sort key cycles through them.
SORT_KEYS: tuple[SortKey, ...] = ("created", "updated", "owner", "recalls", "recalled")
#: How each is named in a column header and in what the app says.
SORT_LABELS: dict[SortKey, str] = {
    "created": "created",
    "updated": "updated",
    "owner": "owner",
    "recalls": "recalls",
    "recalled": "recalled",
}
#: What each means, for the help text and notifications.
SORT_MEANINGS: dict[SortKey, str] = {
    "created": "creation time",
    "updated": "last change (the evolution history, mem0's updated_at)",
    "owner": "owner",
    "recalls": "recall count (retrieval_count)",
    "recalled": "last recalled (last_accessed)",
}
UP, DOWN = "↑", "↓"


@dataclass(frozen=True)
class Order:
    """A sort order: a column and a direction. The default is newest first."""

    key: SortKey = "created"
    descending: bool = True

    @property
    def is_default(self) -> bool:
        """Newest first: the order a listing has without a sort asked for."""
        return self.key == "created" and self.descending

    @property
    def label(self) -> str:
        """``recalls ↓``: the column and its direction, as its header shows them."""
        return f"{SORT_LABELS[self.key]} {DOWN if self.descending else UP}"

    def following(self) -> Order:
        """The next column, in its natural direction (names A to Z, the rest most first)."""
        key = SORT_KEYS[(SORT_KEYS.index(self.key) + 1) % len(SORT_KEYS)]
        return Order(key, descending=key != "owner")

    def inverted(self) -> Order:
        """The same column the other way round."""
        return replace(self, descending=not self.descending)

    def to_text(self) -> str:
        """``recalls desc``: how the user config keeps it."""
        return f"{self.key} {'desc' if self.descending else 'asc'}"

    @classmethod
    def from_text(cls, text: object) -> Order | None:
        """The order ``to_text`` wrote (None for anything else)."""
        if not isinstance(text, str):
            return None
        key, _, way = text.strip().partition(" ")
        if key not in SORT_KEYS or way not in ("asc", "desc"):
            return None
        return cls(key, descending=way == "desc")


def haystack(note: MemoryNote) -> str:
    """What the filter looks in: content, tags and owner, lower-cased."""
    return "\n".join((note.content, *note.tags, note.effective_owner or "")).casefold()


def updated_time(note: MemoryNote) -> str:
    """When the note last changed: its latest evolution entry, mem0's ``updated_at``, or
    its creation (ISO strings compare in time order when they share a zone)."""
    extra = note.model_extra or {}
    times = [e.triggeredAt for e in note.evolution_history if e.triggeredAt]
    times += [v for k in ("updated_at", "updatedAt") if isinstance(v := extra.get(k), str) and v]
    return max(times) if times else note.effective_timestamp


def sort_value(note: MemoryNote, key: SortKey) -> str | int | None:
    """The value ``key`` sorts ``note`` by (None: it has none, and goes last)."""
    if key == "owner":
        return note.effective_owner or None
    if key == "recalls":
        return note.retrieval_count
    if key == "updated":
        return _instant(updated_time(note))
    if key == "recalled":
        return _instant(note.last_accessed) if note.retrieval_count or note.last_accessed else None
    return _instant(note.effective_timestamp)


def _instant(text: str) -> str | None:
    """An ISO time as a sortable string in UTC (None when absent or unreadable)."""
    if not text:
        return None
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is not None:
        when = when.astimezone(UTC).replace(tzinfo=None)
    return when.isoformat()


def sort_cell(note: MemoryNote, key: SortKey) -> str:
    """What the sort column shows for ``note``: a date, a count, an owner, or "never"."""
    if key == "owner":
        return one_line(note.effective_owner or "?", 12)
    if key == "recalls":
        return str(note.retrieval_count)
    value = sort_value(note, key)
    if value is None:
        return "never" if key == "recalled" else "–"
    return str(value)[:10]


@dataclass
class ListingView:
    """A pane's filter text and sort order, and what they make of its notes.

    The lower-cased text of each note is kept between keystrokes (by note id, for the
    very note object it was made from), so typing costs one substring test per note.
    """

    text: str = ""
    order: Order = Order()

    def __post_init__(self) -> None:
        self._texts: dict[str, tuple[MemoryNote, str]] = {}

    @property
    def needle(self) -> str:
        """The filter as matched (trimmed, case-folded)."""
        return self.text.strip().casefold()

    @property
    def filtering(self) -> bool:
        """True while a filter narrows the rows."""
        return bool(self.needle)

    @property
    def plain(self) -> bool:
        """True when the rows are the notes as they came (no filter, newest first)."""
        return not self.filtering and self.order.is_default

    def matches(self, note: MemoryNote) -> bool:
        """True when the filter keeps ``note`` (always, without a filter)."""
        needle = self.needle
        if not needle:
            return True
        kept = self._texts.get(note.id)
        if kept is None or kept[0] is not note:
            kept = (note, haystack(note))
            self._texts[note.id] = kept
        return needle in kept[1]

    def forget(self) -> None:
        """Another listing comes: the kept texts go."""
        self._texts.clear()

    def filtered(self, notes: Sequence[MemoryNote]) -> list[MemoryNote]:
        """The notes the filter keeps, in their order."""
        if not self.filtering:
            return list(notes)
        return [note for note in notes if self.matches(note)]

    def listing(self, notes: Sequence[MemoryNote]) -> list[MemoryNote]:
        """A listing's rows: the notes the filter keeps, in the sort order."""
        kept = self.filtered(notes)
        if self.order.is_default:
            return kept
        return sort_notes(kept, self.order)


def sort_notes(notes: Sequence[MemoryNote], order: Order) -> list[MemoryNote]:
    """``notes`` in ``order`` (stable; notes without a value last, either way)."""
    valued = [(sort_value(note, order.key), note) for note in notes]
    having = [pair for pair in valued if pair[0] is not None]
    missing = [note for value, note in valued if value is None]
    having.sort(key=lambda pair: pair[0], reverse=order.descending)  # type: ignore[arg-type,return-value]
    return [note for _, note in having] + missing
