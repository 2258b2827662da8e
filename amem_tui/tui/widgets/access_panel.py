"""Why each of two agents can or cannot read one note: the compare screen's detail.

Shows the note's content, the fields that decide who sees it (owner, agent_id,
readers, writers, collection), then one line per side: whether it sees the note, by
which rule, or why not; for a search hit also both ranks. Everything from the store
is shown literally.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from amem_tui.engine.for_apps import ComparedHit
from amem_tui.tui.text import literal, one_line

if TYPE_CHECKING:
    from amem_tui.engine.for_apps import ComparedAgent, ComparedNote, SideAccess

#: How much of a note's content the panel shows.
CONTENT_CHARS = 400


def _names(values: list[str]) -> str:
    shown = ", ".join(values[:6])
    return shown + (f", … +{len(values) - 6}" if len(values) > 6 else "") or "none"


def side_line(access: SideAccess, width: int) -> Text:
    """One side's access: a mark, the agent, and the rule or the reason."""
    line = Text()
    if access.listed:
        line.append("✓ sees it   ", style="bold green")
    elif access.because is not None:
        line.append("~ in view   ", style="bold yellow")
    elif access.kind == "get_only":
        line.append("~ get only  ", style="bold yellow")
    else:
        line.append("✗ cannot    ", style="bold red")
    line.append(one_line(access.agent, 40).ljust(width), style="bold")
    line.append("  ")
    line.append(one_line(access.reason, 300))
    if access.because is None and access.readable and access.kind != "get_only":
        line.append(" (readable by id)", style="dim")
    return line


def access_text(entry: ComparedNote | ComparedHit, a: ComparedAgent, b: ComparedAgent) -> Text:
    """The panel's text for one note or hit."""
    hit = entry if isinstance(entry, ComparedHit) else None
    note = hit.note if hit is not None else entry
    assert not isinstance(note, ComparedHit)
    text = Text()
    text.append_text(literal(note.content[:CONTENT_CHARS], style="bold"))
    state = "active" if note.active else "soft-deleted"
    facts = (
        f"id {note.id} · owner {note.owner or '-'} · agent_id {note.agent_id or '-'} · "
        f"readers {_names(note.readers)} · writers {_names(note.writers)} · "
        f"{note.collection} ({note.format}) · {state}"
    )
    if note.user_id:
        facts += f" · user_id {note.user_id}"
    text.append("\n")
    text.append(one_line(facts, 400), style="dim")
    width = max(len(one_line(a.label, 40)), len(one_line(b.label, 40)))
    text.append("\n")
    text.append_text(side_line(note.a, width))
    text.append("\n")
    text.append_text(side_line(note.b, width))
    if hit is not None:
        similarity = "" if hit.similarity is None else f", cosine {hit.similarity:.2f}"
        text.append(f"\n#{hit.rank} (score {hit.score:.3f}{similarity}) · ", style="italic")
        text.append(one_line(hit.other_reason, 300), style="italic")
    return text


class AccessPanel(VerticalScroll):
    """The selected note and both sides' access to it."""

    DEFAULT_CSS = """
    AccessPanel { height: 7; border-top: solid $panel-lighten-2; padding: 0 1; }
    AccessPanel > Static { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="access-text", markup=False)

    def show_entry(
        self, entry: ComparedNote | ComparedHit, a: ComparedAgent, b: ComparedAgent
    ) -> None:
        """Explain ``entry``."""
        self.query_one("#access-text", Static).update(access_text(entry, a, b))
        self.scroll_home(animate=False)

    def show_message(self, message: str) -> None:
        """Show a line instead of a note."""
        self.query_one("#access-text", Static).update(Text(message, style="dim"))
