"""The consolidation history of the current agent: runs and what each merged."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from amem_tui.tui.text import cell


def run_label(run: Any) -> Text:
    """A short word for a run: applied, dry run, undo, undone."""
    status = str(getattr(run, "status", "") or "")
    if getattr(run, "dry_run", False):
        return Text("dry run", style="italic")
    if getattr(run, "trigger", "") == "undo" or getattr(run, "undoes", None):
        return Text("undo", style="yellow")
    if status and status != "done":
        return Text(status, style="yellow")
    return Text(str(getattr(run, "trigger", "manual")))


def next_run_label(when: Any) -> str:
    """The nightly run's next start, short: "next run 03:00" (local time).

    The date is left out: it is always within a day, and it would depend on the
    machine's time zone (snapshots must not).
    """
    stamp = when.strftime("%H:%M") if hasattr(when, "strftime") else str(when)
    return f"next run {stamp}"


class HistoryPane(Vertical):
    """A table of consolidation runs (newest first)."""

    DEFAULT_CSS = """
    HistoryPane { border: round $panel-lighten-2; height: 1fr; }
    HistoryPane:focus-within { border: round $accent; }
    HistoryPane > DataTable { height: 1fr; background: transparent; scrollbar-size-horizontal: 0; }
    HistoryPane > .pane-message { padding: 0 1; color: $text-muted; height: auto; }
    """

    class Highlighted(Message):
        """The cursor moved to a run."""

        def __init__(self, run: Any | None) -> None:
            super().__init__()
            self.run = run

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.runs: dict[str, Any] = {}
        self.next_run: Any = None
        self.border_title = "Consolidation history"

    def compose(self) -> ComposeResult:
        table: DataTable[Text] = DataTable(cursor_type="row")
        yield table
        yield Static("", classes="pane-message", markup=False)

    @property
    def table(self) -> DataTable[Text]:
        """The table inside."""
        return self.query_one(DataTable)

    def _message(self, text: str) -> None:
        message = self.query_one(".pane-message", Static)
        message.update(Text(text))
        message.display = bool(text)

    def show_runs(self, runs: Sequence[Any]) -> None:
        """Replace the rows with these runs, newest first."""
        table = self.table
        current = self.current_id
        table.clear(columns=True)
        table.add_column("started", key="started", width=11)
        table.add_column("kind", key="kind", width=7)
        table.add_column("merges", key="merges")
        self.runs = {}
        ordered = sorted(runs, key=lambda r: str(getattr(r, "started_at", "")), reverse=True)
        for run in ordered:
            run_id = str(run.id)
            if run_id in self.runs:
                continue
            self.runs[run_id] = run
            # MM-DD HH:MM: the year is rarely news, and the pane is narrow.
            started = str(getattr(run, "started_at", ""))[5:16].replace("T", " ")
            merges = len(getattr(run, "merges", []) or [])
            undone = sum(1 for m in getattr(run, "merges", []) or [] if getattr(m, "undone", False))
            table.add_row(
                cell(started, 11),
                run_label(run),
                Text(f"{merges}" + (f" ({undone} undone)" if undone else "")),
                key=run_id,
            )
        table.display = bool(self.runs)
        self.border_title = "Consolidation history"
        count = len(self.runs)
        parts = [f"{count} run{'' if count == 1 else 's'}"] if count else []
        if self.next_run is not None:
            parts.append(next_run_label(self.next_run))
        self.border_subtitle = " · ".join(parts)
        self._message("" if self.runs else "No consolidation runs yet. Press c to consolidate.")
        if current and current in table.rows:
            table.move_cursor(row=table.get_row_index(current))

    def show_unavailable(self, text: str) -> None:
        """Say why there is no history (e.g. the engine has no consolidation yet)."""
        self.runs = {}
        self.table.clear(columns=True)
        self.table.display = False
        self.border_title = "Consolidation history"
        self.border_subtitle = ""
        self._message(text)

    @property
    def current_id(self) -> str | None:
        """The id of the run under the cursor."""
        table = self.table
        if not table.display or table.row_count == 0:
            return None
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        except Exception:
            return None
        return str(key.value) if key.value is not None else None

    @property
    def current_run(self) -> Any | None:
        """The run under the cursor."""
        run_id = self.current_id
        return self.runs.get(run_id) if run_id else None

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Tell the screen which run is under the cursor."""
        event.stop()
        key = event.row_key.value if event.row_key is not None else None
        self.post_message(self.Highlighted(self.runs.get(str(key)) if key else None))
