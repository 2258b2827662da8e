"""The header line: user (mem0), agent, mode, collection, counts, how searches rank
when not exactly as the agent's own, store.

The line is built for the width it has: when the full line does not fit, the least
useful parts go first (the store, the app's name, the field labels, the collection),
so the agent and the counts stay readable at 80 columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from amem_tui.tui.text import one_line
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine import AgentScope

SEPARATOR = "  │ "
#: What a mem0 view reads, in the plugin's words.
VIEW_LABELS = {
    "search": "search view",
    "recall": "auto-recall view",
    "agentId": "explicit agentId view",
}


@dataclass(frozen=True)
class Brevity:
    """How much a header line leaves out, from nothing (the full line) to the most."""

    store: bool = True
    name: bool = True
    labels: bool = True
    collection: bool = True
    long_counts: bool = True
    long_notes: bool = True


#: Each step leaves out one more thing; the first line that fits is shown.
BREVITY_STEPS = (
    Brevity(),
    Brevity(store=False),
    Brevity(store=False, name=False),
    Brevity(store=False, name=False, labels=False),
    Brevity(store=False, name=False, labels=False, long_notes=False),
    Brevity(store=False, name=False, labels=False, long_notes=False, long_counts=False),
    Brevity(
        store=False,
        name=False,
        labels=False,
        long_notes=False,
        long_counts=False,
        collection=False,
    ),
)


def view_label(scope: AgentScope) -> str | None:
    """A mem0 view's label ("search view", "auto-recall view"), None elsewhere."""
    if not scope.is_mem0_view:
        return None
    return VIEW_LABELS.get(scope.view or "search", f"{scope.view} view")


def counts_text(
    scope: AgentScope | None, counts: dict[str, int], long: bool, mem0: bool = False
) -> str:
    """``private 8 · shared 6 · visible 14`` (short: ``8 + 6 = 14 visible``), then the
    notes it reads only by id when there are any (``get only 1``, never in visible)."""
    private, shared, visible = (counts.get(k, 0) for k in ("private", "shared", "visible"))
    if mem0:  # one namespace, nothing shared
        return f"memories {visible}" if long else plural(visible, "memory")
    if scope is not None and not scope.has_shared_scope:
        return f"notes {visible}" if long else plural(visible, "note")
    get_only = counts.get("get_only", 0)
    if long:
        apart = f" · get only {get_only}" if get_only else ""
        return f"private {private} · shared {shared} · visible {visible}{apart}"
    apart = f" (+{get_only} get only)" if get_only else ""
    return f"{private} + {shared} = {visible} visible{apart}"


class HeaderBar(Widget):
    """One line saying who we act as, where, and how much there is (redrawn whenever
    one of its reactive attributes changes)."""

    DEFAULT_CSS = """
    HeaderBar { height: 1; background: $panel; color: $foreground; padding: 0 1; }
    """

    #: The agent shown (None while loading).
    scope: reactive[AgentScope | None] = reactive(None)
    #: Note counts: private, shared, visible.
    counts: reactive[dict[str, int] | None] = reactive(None)
    #: True when the collection is a mem0 collection (no modes, no shared scope).
    mem0: reactive[bool] = reactive(False)
    #: What the model is up to, while it is not ready ("loading model…").
    model_note: reactive[str] = reactive("")
    #: How searches rank when not exactly as the agent's own (by words only, or by an
    #: approximate copy of its model); empty when exact.
    search_note: reactive[str] = reactive("")

    def __init__(self, store_label: str, read_only: bool, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.store_label = store_label
        self.read_only = read_only

    def show(
        self,
        scope: AgentScope | None,
        counts: dict[str, int] | None,
        *,
        mem0: bool | None = None,
    ) -> None:
        """Show an agent scope and its note counts (and whether it is a mem0 collection)."""
        if mem0 is not None:
            self.mem0 = mem0
        self.scope = scope
        self.counts = counts

    @property
    def text(self) -> str:
        """The full line, whatever the width (for tests and screen readers)."""
        return self.line(BREVITY_STEPS[0]).plain

    def render(self) -> Text:
        """The fullest line that fits the width; the shortest one cut with an ellipsis."""
        width = self.content_size.width
        for brevity in BREVITY_STEPS:
            line = self.line(brevity)
            if width <= 0 or line.cell_len <= width:
                return line
        line.truncate(max(width, 1), overflow="ellipsis")
        return line

    def line(self, brevity: Brevity) -> Text:
        """The header line, leaving out what ``brevity`` says."""
        scope, counts = self.scope, self.counts
        line = Text(no_wrap=True, overflow="ellipsis")
        if brevity.name:
            line.append("amem-tui  ", style="bold")
        if scope is None:
            line.append("loading…", style="italic")
        else:
            self._identity(line, scope, brevity)
        if counts is not None:
            line.append(SEPARATOR, style="dim")
            line.append(counts_text(scope, counts, brevity.long_counts, self.mem0))
        if self.read_only:
            line.append(SEPARATOR, style="dim")
            label = "READ-ONLY: writes are off" if brevity.long_notes else "READ-ONLY"
            line.append(label, style="bold reverse")
        if self.model_note:
            line.append(SEPARATOR, style="dim")
            note = self.model_note if brevity.long_notes else one_line(self.model_note, 24)
            line.append(note, style="italic")
        if self.search_note:
            line.append(SEPARATOR, style="dim")
            line.append(self.search_note, style="italic")
        if brevity.store:
            line.append(f"{SEPARATOR}store ", style="dim")
            line.append(one_line(self.store_label, 60))
        return line

    def _identity(self, line: Text, scope: AgentScope, brevity: Brevity) -> None:
        labels = brevity.labels
        if scope.user is not None:
            if labels:
                line.append("user ", style="dim")
            line.append(one_line(scope.user, 30), style="bold")
            line.append("  ")
        if labels:
            line.append("agent ", style="dim")
        line.append(one_line(scope.agent, 40), style="bold")
        view = view_label(scope)
        if view is not None:
            line.append(f"  {view}", style="italic")
            if brevity.collection and scope.namespace:
                line.append(f" ({one_line(scope.namespace, 40)})", style="dim")
        if self.mem0:
            line.append("  mem0 (read-only)" if brevity.long_notes else "  mem0")
        else:
            line.append(f"  Mode {scope.mode}", style="bold reverse" if scope.mode == "B" else "")
        if brevity.collection:
            line.append("  collection " if labels else "  ", style="dim")
            line.append(one_line(scope.collection, 40))
