"""One flagged pair as a person decides it: the two notes side by side (owner, scope,
when written, the text, whether this agent may settle it), then the word diff from B
to A, the sweep's reason and when it scanned them; or one dangling flag. And what a
decision changes, as its dry run plans it.

It is given what to show (``show``); it never touches the store. Every value from the
store is shown literally.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from amem_tui.engine.for_apps import ConflictPair
from amem_tui.tui.render import add_field, diff_text
from amem_tui.tui.text import literal

if TYPE_CHECKING:
    from amem_tui.engine.for_apps import ConflictSide, DanglingFlag, Settlement

#: The labels' column: the longest label and a space, so that at 80 columns a side's
#: scope and timestamp stay on their label's line.
LABEL = 10


def _field(text: Text, label: str, value: object) -> None:
    add_field(text, label, value, width=LABEL)


def side_text(label: str, side: ConflictSide) -> Text:
    """One note of a pair: who owns it, where it is, when written, its text, and why
    this agent may not settle it (when it may not)."""
    text = Text()
    text.append(f"{label}  ", style="bold")
    text.append_text(literal(side.id, style="bold"))
    text.append("\n")
    _field(text, "owner", side.owner or "(none)")
    _field(text, "scope", f"{side.scope} ({side.collection})")
    _field(text, "written", side.timestamp or "(unknown)")
    _field(text, "category", side.category)
    text.append("\n")
    text.append_text(literal(side.content))
    if side.refusal:
        text.append("\n\n")
        text.append("cannot settle: ", style="bold red")
        text.append_text(literal(side.refusal))
    return text


def pair_footer(pair: ConflictPair) -> Text:
    """The word diff from B to A (marked, so it reads without colour), the reason, when
    the sweep scanned the pair."""
    text = Text()
    text.append("diff B → A  ", style="bold")
    text.append("([-removed-] from B, {+added+} in A)\n", style="dim")
    text.append_text(diff_text(pair.diff(), marked=True))
    text.append("\n\n")
    _field(text, "reason", pair.reason or "(no reason given)")
    _field(text, "scanned", pair.scanned_at or "never")
    if pair.one_sided:
        _field(text, "flagged", "on one side only (a sweep that stopped half-way)")
    return text


def flag_text(flag: DanglingFlag) -> Text:
    """A dangling flag: the note, and why its partner is not there to decide against."""
    text = side_text("flagged", flag.note)
    text.append("\n\n")
    _field(text, "dangling", flag.why)
    text.append("\nx clears the flag (the partner is named no more).", style="dim")
    return text


def settlement_text(settlement: Settlement) -> Text:
    """What a decision changes, note by note, as planned (or made)."""
    text = Text()
    for change in settlement.changes:
        if change.role == "dropped":
            text.append("retire  ", style="bold red")
            text.append_text(literal(change.note))
            text.append(" (a soft delete: is_active false; undo brings it back)")
        else:
            text.append("clear   ", style="bold")
            text.append_text(literal(change.note))
            fields = [*change.set, *change.unset]
            text.append(f": {', '.join(fields) or 'nothing to change'}")
        text.append("\n")
    return text


class ConflictView(VerticalScroll):
    """The chosen pair side by side with its diff, or a dangling flag, or a hint."""

    DEFAULT_CSS = """
    ConflictView { height: 1fr; padding: 0 1; }
    ConflictView #conflict-sides { height: auto; }
    ConflictView .conflict-side { width: 1fr; height: auto; padding: 0 1 0 0; }
    ConflictView #conflict-footer { height: auto; margin-top: 1; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal(id="conflict-sides"):
            yield Static(id="conflict-a", classes="conflict-side")
            yield Static(id="conflict-b", classes="conflict-side")
        yield Static(id="conflict-footer")

    def show(self, item: ConflictPair | DanglingFlag | None, hint: str = "") -> None:
        """Show a pair (A beside B), a dangling flag, or ``hint`` when there is none."""
        a = self.query_one("#conflict-a", Static)
        b = self.query_one("#conflict-b", Static)
        footer = self.query_one("#conflict-footer", Static)
        if item is None:
            a.update(Text(hint))
            b.update("")
            footer.update("")
        elif isinstance(item, ConflictPair):
            a.update(side_text("A", item.a))
            b.update(side_text("B", item.b))
            footer.update(pair_footer(item))
        else:
            a.update(flag_text(item))
            b.update("")
            footer.update("")
        self.scroll_home(animate=False)
