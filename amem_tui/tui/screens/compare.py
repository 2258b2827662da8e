"""The compare screen: two agents' views side by side.

Pick agent A and agent B (and which notes: visible, private or shared). Without a
query the screen shows three lists, like a Venn diagram read left to right: notes
only A sees, notes both see, notes only B sees. Typing a query searches as both at
once and shows each agent's ranked results, each hit marked with the other agent's
rank or why it does not get it. The panel below explains the selected note: each
side's rule, or the reason it is kept out. The comparison runs in a worker and never
writes. Enter on a row closes the screen with a ``JumpTarget``:
the main screen then shows that note, as the side whose list it was in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input, Label, Select, Static
from textual.worker import get_current_worker

from amem_tui.engine import Comparison
from amem_tui.engine.for_apps import COMPARE_SCOPES, ComparedHit, ComparedNote, CompareScope
from amem_tui.engine.for_apps import agent_label as label
from amem_tui.tui.actions import COMPARE_ACTIONS, bindings
from amem_tui.tui.messages import ActionRefused, AgentsLoaded, JumpTarget, ReadProgress
from amem_tui.tui.text import one_line
from amem_tui.tui.widgets.access_panel import AccessPanel
from amem_tui.tui.widgets.compared_list import ComparedList, group_rule, rule_of
from amem_tui.tui.widgets.query_input import QueryInput
from amem_tui.tui.workers import ReportsWorkerFailures
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine import AgentScope, MemoryEngine

#: Notes shown per group (the title gives the full count); hits per agent are what each
#: agent's own search returns (memory_search's 5, a mem0 plugin's topK).
GROUP_LIMIT = 500
#: How long typing must pause before the query is searched.
QUERY_DELAY = 0.3
#: The first column of each group: the rule that shows its notes.
GROUP_RULES: dict[str, Callable[[ComparedNote], str]] = {
    "a_only": lambda note: rule_of(note.a),
    "b_only": lambda note: rule_of(note.b),
    "both": group_rule,
}


def other_mark(hit: ComparedHit, mine: str) -> str:
    """The first column of a hit: the other agent's rank, or whether it may see the note."""
    if hit.other_rank is not None:
        return f"#{hit.rank} both #{hit.other_rank}"
    other = hit.note.b if mine == "a" else hit.note.a
    return f"#{hit.rank} {'not top' if other.because else 'only'}"


class CompareScreen(ReportsWorkerFailures, Screen[JumpTarget | None]):
    """Two agents' views: three groups, or both ranked results for one query."""

    @dataclass
    class ComparisonReady(Message):
        """Two agents' views are compared (``generation`` drops an overtaken one)."""

        generation: int
        comparison: Comparison

    DEFAULT_CSS = """
    CompareScreen { layout: vertical; }
    CompareScreen #compare-bar { height: 1; padding: 0 1; }
    CompareScreen #compare-bar Label { padding: 0 1; }
    CompareScreen #compare-bar Select { width: 1fr; }
    CompareScreen #compare-bar #compare-scope { width: 14; }
    CompareScreen #compare-query { margin: 0 1; }
    CompareScreen #compare-status { height: 1; padding: 0 1; color: $text-muted; }
    CompareScreen #compare-lists { height: 1fr; min-height: 6; }
    CompareScreen #compare-lists ComparedList { width: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings(COMPARE_ACTIONS)

    AUTO_FOCUS = "#list-a DataTable"

    def __init__(self, engine: MemoryEngine, first: AgentScope | None = None) -> None:
        super().__init__()
        self.engine = engine
        #: The agent to start with as A (the main screen's agent).
        self.first = first
        self.agents: list[AgentScope] = []
        #: The comparison on screen, once one is loaded.
        self.comparison: Comparison | None = None
        #: Counts requests; a result overtaken by a newer request is never shown.
        self.generation = 0
        self._query_timer: Timer | None = None

    # ----------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        with Horizontal(id="compare-bar"):
            yield Label("Compare")
            yield Select[int]([], prompt="agent A", id="compare-a", compact=True)
            yield Label("with")
            yield Select[int]([], prompt="agent B", id="compare-b", compact=True)
            yield Select[str](
                [(f"{which} notes", which) for which in COMPARE_SCOPES],
                value="visible",
                allow_blank=False,
                id="compare-scope",
                compact=True,
            )
        yield QueryInput(
            placeholder="/ search as both agents at once", id="compare-query", compact=True
        )
        yield Static("Loading agents…", id="compare-status", markup=False)
        with Horizontal(id="compare-lists"):
            yield ComparedList(id="list-a")
            yield ComparedList(id="list-both")
            yield ComparedList(id="list-b")
        yield AccessPanel(id="compare-access")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Load the agents; the comparison follows once two are chosen."""
        self.load_agents()

    # ------------------------------------------------------------ what tests read
    @property
    def scope_a(self) -> AgentScope | None:
        """Agent A, once chosen."""
        return self._chosen("#compare-a")

    @property
    def scope_b(self) -> AgentScope | None:
        """Agent B, once chosen."""
        return self._chosen("#compare-b")

    @property
    def which(self) -> CompareScope:
        """Which notes of each agent are compared."""
        value = self.query_one("#compare-scope", Select).value
        return next((which for which in COMPARE_SCOPES if which == value), "visible")

    @property
    def query_text(self) -> str:
        """The query searched as both agents ("" without one)."""
        return self.query_one("#compare-query", Input).value.strip()

    def _chosen(self, selector: str) -> AgentScope | None:
        value = self.query_one(selector, Select).value
        return self.agents[value] if isinstance(value, int) else None

    # ----------------------------------------------------------------- agents
    @work(thread=True, exit_on_error=False, group="compare-agents")
    def load_agents(self) -> None:
        """The agents from the configuration and the store (mem0: user and agent pairs)."""
        self.post_message(AgentsLoaded(self.engine.agents()))

    def on_agents_loaded(self, message: AgentsLoaded) -> None:
        """Offer the agents; A is the main screen's agent, B the next one."""
        message.stop()
        agents = list(message.agents)
        if self.first is not None and self.first not in agents:
            agents.insert(0, self.first)
        self.agents = agents
        options = [(f"{label(s)} · Mode {s.mode}", i) for i, s in enumerate(agents)]
        first = agents.index(self.first) if self.first in agents else 0
        second = next((i for i in range(len(agents)) if i != first), first)
        with self.prevent(Select.Changed):
            for selector, index in (("#compare-a", first), ("#compare-b", second)):
                select = self.query_one(selector, Select)
                select.set_options(options)
                if agents:
                    select.value = index
        self.reload()

    @on(Select.Changed)
    def _choice_changed(self) -> None:
        self.reload()

    def action_swap(self) -> None:
        """Swap agent A and agent B."""
        first, second = self.query_one("#compare-a", Select), self.query_one("#compare-b", Select)
        with self.prevent(Select.Changed):
            first.value, second.value = second.value, first.value
        self.reload()

    # ---------------------------------------------------------------- queries
    def action_focus_query(self) -> None:
        """Put the cursor in the query box (at once: keys typed in the same burst follow)."""
        self.set_focus(self.query_one("#compare-query", Input))

    @on(Input.Changed, "#compare-query")
    def _query_changed(self) -> None:
        if self._query_timer is not None:
            self._query_timer.stop()
        self._query_timer = self.set_timer(QUERY_DELAY, self.reload)

    @on(Input.Submitted, "#compare-query")
    def _query_submitted(self) -> None:
        if self._query_timer is not None:
            self._query_timer.stop()
        self.reload()
        self.query_one("#list-a", ComparedList).table.focus()

    def action_close(self) -> None:
        """Escape: clear the query first, then leave."""
        query = self.query_one("#compare-query", Input)
        if query.value:
            query.value = ""
            self.reload()
            return
        self.dismiss(None)

    # ------------------------------------------------------------- comparison
    def reload(self) -> None:
        """Compare the chosen agents again (a newer request overtakes an older one)."""
        a, b = self.scope_a, self.scope_b
        if a is None or b is None:
            return
        self.generation += 1
        query = self.query_text
        words = f"searching {query!r} as both" if query else "comparing"
        self.query_one("#compare-status", Static).update(f"{words}…")
        self.compare(a, b, self.which, query or None, self.generation)

    @work(thread=True, exclusive=True, exit_on_error=False, group="compare")
    def compare(
        self, a: AgentScope, b: AgentScope, which: CompareScope, query: str | None, generation: int
    ) -> None:
        """Run the comparison off the UI thread, posting progress as the store is read."""
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if not worker.is_cancelled:
                self.post_message(ReadProgress(done, total))

        limit = None if query else GROUP_LIMIT
        comparison = self.engine.compare(a, b, which, query=query, limit=limit, progress=progress)
        if not worker.is_cancelled:
            self.post_message(self.ComparisonReady(generation, comparison))

    def on_read_progress(self, message: ReadProgress) -> None:
        """Say how far the comparison has read."""
        self.query_one("#compare-status", Static).update(
            f"comparing… {message.done:,} of {message.total:,} points read"
        )

    def on_compare_screen_comparison_ready(self, message: CompareScreen.ComparisonReady) -> None:
        """Show the groups (or both agents' hits) of the newest comparison."""
        if message.generation != self.generation:
            return
        comparison = self.comparison = message.comparison
        lists = [self.query_one(f"#list-{key}", ComparedList) for key in ("a", "both", "b")]
        a, b = comparison.a.label, comparison.b.label
        if comparison.search is not None:
            self._show_search(comparison, lists)
        elif comparison.groups is not None:
            groups = comparison.groups
            titles = (f"{a} only", "both", f"{b} only")
            for listed, key, title in zip(lists, ("a_only", "both", "b_only"), titles, strict=True):
                group = groups[key]  # type: ignore[index]  # the group names are Literal keys
                listed.first_column, listed.optional_first = "rule", True
                rule = GROUP_RULES[key]
                shown = f" (first {len(group.notes):,})" if group.total > len(group.notes) else ""
                listed.show(
                    f"{title} · {group.total:,}{shown}",
                    [(rule(note), note) for note in group.notes],
                    f"no {comparison.scope} note seen by {title}",
                )
                listed.display = True
            status = (
                f"{comparison.scope} notes · {a} only {groups['a_only'].total:,} · "
                f"both {groups['both'].total:,} · {b} only {groups['b_only'].total:,}"
            )
            self.query_one("#compare-status", Static).update(one_line(status, 300))
        self._explain_current(lists)

    def _show_search(self, comparison: Comparison, lists: list[ComparedList]) -> None:
        search = comparison.search
        assert search is not None
        a, b = comparison.a.label, comparison.b.label
        for listed, hits, mine, who in (
            (lists[0], search.a_hits, "a", a),
            (lists[2], search.b_hits, "b", b),
        ):
            listed.first_column, listed.optional_first = "rank", False
            listed.show(
                f"{who}'s results · {len(hits)}",
                [(other_mark(hit, mine), hit) for hit in hits],
                f"{who} finds nothing for this query",
            )
        lists[1].display = False
        both = sum(hit.other_rank is not None for hit in search.a_hits)
        notice = f" · {search.notices[0]}" if search.notices else ""
        status = f"{search.query!r}: {plural(both, 'hit')} in both top {search.top()}{notice}"
        self.query_one("#compare-status", Static).update(one_line(status, 300))

    def _explain_current(self, lists: list[ComparedList]) -> None:
        panel = self.query_one(AccessPanel)
        focused = next((x for x in lists if x.table.has_focus and x.current is not None), None)
        chosen = focused or next((x for x in lists if x.display and x.current is not None), None)
        if chosen is None or self.comparison is None:
            panel.show_message("Nothing to explain: no note in these lists.")
            return
        entry = chosen.current
        assert entry is not None
        panel.show_entry(entry, self.comparison.a, self.comparison.b)

    @on(ComparedList.Opened)
    def _opened_entry(self, message: ComparedList.Opened) -> None:
        self._open(message.source, message.entry)

    def action_open_note(self) -> None:
        """Show the note under the cursor of the focused list (else of the first list)."""
        lists = [self.query_one(f"#list-{key}", ComparedList) for key in ("a", "both", "b")]
        focused = [x for x in lists if x.table.has_focus] + [x for x in lists if x.display]
        chosen = next((x for x in focused if x.current is not None), None)
        if chosen is not None and chosen.current is not None:
            self._open(chosen, chosen.current)

    def _open(self, source: ComparedList, entry: ComparedNote | ComparedHit) -> None:
        """Close, and show the note as the side whose list it was in."""
        a, b = self.scope_a, self.scope_b
        sides = [s for s in ((b, a) if source.id == "list-b" else (a, b)) if s]
        note = entry.note if isinstance(entry, ComparedHit) else entry
        self.dismiss(JumpTarget(note.id, collection=note.collection, scopes=tuple(sides)))

    @on(ComparedList.Chosen)
    def _chosen_entry(self, message: ComparedList.Chosen) -> None:
        if self.comparison is None or not message.source.table.has_focus:
            return
        self.query_one(AccessPanel).show_entry(message.entry, self.comparison.a, self.comparison.b)

    def on_descendant_focus(self) -> None:
        """Explain what the focused list has under its cursor."""
        focused = self.focused
        parent = focused.parent if focused is not None else None
        if isinstance(parent, ComparedList) and parent.current is not None and self.comparison:
            self.query_one(AccessPanel).show_entry(
                parent.current, self.comparison.a, self.comparison.b
            )

    def on_action_refused(self, message: ActionRefused) -> None:
        """A failed comparison is notified (the lists keep what they showed)."""
        self.query_one("#compare-status", Static).update(one_line(message.message, 300))
        self.app.notify(
            one_line(message.message, 400), title=message.title, severity="error", markup=False
        )
