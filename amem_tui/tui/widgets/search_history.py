"""The search box's query history: each agent's queries are kept (on disk, with the
engine's size cap), Up and Down walk back through them, a list (Ctrl+O) picks one, and
"save as check" (Ctrl+S) writes the query and its top hits as a memory check.

A query is kept once its hits have stood on screen for ``RECORD_AFTER`` (a query
typed over before then is not), or on Enter; never a blank one. Up recalls in an empty
box, or while walking the history; any other text keeps Up for nothing else, so a query
being edited is never replaced by surprise. Down past the newest brings back the empty box.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.widget import Widget

from amem_tui.tui.dialogs.query_picker import QueryPicker
from amem_tui.tui.dialogs.save_check import SaveCheckDialog
from amem_tui.tui.query_syntax import as_typed, parse_query
from amem_tui.tui.saved_check import DEFAULT_FILE, SavedCheck

if TYPE_CHECKING:
    from textual.timer import Timer
    from textual.widgets import Input

    from amem_tui.engine import AgentScope, MemoryEngine, SearchResult

#: Seconds a query's hits must stay on screen before the query is kept.
RECORD_AFTER = 1.0


def history_name(scope: AgentScope) -> str:
    """The name a query is kept under: the mem0 namespace searched, or the agent id (what
    a dry run and a checks file name the agent by)."""
    return scope.namespace or scope.agent


def checks_file(widget: Widget, engine: MemoryEngine) -> Path | None:
    """The checks file a what-if asked from ``widget`` runs: the configured one
    (``AMEM_CHECKS``, ``[isolation] checks`` in config.toml), else the one the search box
    of its screen saved to last, if it still exists."""
    if engine.settings.checks_file is not None:
        return engine.settings.checks_file
    for box in widget.screen.query(SearchHistory).results(SearchHistory):
        if box.checks_path is not None and box.checks_path.is_file():
            return box.checks_path
    return None


class SearchHistory(Widget):
    """The search box's history keys and its save-as-check (a part of ``SearchBox``)."""

    engine: MemoryEngine
    scope: AgentScope | None
    query_text: str
    result: SearchResult | None

    @property
    def query_input(self) -> Input:  # the box's input (SearchBox's getter)
        raise NotImplementedError

    def init_history(self) -> None:
        """Nothing kept or recalled yet."""
        self._record_timer: Timer | None = None
        self._recorded: tuple[str, str] | None = None
        #: The queries Up walks through (newest first) and where the walk is (-1: the box).
        self._recall: list[str] = []
        self._recall_at = -1
        #: The checks file saved to last (what-if previews run its checks too).
        self.checks_path: Path | None = None

    # ------------------------------------------------------------- keeping
    def typed_over(self) -> None:
        """The text changed: the query shown did not stand, so it is not kept."""
        if self._record_timer is not None:
            self._record_timer.stop()
            self._record_timer = None
        if self._recall_at >= 0 and self.query_input.value != self._recall[self._recall_at]:
            self._recall_at = -1  # edited: the walk starts again from the newest

    def keep_when_settled(self) -> None:
        """Keep the query once its hits (just shown) have stood for ``RECORD_AFTER``."""
        if self._record_timer is not None:
            self._record_timer.stop()
        self._record_timer = self.set_timer(RECORD_AFTER, self.record_query, name="record-query")

    def record_query(self) -> None:
        """Keep the query in the box as the agent's newest (a blank one is not kept)."""
        self._record_timer = None
        scope = self.scope
        if scope is None or not self.query_text:
            return
        entry = (history_name(scope), self.query_text)
        if entry != self._recorded:
            self._recorded = entry
            self._write_history(*entry)

    @work(thread=True, exit_on_error=False, group="history")
    def _write_history(self, agent: str, query: str) -> None:
        # Kept as searched: the filter words as filters, so a preview re-runs it alike,
        # and the limit, so Up brings back what was typed.
        typed = parse_query(query)
        history = self.engine.query_history()
        history.record(agent, typed.text, typed.subject, typed.topics, typed.limit)

    def recent_queries(self) -> list[str]:
        """The agent's kept queries as the box takes them, newest first (a small file:
        read when asked)."""
        if self.scope is None:
            return []
        entries = self.engine.query_history().recent_entries(history_name(self.scope))
        return list(dict.fromkeys(as_typed(e.query, e.subject, e.topics, e.limit) for e in entries))

    # ------------------------------------------------------------- recalling
    def _put(self, query: str) -> None:
        box = self.query_input
        box.value = query
        box.cursor_position = len(query)

    def action_history_back(self) -> None:
        """Up: the agent's previous query (in an empty box, or while walking back)."""
        walking = self._recall_at >= 0 and self.query_input.value == self._recall[self._recall_at]
        if not walking:
            if self.query_input.value.strip():
                return  # a query being edited stays as it is
            self._recall = self.recent_queries()
            self._recall_at = -1
        if self._recall_at + 1 >= len(self._recall):
            if not self._recall:
                self.app.bell()
            return
        self._recall_at += 1
        self._put(self._recall[self._recall_at])

    def action_history_forward(self) -> None:
        """Down: the next newer query; past the newest, the empty box again."""
        if self._recall_at < 0 or self.query_input.value != self._recall[self._recall_at]:
            return
        self._recall_at -= 1
        self._put(self._recall[self._recall_at] if self._recall_at >= 0 else "")

    def action_recent_queries(self) -> None:
        """A list of the agent's recent queries; the one picked is searched again."""
        if self.scope is None:
            return

        def chosen(query: str | None) -> None:
            if query is not None:
                self._recall_at = -1
                self._put(query)
            self.query_input.focus()

        self.app.push_screen(QueryPicker(history_name(self.scope), self.recent_queries()), chosen)

    # ------------------------------------------------------------- check
    def action_save_check(self) -> None:
        """Save the query, its agent and its top hits as a ``[[check]]`` (a diff first)."""
        result, scope = self.result, self.scope
        if scope is None or result is None or not self.query_text:
            self.app.notify(
                "Save as check records a search: type a query and wait for its hits first.",
                markup=False,
            )
            return
        if result.partial:
            self.app.notify(
                "The hits on screen are partial: save once the full search is in.", markup=False
            )
            return
        hits = [hit.note.id for hit in result.hits]
        if not hits:
            self.app.notify("No hits to expect: a check records what the agent finds.")
            return
        check = SavedCheck(history_name(scope), self.query_text, hits)
        start = self.checks_path or Path.cwd() / DEFAULT_FILE

        def saved(path: Path | None) -> None:
            self.query_input.focus()
            if path is not None:
                self.checks_path = path
                self.app.notify(
                    f"Saved a check of {check.agent} searching {self.query_text!r} to {path}; "
                    f"run it with: amem-tui check {path}",
                    markup=False,
                )

        self.app.push_screen(SaveCheckDialog(check, start), saved)
