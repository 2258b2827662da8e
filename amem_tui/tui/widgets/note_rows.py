"""How a note is drawn as a row of a pane: its markers, its content, its search columns.

Everything from the store goes through ``amem_tui.tui.text``, so it is shown
literally.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text

from amem_tui.tui.text import cell, one_line

if TYPE_CHECKING:
    from amem_tui.engine import MemoryNote, SearchHit


def newest_first(notes: Iterable[MemoryNote]) -> list[MemoryNote]:
    """Notes by creation time, newest first; notes without a readable time go last.

    The engine lists in store order and has no order option, so each loaded page is
    sorted here: pages after the first are sorted among themselves, not globally.
    """

    def when(note: MemoryNote) -> tuple[bool, float]:
        created = note.created_at()
        return (created is not None, created.timestamp() if created is not None else 0.0)

    return sorted(notes, key=when, reverse=True)


#: Widths of the search columns: the cosine ("0.71") and what matched ("2/3", "meaning").
COSINE_WIDTH = 6
MATCH_WIDTH = 7
#: The owner column's widest (the column is as wide as the longest owner shown).
OWNER_MAX = 12
#: Cells between two columns of a search row (as between the cells of a table).
GAP = "  "


def query_word_count(query: str) -> int:
    """How many distinct words of ``query`` keyword search looks for."""
    from amem_tui.engine.for_apps import tokenize

    return len(set(tokenize(query)))


def match_label(hit: SearchHit, query_words: int) -> Text:
    """What matched, at a glance: ``2/3`` query words, ``meaning`` only, ``link`` or ``weak``."""
    if hit.via == "link":
        return Text("link", style="italic")
    if hit.matched_terms:
        return Text(f"{len(hit.matched_terms)}/{max(query_words, len(hit.matched_terms))}")
    if hit.weak:
        return Text("weak", style="italic")
    return Text("meaning")


def cosine_label(hit: SearchHit) -> Text:
    """The cosine similarity to the query, two decimals ("–" for a keyword-only hit)."""
    if hit.similarity is None:
        return Text("–", justify="right")
    return Text(f"{hit.similarity:.2f}", justify="right")


def selective_readers(note: MemoryNote) -> list[str] | None:
    """The readers of a note shared with chosen agents only (None for any other note)."""
    if note.is_shared:
        return None
    readers = note.effective_readers
    owner = note.effective_owner
    if "*" in readers or not [r for r in readers if r != owner]:
        return None
    return readers


def state_tags(note: MemoryNote) -> list[Text]:
    """Short markers shown before a note's content: deleted, conflict, pending, readers."""
    tags: list[Text] = []
    if not note.active:
        tags.append(Text("deleted", style="red"))
    if note.conflict:
        tags.append(Text("conflict", style="yellow"))
    if note.pending_merge:
        tags.append(Text("pending", style="yellow"))
    readers = selective_readers(note)
    if readers is not None:
        tags.append(Text(f"readers {', '.join(one_line(r, 20) for r in readers[:6])}", "cyan"))
    return tags


#: What a row highlighted by follow mode says before its content, by kind of change.
MARK_LABELS: Mapping[str, str] = {
    "added": "new",
    "published": "shared",
    "unpublished": "private",
    "restored": "restored",
    "edited": "edited",
    "merged": "merged",
    "evolved": "evolved",
    "changed": "changed",
}
MARK_STYLE = "bold black on yellow"


def content_cell(note: MemoryNote, words: Sequence[str] = (), mark: str | None = None) -> Text:
    """The content column: a follow-mode mark (a kind of change), state markers, then the
    content with matched words underlined."""
    text = Text(no_wrap=True, overflow="ellipsis")
    if mark is not None and note.active:
        text.append(MARK_LABELS.get(mark, "changed"), style=MARK_STYLE)
        text.append(" · ", style="dim")
    for tag in state_tags(note):
        text.append_text(tag)
        text.append(" · ", style="dim")
    body = cell(note.content, 200, style="dim strike" if not note.active else "")
    for word in words:
        body.highlight_regex(rf"(?i)\b{re.escape(word)}", style="bold underline")
    text.append_text(body)
    return text


# A hit is drawn as one table cell holding its columns side by side, not as a cell per
# column: the table renders every cell through Rich's padding and styling, and the hits
# of a search (two panes of them) are drawn on every keystroke's answer.
def search_header(owner_width: int | None) -> Text:
    """The labels over search rows, aligned with ``search_row``'s columns."""
    parts = [f"{'cosine':>{COSINE_WIDTH}}", f"{'match':<{MATCH_WIDTH}}"]
    if owner_width is not None:
        parts.append(f"{'owner':<{owner_width}}")
    parts.append("content")
    return Text(GAP.join(parts), no_wrap=True, overflow="ellipsis")


def search_row(hit: SearchHit, query_words: int, owner_width: int | None, weak: bool) -> Text:
    """A hit's row: its cosine, what matched, its owner (``owner_width`` wide, or
    none) and its content with the matched words underlined; dimmed when weak."""
    row = Text(no_wrap=True, overflow="ellipsis")
    cosine = cosine_label(hit)
    row.append(f"{cosine.plain:>{COSINE_WIDTH}}", style=cosine.style)
    row.append(GAP)
    match = match_label(hit, query_words)
    row.append(f"{match.plain:<{MATCH_WIDTH}}", style=match.style)
    row.append(GAP)
    if owner_width is not None:
        owner = one_line(hit.note.effective_owner or "?", OWNER_MAX)
        row.append(owner + " " * max(0, owner_width - cell_len(owner)))
        row.append(GAP)
    row.append_text(content_cell(hit.note, hit.matched_terms))
    if weak:
        row.stylize("dim")
    return row
