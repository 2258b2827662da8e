"""How an early answer (the saved index's, while the store opens) reads on screen: the
same on the opening screen and on the main screen until its own search answers.

Light on purpose (Rich and the text helpers only): the opening screen is the app's
first frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text

from amem_tui.tui.text import one_line
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine.for_apps import EarlyAnswer, EarlyHit

#: What the detail view says while an early answer is shown.
EARLY_NOTE = (
    "These hits come from the saved note index, matched by words. The full answer "
    "(by meaning too) follows once the store is open; until then nothing can change."
)
#: Characters of a hit's first words drawn (the pane cuts them to its width).
_SHOWN = 160


def early_status(answer: EarlyAnswer) -> str:
    """The search box's status line for an early answer."""
    query = one_line(answer.query, 50)
    hits = plural(len(answer.hits), "hit")
    return f"{hits} · for {query!r} as {answer.agent} · partial: {answer.partial}"


def pane_title(title: str, count: int) -> str:
    """A pane's title while it shows an early answer's hits (as the main screen counts)."""
    return f"{title}: {plural(count, 'hit')}"


def pane_hits(answer: EarlyAnswer, shared: bool) -> list[EarlyHit]:
    """The hits of the Shared pane (``shared``), or of the Private one."""
    return [h for h in answer.hits if (h.because == "shared") == shared]


def early_lines(hits: Sequence[EarlyHit]) -> Text:
    """Each hit's first words, a line each, best first (control characters escaped:
    note text is never sent to the terminal as is)."""
    return Text("\n".join(one_line(h.snippet, _SHOWN) for h in hits))
