"""The audit screen: the same report as ``amem-tui audit``, one tab per section.

It is given how to build the report (the main screen passes ``engine.audit``), builds
it in a worker while it says so, and never touches the store itself.
Every value from the store is shown literally: no markup, no control characters.
Enter on a row that names a note closes the screen with a
``JumpTarget``: the main screen then shows that note.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static, TabbedContent, TabPane

from amem_tui.tui.actions import AUDIT_ACTIONS, bindings
from amem_tui.tui.messages import JumpTarget
from amem_tui.tui.text import fit_widths
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine import AuditReport

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
CELL_WIDTH = 72
#: Columns a table's vertical scrollbar takes (the rows are fitted beside it).
SCROLLBAR = 2


def _cell(value: object, width: int = CELL_WIDTH) -> Text:
    """One literal line: control characters shown as escapes, cut to ``width``."""
    if isinstance(value, list):
        raw = ", ".join(map(str, value))
    else:
        raw = value if isinstance(value, str) else str(value)
    head = raw[: width * 4]  # cut first: a megabyte costs no more than a line
    flat = " ".join(_CONTROL.sub(lambda m: f"\\x{ord(m.group(0)):02x}", head).split())
    if len(flat) > width or len(raw) > len(head):
        flat = flat[: width - 1] + "…"
    return Text(flat, no_wrap=True, overflow="ellipsis")


class AuditScreen(Screen[JumpTarget | None]):
    """Shared notes by owner, wide readers, malformed and legacy points, cross-scope
    links and agents missing from the configuration; Enter on a row goes to its note,
    Escape closes it."""

    DEFAULT_CSS = """
    AuditScreen #audit-summary { height: auto; padding: 0 1; background: $boost; }
    AuditScreen TabbedContent { height: 1fr; }
    AuditScreen DataTable { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings(AUDIT_ACTIONS)

    #: (tab id, title, section counter key) in display order.
    #: Short titles, so that the six tabs fit 120 columns (the section says the rest).
    TABS: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("shared", "Shared by owner", "shared"),
        ("readers", "Wide readers", "readers_beyond_owner"),
        ("malformed", "Malformed", "malformed"),
        ("legacy", "Legacy", "legacy"),
        ("links", "Cross-scope links", "cross_scope_links"),
        ("agents", "Unconfigured", "unconfigured_agents"),
    )
    #: Shorter titles, where even those would not fit (80 columns).
    NARROW_TITLES: ClassVar[dict[str, str]] = {
        "shared": "Shared",
        "readers": "Readers",
        "links": "Links",
        "agents": "Agents",
    }

    def __init__(self, build: Callable[[], AuditReport]) -> None:
        super().__init__()
        self.build = build
        #: The report shown (None while it is being built).
        self.report: AuditReport | None = None
        #: Per tab, the note each row names (None: a row about no one note).
        self.targets: dict[str, list[JumpTarget | None]] = {}

    def compose(self) -> ComposeResult:
        yield Static("Building the audit report…", id="audit-summary", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        """Build the report off the UI thread; it is shown when it comes."""
        self._build_report()

    @dataclass
    class Built(Message):
        """The report is built."""

        report: AuditReport

    @work(thread=True, exclusive=True, exit_on_error=False, group="audit")
    def _build_report(self) -> None:
        self.post_message(self.Built(self.build()))

    async def on_audit_screen_built(self, message: Built) -> None:
        """Show the built report, the first tab's table focused (Down moves in it)."""
        report = self.report = message.report
        self.query_one("#audit-summary", Static).update(self._summary(report))
        titles = self._titles(report)
        panes = [
            TabPane(
                title,
                DataTable(id=f"audit-{tab}-table", cursor_type="row", zebra_stripes=True),
                id=f"audit-{tab}",
            )
            for (tab, *_), title in zip(self.TABS, titles, strict=True)
        ]
        tabs = TabbedContent(id="audit-tabs")
        await self.mount(tabs, before=self.query_one(Footer))
        for pane in panes:
            await tabs.add_pane(pane)
        self._fill_tables(report)
        self.query_one(f"#audit-{self.TABS[0][0]}-table", DataTable).focus()

    def _titles(self, report: AuditReport) -> list[str]:
        """The tabs' titles with their counts: the short ones when the strip would be
        wider than the screen (each tab is padded by a cell either side)."""
        counts = report.counts()
        titles = [f"{title} ({counts[key]})" for _, title, key in self.TABS]
        if sum(len(title) + 2 for title in titles) <= self.app.size.width:
            return titles
        narrow = self.NARROW_TITLES
        return [f"{narrow.get(tab, title)} ({counts[key]})" for tab, title, key in self.TABS]

    def on_resize(self) -> None:
        """Title the tabs for the new width."""
        if self.report is None or not self.query("#audit-tabs"):
            return
        tabs = self.query_one("#audit-tabs", TabbedContent)
        for (tab, *_), title in zip(self.TABS, self._titles(self.report), strict=True):
            tabs.get_tab(f"audit-{tab}").label = title

    def action_focus_rows(self) -> None:
        """Down on the tab strip: into the rows of the tab shown."""
        if self.report is not None:
            self._active_table().focus()

    def _summary(self, report: AuditReport) -> Text:
        config = report.config_file or "none found (defaults)"
        lines = [f"Audit of {report.store}   configuration: {config}"]
        for col in report.collections:
            search = "vector search" if col.searchable else "keyword search only"
            lines.append(f"{col.name}: {plural(col.points, 'point')}, {col.format}, {search}")
        return Text("\n".join(" ".join(_CONTROL.sub(" ", line).split()) for line in lines))

    def _fill_tables(self, report: AuditReport) -> None:
        self._fill(
            "shared",
            ("owner", "id", "collection", "state", "content"),
            (
                (
                    owner,
                    ref.id,
                    ref.collection,
                    "active" if ref.active else "soft-deleted",
                    ref.content,
                )
                for owner in sorted(report.shared_by_owner)
                for ref in report.shared_by_owner[owner]
            ),
            [
                JumpTarget(ref.id, _named(ref.owner, ref.agent_id), ref.collection)
                for owner in sorted(report.shared_by_owner)
                for ref in report.shared_by_owner[owner]
            ],
        )
        self._fill(
            "readers",
            ("id", "owner", "readers", "agent_id", "content"),
            (
                (ref.id, ref.owner or "", ref.readers, ref.agent_id or "", ref.content)
                for ref in report.readers_beyond_owner
            ),
            [
                JumpTarget(ref.id, _named(ref.owner, ref.agent_id, *ref.readers), ref.collection)
                for ref in report.readers_beyond_owner
            ],
        )
        self._fill(
            "malformed",
            ("id", "collection", "problems", "keys"),
            (
                (bad.id, bad.collection, "; ".join(bad.problems), bad.keys)
                for bad in report.malformed
            ),
            [JumpTarget(bad.id, (), bad.collection) for bad in report.malformed],
        )
        self._fill(
            "legacy",
            ("id", "collection", "missing", "owner", "readers", "writers"),
            (
                (old.id, old.collection, old.missing, old.owner or "", old.readers, old.writers)
                for old in report.legacy
            ),
            [
                JumpTarget(old.id, _named(old.owner, old.agent_id), old.collection)
                for old in report.legacy
            ],
        )
        self._fill(
            "links",
            ("source", "target", "kind", "source readers", "target readers", "hidden from"),
            (
                (
                    link.source,
                    link.target,
                    link.kind,
                    link.source_readers,
                    link.target_readers,
                    link.exposed_to,
                )
                for link in report.cross_scope_links
            ),
            [
                JumpTarget(link.source, _named(*link.source_readers), link.collection)
                for link in report.cross_scope_links
            ],
        )
        self._fill(
            "agents",
            ("agent", "notes", "collections", "valid id"),
            (
                (
                    agent.agent,
                    str(agent.notes),
                    agent.collections,
                    "yes" if agent.valid_id else "no",
                )
                for agent in report.unconfigured_agents
            ),
        )

    def _fill(
        self,
        tab: str,
        columns: tuple[str, ...],
        rows: Iterable[tuple[object, ...]],
        targets: list[JumpTarget] | None = None,
    ) -> None:
        """Fill a tab's table so that it fits the screen: the widest columns are cut (with
        an ellipsis) until the rows fit, beside the scrollbar. ``targets``: the note of
        each row, for Enter."""
        self.targets[tab] = list(targets) if targets is not None else []
        table = self.query_one(f"#audit-{tab}-table", DataTable)
        cells = [[_cell(value) for value in row] for row in rows]
        natural = [
            max([len(title), *(cell_len(row[i].plain) for row in cells)])
            for i, title in enumerate(columns)
        ]
        room = self.app.size.width - SCROLLBAR - 2 * table.cell_padding * len(columns)
        widths = fit_widths(natural, room, [len(title) for title in columns])
        for title, width in zip(columns, widths, strict=True):
            table.add_column(title, width=width)
        for row in cells:
            table.add_row(
                *(
                    _cell(cell.plain, width) if cell_len(cell.plain) > width else cell
                    for cell, width in zip(row, widths, strict=True)
                )
            )

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a row: close, and show its note (as an agent whose panes list it)."""
        event.stop()
        self._open(event.data_table)

    def action_open_note(self) -> None:
        """Show the note of the row under the cursor of the tab shown."""
        if self.report is None:
            return
        self._open(self._active_table())

    def _active_table(self) -> DataTable[Text]:
        tabs = self.query_one("#audit-tabs", TabbedContent)
        return self.query_one(f"#{tabs.active}-table", DataTable)

    def _open(self, table: DataTable[Text]) -> None:
        tab = (table.id or "").removeprefix("audit-").removesuffix("-table")
        rows = self.targets.get(tab, [])
        row = table.cursor_row
        target = rows[row] if 0 <= row < len(rows) and table.row_count else None
        if target is None:
            self.app.notify("This row names no single note.", markup=False)
            return
        self.dismiss(target)

    def action_close(self) -> None:
        """Leave the audit."""
        self.dismiss(None)


def _named(*agents: str | None) -> tuple[str, ...]:
    """The agents a row names, once each (no "*" and no "shared")."""
    out: list[str] = []
    for agent in agents:
        if agent and agent not in ("*", "shared") and agent not in out:
            out.append(agent)
    return tuple(out)
