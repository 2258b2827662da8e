"""The Conflicts screen: the pairs openclaw-amem flagged as contradicting each other,
and a person's decision on each (the same desk as ``amem-tui conflicts``).

The list holds the pairs the agent can read, newest first, then the dangling flags
(``w``: the whole store's). The chosen pair is shown side by side with a word diff
(``ConflictView``). ``a`` keeps A (B is retired), ``b`` keeps B, ``k`` keeps both (not
a contradiction: the flags are cleared), ``x`` clears a dangling flag: each first asks,
showing what its dry run would change, and is refused with the rule named when the
agent may not modify a note. ``u`` undoes the last decision made here. The engine is
called in workers; the list is read again after each write.
Enter closes the screen with a ``JumpTarget``: note A in the main screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from amem_tui.engine.for_apps import ConflictPair
from amem_tui.tui.actions import CONFLICTS_ACTIONS, READ_ONLY_REASON, bindings
from amem_tui.tui.dialogs.confirm import confirm_then
from amem_tui.tui.dialogs.settle import SettleDialog
from amem_tui.tui.messages import ActionRefused, JumpTarget
from amem_tui.tui.text import cell, one_line, table_widths
from amem_tui.tui.widgets.conflict_view import ConflictView, settlement_text
from amem_tui.tui.workers import ReportsWorkerFailures
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine import AgentScope, ConflictList, MemoryEngine
    from amem_tui.engine.for_apps import DanglingFlag, PairKeep, Settlement

#: (title, widest cells) of each column of the list (cut to fit the screen).
COLUMNS: tuple[tuple[str, int], ...] = (
    ("kind", 8),
    ("A", 10),
    ("B", 10),
    ("owners", 20),
    ("reason", 60),
)
#: What each keep does, in words (for the confirm's title and button).
KEEP_WORDS: dict[str, tuple[str, str]] = {
    "A": ("Keep A, retire B", "Keep A"),
    "B": ("Keep B, retire A", "Keep B"),
    "both": ("Keep both: not a contradiction (the flags are cleared)", "Keep both"),
}


class ConflictsScreen(ReportsWorkerFailures, Screen[JumpTarget | None]):
    """Flagged pairs and dangling flags, one shown side by side; decide, clear, undo."""

    DEFAULT_CSS = """
    ConflictsScreen #conflicts-summary { height: auto; padding: 0 1; background: $boost; }
    ConflictsScreen #conflicts-table { height: auto; max-height: 40%; }
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings(CONFLICTS_ACTIONS)

    def __init__(self, engine: MemoryEngine, scope: AgentScope | None) -> None:
        super().__init__()
        self.engine = engine
        self.scope = scope
        #: The whole store's flags (no read rule), not only the agent's.
        self.store_wide = scope is None
        #: What the list shows (None while it is read).
        self.listing: ConflictList | None = None
        #: The rows' items, in row order.
        self.items: list[ConflictPair | DanglingFlag] = []
        #: The last decision made here (what ``u`` undoes).
        self.last: Settlement | None = None
        #: A decision (or an undo) was made here: the main screen reads its panes again.
        self.changed = False

    def compose(self) -> ComposeResult:
        yield Static("Reading the flagged pairs…", id="conflicts-summary", markup=False)
        yield DataTable(id="conflicts-table", cursor_type="row", zebra_stripes=True)
        yield ConflictView(id="conflicts-pair")
        yield Footer()

    def on_mount(self) -> None:
        """Read the pairs off the UI thread."""
        self.reload()

    # ------------------------------------------------------------- reading
    @dataclass
    class Listed(Message):
        """The pairs and dangling flags are read."""

        listing: ConflictList

    def reload(self) -> None:
        """Read the list again (after a write, or a toggle)."""
        self._read_list(self.store_wide)

    @work(thread=True, exclusive=True, exit_on_error=False, group="conflicts-list")
    def _read_list(self, store_wide: bool) -> None:
        if store_wide or self.scope is None:
            listing = self.engine.conflicts()
        else:
            listing = self.engine.agent(self.scope).conflicts.list()
        self.post_message(self.Listed(listing))

    def _summary(self, listing: ConflictList) -> Text:
        who = f"agent {listing.agent}" if listing.agent else "the whole store (w: one agent's)"
        if listing.agent:
            who += " (w: the whole store)"
        pairs, dangling = len(listing.pairs), len(listing.dangling)
        counted = f"{plural(pairs, 'flagged pair')}, {plural(dangling, 'dangling flag')}"
        line = f"Conflicts of {who}: {counted}"
        if not pairs and not dangling:
            line += ". Nothing to settle."
        else:
            line += ". a: keep A  b: keep B  k: keep both  x: clear a dangling flag  u: undo"
        return Text(one_line(line, 400))

    def on_conflicts_screen_listed(self, message: Listed) -> None:
        """Show the list, keeping the cursor on the same pair when it is still there."""
        listing = self.listing = message.listing
        table = self.query_one("#conflicts-table", DataTable)
        chosen = self.chosen()
        keep = self._key(chosen) if chosen is not None else None
        self.query_one("#conflicts-summary", Static).update(self._summary(listing))
        self.items = [*listing.pairs, *listing.dangling]
        self._fill(table)
        at = next((i for i, item in enumerate(self.items) if self._key(item) == keep), 0)
        if self.items:
            table.move_cursor(row=at)
            table.focus()
        self._show(self.chosen())

    def _fill(self, table: DataTable[Text]) -> None:
        """The rows, their columns fitted to the screen's width (beside the table's
        scrollbar): the reason, then the owners, cut first, with an ellipsis."""
        rows: list[tuple[str, ...]] = []
        for item in self.items:
            if isinstance(item, ConflictPair):
                owners = " / ".join(o or "(none)" for o in item.owners)
                reason = item.reason or "(no reason given)"
                rows.append(("pair", item.a.id, item.b.id, owners, reason))
            else:
                note = item.note
                rows.append(("dangling", note.id, "—", note.owner or "(none)", item.why))
        titles = [title for title, _ in COLUMNS]
        room = self.app.size.width - 2 - 2 * table.cell_padding * len(COLUMNS)
        widths = table_widths(titles, rows, room, [most for _, most in COLUMNS])
        table.clear(columns=True)
        for title, width in zip(titles, widths, strict=True):
            table.add_column(title, width=width)
        for row in rows:
            table.add_row(*(cell(v, w) for v, w in zip(row, widths, strict=True)))

    def on_resize(self) -> None:
        """Fit the list's columns to the new width, the cursor kept."""
        if self.listing is None:
            return
        table = self.query_one("#conflicts-table", DataTable)
        row = table.cursor_row
        self._fill(table)
        if self.items:
            table.move_cursor(row=min(row, len(self.items) - 1))

    @staticmethod
    def _key(item: ConflictPair | DanglingFlag) -> tuple[str, ...]:
        return item.ids if isinstance(item, ConflictPair) else (item.note.id,)

    def chosen(self) -> ConflictPair | DanglingFlag | None:
        """The pair or flag under the cursor (None: none)."""
        table = self.query_one("#conflicts-table", DataTable)
        if not self.items or not 0 <= table.cursor_row < len(self.items):
            return None
        return self.items[table.cursor_row]

    def _show(self, item: ConflictPair | DanglingFlag | None) -> None:
        self.query_one(ConflictView).show(item, "No flagged pair to show.")

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Show the pair under the cursor."""
        event.stop()
        self._show(self.chosen())

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter: go to note A in the main screen."""
        event.stop()
        self.action_open_note()

    # ------------------------------------------------------------ deciding
    @dataclass
    class Planned(Message):
        """A decision's dry run, to confirm (``keep`` None: a dangling flag cleared)."""

        settlement: Settlement
        keep: str | None

    @dataclass
    class Decided(Message):
        """A decision was made (or undone: ``undone``)."""

        settlement: Settlement | None
        undone: bool = False

    def _may_write(self) -> bool:
        if self.engine.read_only:
            self.app.notify(READ_ONLY_REASON, markup=False, severity="warning")
            return False
        if self.scope is None:
            self.app.notify("Choose an agent first: decisions are made as one.", markup=False)
            return False
        return True

    def _keep(self, keep: PairKeep) -> None:
        item = self.chosen()
        if not isinstance(item, ConflictPair):
            self.app.notify("Choose a flagged pair (x clears a dangling flag).", markup=False)
            return
        if self._may_write():
            self._plan(item, keep)

    def action_keep_a(self) -> None:
        """Keep A: B is retired (a soft delete, undone with u)."""
        self._keep("A")

    def action_keep_b(self) -> None:
        """Keep B: A is retired."""
        self._keep("B")

    def action_keep_both(self) -> None:
        """Keep both: not a contradiction; the flags are cleared as amem's review does."""
        self._keep("both")

    def action_clear_flag(self) -> None:
        """Clear the dangling flag under the cursor."""
        item = self.chosen()
        if item is None or isinstance(item, ConflictPair):
            self.app.notify("Choose a dangling flag (a, b or k decide a pair).", markup=False)
            return
        if self._may_write():
            self._plan(item, None)

    @work(thread=True, exclusive=True, exit_on_error=False, group="conflicts-write")
    def _plan(self, item: ConflictPair | DanglingFlag, keep: PairKeep | None) -> None:
        assert self.scope is not None
        desk = self.engine.agent(self.scope).conflicts
        if not isinstance(item, ConflictPair):
            plan = desk.clear(item.note.id, dry_run=True)
        else:
            assert keep is not None
            a, b = item.ids
            refusal = desk.refusal(a, b)
            if refusal is not None:
                raise refusal
            plan = desk.resolve(a, b, keep, dry_run=True)
        self.post_message(self.Planned(plan, keep))

    def on_conflicts_screen_planned(self, message: Planned) -> None:
        """Ask, showing what the decision changes; make it when confirmed."""
        plan, keep = message.settlement, message.keep
        title, label = KEEP_WORDS[keep] if keep else ("Clear the dangling flag", "Clear")

        def answer(reason: str | None) -> None:
            if reason is not None:
                self._decide(plan, keep, reason)

        body = Text("This will change:\n", style="bold")
        body.append_text(settlement_text(plan))
        body.append("\nRecorded as a run; u (or undo in the history) takes it back.", style="dim")
        self.app.push_screen(SettleDialog(title, body, label), answer)

    @work(thread=True, exclusive=True, exit_on_error=False, group="conflicts-write")
    def _decide(self, plan: Settlement, keep: str | None, reason: str) -> None:
        assert self.scope is not None
        desk = self.engine.agent(self.scope).conflicts
        if plan.pair is not None and keep is not None:
            a, b = plan.pair.ids
            done = desk.resolve(a, b, keep, reason=reason)  # type: ignore[arg-type]
        else:
            assert plan.flag is not None
            done = desk.clear(plan.flag.note.id, reason=reason)
        self.post_message(self.Decided(done))

    def action_undo(self) -> None:
        """Undo the last decision made here (asks first)."""
        last = self.last
        if last is None:
            self.app.notify("No decision made here yet to undo.", markup=False)
            return
        if not self._may_write():
            return
        body = Text(f"Undo run {last.run.id}? These changes are taken back:\n")
        body.append_text(settlement_text(last))
        confirm_then(self.app, "Undo the last decision", body, "Undo", self._undo)

    @work(thread=True, exclusive=True, exit_on_error=False, group="conflicts-write")
    def _undo(self) -> None:
        last = self.last
        assert last is not None and self.scope is not None
        self.engine.agent(self.scope).undo(last.run.id)
        self.post_message(self.Decided(None, undone=True))

    def on_conflicts_screen_decided(self, message: Decided) -> None:
        """Say what was done, and read the list again."""
        done = message.settlement
        self.changed = True
        if message.undone:
            self.last = None
            self.app.notify("Decision undone.", markup=False)
        elif done is not None:
            self.last = done
            what = f"retired {done.retired}" if done.retired else "flags cleared"
            self.app.notify(f"Decided: {what} (u undoes it).", markup=False)
        self.reload()

    def on_action_refused(self, message: ActionRefused) -> None:
        """Say why the engine refused (the rule named), never a traceback."""
        message.stop()
        self.app.notify(message.message, title=message.title, markup=False, severity="error")

    # ------------------------------------------------------------- moving
    def action_store_wide(self) -> None:
        """Show the whole store's flags, or only the agent's."""
        if self.scope is None:
            return
        self.store_wide = not self.store_wide
        self.reload()

    def action_open_note(self) -> None:
        """Close, and show note A (or the flagged note) in the main screen."""
        item = self.chosen()
        if item is None:
            return
        side = item.a if isinstance(item, ConflictPair) else item.note
        agents = (self.scope.agent,) if self.scope and not self.store_wide else ()
        owner = (side.owner,) if side.owner else ()
        self.dismiss(JumpTarget(side.id, agents or owner, side.collection, as_named=True))

    def action_close(self) -> None:
        """Back to the main screen."""
        self.dismiss(None)
