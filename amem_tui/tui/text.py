"""Showing untrusted note text literally.

Note content can hold Rich markup, ANSI or OSC escapes, control characters,
very long lines or megabytes of text. Everything shown goes through these
helpers, which return ``rich.text.Text`` objects (never parsed as markup)
and replace control characters with visible escapes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.text import Text

#: Control characters (C0, DEL, C1) and Unicode bidi controls: never sent to the terminal.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_ALL_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")

#: The longest text a detail view renders; the rest is counted, not drawn.
DETAIL_LIMIT = 20_000


def _escape(match: re.Match[str]) -> str:
    char = match.group(0)
    code = ord(char)
    if code < 0x20:  # caret notation, plain ASCII in every font: ESC is ^[
        return "^" + chr(code + 0x40)
    return f"\\u{code:04x}" if code > 0xFF else f"\\x{code:02x}"


def clean(value: object, keep_newlines: bool = False) -> str:
    """``value`` as printable text: control characters become visible escapes."""
    text = value if isinstance(value, str) else str(value)
    if keep_newlines:
        text = text.replace("\r\n", "\n").replace("\t", "    ")
        return _CONTROL.sub(_escape, text)
    return _ALL_CONTROL.sub(_escape, text)


def one_line(value: object, width: int = 80) -> str:
    """A single printable line of at most ``width`` characters (cut with an ellipsis)."""
    text = value if isinstance(value, str) else str(value)
    # Cut before cleaning so a megabyte of text costs no more than a short one.
    head = text[: width * 4]
    flat = " ".join(clean(head).split())
    if len(flat) > width or len(text) > len(head):
        return flat[: max(width - 1, 0)] + "…"
    return flat


def cell(value: object, width: int = 80, style: str = "") -> Text:
    """A table cell: one line, literal, never markup."""
    return Text(one_line(value, width), style=style, no_wrap=True, overflow="ellipsis")


def literal(value: object, style: str = "", limit: int = DETAIL_LIMIT) -> Text:
    """Multi-line literal text for a detail view, cut after ``limit`` characters."""
    text = value if isinstance(value, str) else str(value)
    rest = len(text) - limit
    shown = Text(clean(text[:limit], keep_newlines=True), style=style)
    if rest > 0:
        shown.append(f"\n… {rest:,} more characters not shown", style="italic dim")
    return shown


#: The narrowest a column is cut to when a table is wider than the screen.
NARROWEST_COLUMN = 8


def fit_widths(
    natural: Sequence[int], available: int, floors: Sequence[int] | None = None
) -> list[int]:
    """Column widths that add up to at most ``available`` where they can: each column's
    natural width, the widest ones cut first, never below ``floors`` (a column's title,
    say) nor ``NARROWEST_COLUMN`` (nor below its natural width when narrower)."""
    widths = list(natural)
    least = [
        min(w, max(NARROWEST_COLUMN, floors[i] if floors else 0)) for i, w in enumerate(widths)
    ]
    excess = sum(widths) - available
    while excess > 0:
        cuttable = [i for i, w in enumerate(widths) if w > least[i]]
        if not cuttable:
            break
        widest = max(cuttable, key=lambda i: widths[i])
        # Cut the widest down to the next widest (or by the excess), not one at a time.
        second = max((widths[i] for i in cuttable if i != widest), default=0)
        step = max(1, min(excess, widths[widest] - max(least[widest], second)))
        widths[widest] -= step
        excess -= step
    return widths


def table_widths(
    titles: Sequence[str], rows: Sequence[Sequence[object]], room: int, widest: Sequence[int]
) -> list[int]:
    """The widths of a table's columns fitted into ``room`` cells: each column as wide
    as its title and its longest value (at most ``widest``), the widest cut first."""
    natural = [
        min(most, max([len(title), *(len(one_line(row[i], most)) for row in rows)]))
        for i, (title, most) in enumerate(zip(titles, widest, strict=True))
    ]
    return fit_widths(natural, room, [len(title) for title in titles])
