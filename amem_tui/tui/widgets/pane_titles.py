"""What a note pane says of its rows in its title, its subtitle and its tab: how many
notes it lists (soft-deleted, loaded so far) or how many hits it shows (weak ones), how
many are marked, and what a filter kept."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from amem_tui.tui.text import one_line
from amem_tui.wording import plural

if TYPE_CHECKING:
    from collections.abc import Iterable

    from amem_tui.engine import MemoryNote, SearchHit
    from amem_tui.tui.widgets.pane_marks import MarkedNotes


class Counted(Protocol):
    """What the titles read of their pane."""

    @property
    def base_title(self) -> str: ...
    @property
    def total(self) -> int: ...
    @property
    def loaded(self) -> int: ...
    @property
    def deleted(self) -> int: ...
    @property
    def searching(self) -> bool: ...
    @property
    def disabled_view(self) -> bool: ...
    @property
    def filter_text(self) -> str: ...
    @property
    def rows_shown(self) -> int: ...
    @property
    def marked(self) -> MarkedNotes: ...

    listing: list[MemoryNote]
    #: Every hit of the search shown, the filter's or not.
    all_hits: list[SearchHit]
    hits: dict[str, SearchHit]


def weak_count(hits: Iterable[SearchHit]) -> int:
    """How many of ``hits`` are weak (no query word, a low cosine)."""
    return sum(1 for hit in hits if hit.weak and hit.via != "link")


def titles(pane: Counted, query: str | None = None) -> tuple[str, str]:
    """The pane's title and subtitle: of its hits for ``query``, else of its listing."""
    marked = f" · {len(pane.marked)} marked" if pane.marked else ""
    if query is not None:
        weak = weak_count(pane.hits.values())
        title = f"{pane.base_title}: {plural(pane.total, 'hit')}"
        title += f", {weak} weak" if weak else ""
        return title + marked, filter_note(pane)
    deleted = f", {pane.deleted} deleted" if pane.deleted else ""
    count = f"{pane.total - pane.deleted}{deleted}"
    loaded = f"{pane.loaded} of {pane.total} loaded" if pane.loaded < pane.total else ""
    return f"{pane.base_title} ({count}){marked}", filter_note(pane) or loaded


def filter_note(pane: Counted) -> str:
    """``filter: deploy — 3 of 40``: the filter and how many of the pane's rows it keeps
    ("" without a filter); "loaded" when the listing has more to load."""
    text = pane.filter_text.strip()
    if not text:
        return ""
    if pane.searching:
        of = f"{len(pane.all_hits)}"
    else:
        of = f"{len(pane.listing)}" + (" loaded" if pane.loaded < pane.total else "")
    return f"filter: {one_line(text, 24)} — {pane.rows_shown} of {of}"


def tab_label(pane: Counted) -> str:
    """``Shared (6)`` in a strip of tabs: the pane's name and what it shows."""
    name = pane.base_title.split(" · ")[0]
    if pane.disabled_view:  # no shared scope (Mode B, mem0)
        return f"{name} (none)"
    if pane.searching:
        return f"{name} ({plural(pane.total, 'hit')})"
    return f"{name} ({pane.total - pane.deleted})"
