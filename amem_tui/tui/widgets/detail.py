"""The detail view: every field of a note, its history, conflicts and links, and in its
Versions tab (V) every version of the note.

The view loads the note it is asked to show itself (with the read rule applied),
and also shows a consolidation run or the hidden matches of a search; what it says of
each is ``detail_text``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from rich.text import Text
from textual import getters, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import ContentSwitcher, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from amem_tui.engine import AmemError, NotFound
from amem_tui.tui.messages import NoteData, NoteLoaded
from amem_tui.tui.text import one_line
from amem_tui.tui.widgets.detail_text import hidden_text, merge_keeper, note_text, run_text
from amem_tui.tui.widgets.note_versions import NoteVersions
from amem_tui.tui.workers import ReportsWorkerFailures

if TYPE_CHECKING:
    from textual.widget import Widget

    from amem_tui.engine import (
        AgentScope,
        ConsolidationRun,
        MemoryEngine,
        MemoryNote,
        NoteHistory,
        SearchHit,
        SearchResult,
    )
    from amem_tui.engine.for_apps import NoteVersion

#: The detail view's tabs: the note's fields, or its versions.
DetailTab = Literal["note", "versions"]

#: Conflicting notes looked up for the detail view (the rest are only counted).
CONFLICTS_SHOWN = 20
#: Seconds between looks at whether a delayed load is still wanted.
LOAD_POLL = 0.02
NOTHING_HIGHLIGHTED = (
    "No note selected. Use Tab to move between panes, arrows to move, a to add a note, F1 for help."
)


class NoteDetail(ReportsWorkerFailures, Vertical):
    """Shows one note, one consolidation run, or the hidden matches of a search."""

    DEFAULT_CSS = """
    NoteDetail { border: round $panel-lighten-2; height: 1fr; }
    NoteDetail:focus-within { border: round $accent; }
    NoteDetail ContentSwitcher { height: 1fr; }
    NoteDetail Horizontal { height: 1fr; }
    NoteDetail #detail-body { width: 2fr; padding: 0 1; }
    NoteDetail #detail-side { width: 1fr; min-width: 30; border-left: solid $panel-lighten-2; }
    NoteDetail #timeline { height: 1fr; padding: 0 1; }
    NoteDetail #links { height: auto; max-height: 8; border: none; }
    NoteDetail #links-title { padding: 0 1; text-style: bold; }
    """

    @dataclass
    class FollowLink(Message):
        """The user chose a link to follow."""

        note_id: str

    @dataclass
    class MergeChosen(Message):
        """The user chose one merge of the shown run (to undo it)."""

        keeper: str

    #: The note's fields, its timeline, the links (or merges) beside it, and their title.
    detail_text = getters.query_one("#detail-text", Static)
    timeline_text = getters.query_one("#timeline-text", Static)
    link_list = getters.query_one("#links", OptionList)
    link_title = getters.query_one("#links-title", Static)
    body_scroll = getters.query_one("#detail-body", VerticalScroll)
    tabs = getters.query_one("#detail-tabs", ContentSwitcher)
    versions = getters.query_one("#versions-tab", NoteVersions)

    #: The tab shown: the note's fields, or its versions (only while a note is shown).
    tab: reactive[DetailTab] = reactive[DetailTab]("note", init=False)

    def __init__(self, engine: MemoryEngine, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.engine = engine
        self.border_title = "Detail"
        self.note: MemoryNote | None = None
        #: The consolidation run shown, when one is.
        self.run: ConsolidationRun | None = None
        #: The selected note: the one loaded (or being loaded) for the view.
        self.note_id: str | None = None
        #: The selected note as last loaded, once it is.
        self.note_data: NoteData | None = None
        self._loads = 0
        #: The note (and hit) a load is under way for.
        self._loading: tuple[str, SearchHit | None] | None = None
        self._reading = False  # the load under way has stopped waiting and reads the store
        #: The agent the selected note was loaded as (its versions are read as it too).
        self.scope: AgentScope | None = None
        #: The note whose versions the Versions tab shows.
        self._versions_of: str | None = None
        #: What had focus before the Versions tab took it (it gets it back).
        self._focus_before: Widget | None = None

    def compose(self) -> ComposeResult:
        with ContentSwitcher(initial="note-tab", id="detail-tabs"):
            with Horizontal(id="note-tab"):
                with VerticalScroll(id="detail-body"):
                    yield Static("", id="detail-text", markup=False)
                with Vertical(id="detail-side"):
                    with VerticalScroll(id="timeline"):
                        yield Static("", id="timeline-text", markup=False)
                    yield Static("Links", id="links-title", markup=False)
                    yield OptionList(id="links")
            yield NoteVersions(self.engine, id="versions-tab")

    # ------------------------------------------------------------------ tabs
    def toggle_versions(self, scope: AgentScope | None, note_id: str | None) -> str | None:
        """Show the versions of ``note_id`` (the subject, as ``scope`` sees it), or the
        note's fields again; what stops it, if anything."""
        if self.tab == "versions":
            self.tab = "note"
            return None
        if note_id is None or scope is None:
            return "Select a note first: its versions show here (V)."
        self.scope, self._versions_of = scope, note_id
        self.tab = "versions"
        return None

    def watch_tab(self, tab: DetailTab) -> None:
        """Show the tab and its title; the versions are read when their tab is shown."""
        self.tabs.current = f"{tab}-tab"
        if self.note is not None:
            self.border_title = self._note_title(self.note)
        if tab == "versions" and self.scope is not None and self._versions_of is not None:
            self._focus_before = self.screen.focused
            self.versions.load(self.scope, self._versions_of)
            self.versions.version_list.focus()
        elif tab == "note" and self.versions.has_focus_within:
            # A hidden tab keeps the focus (and its keys) unless it is handed back.
            back, self._focus_before = self._focus_before, None
            if back is not None and back.is_attached and back.focusable:
                back.focus()
            else:
                self.screen.focus_next()

    def focus_shown(self) -> None:
        """Put the focus in what the view shows, to read it: the text of the note (or of
        the run), or the list of versions on the Versions tab."""
        if self.tab == "versions":
            self.versions.version_list.focus()
        else:
            self.body_scroll.focus()

    @property
    def shown_versions(self) -> tuple[NoteHistory, NoteVersion] | None:
        """The versions shown in the Versions tab and the one highlighted (None while the
        note's fields show, or before the versions are read)."""
        if self.tab != "versions":
            return None
        history, chosen = self.versions.history, self.versions.chosen
        return (history, chosen) if history is not None and chosen is not None else None

    def _note_title(self, note: MemoryNote) -> Text:
        state = "  [soft-deleted]" if not note.active else ""
        if self.tab == "versions":
            title = Text(f"Versions of note {self._versions_of or note.id}{state}")
            title.append("  ·  Note (V)", style="dim")
        else:
            title = Text(f"Note {note.id}{state}")
            title.append("  ·  Versions (V)", style="dim")
        return title

    def _set(
        self,
        body: Text,
        side: Text | None = None,
        links: Sequence[Option] = (),
        list_title: str = "Links",
    ) -> None:
        self.run = None  # show_run sets it again after this
        self.detail_text.update(body)
        self.timeline_text.update(side or Text(""))
        option_list = self.link_list
        option_list.clear_options()
        option_list.add_options(list(links))
        title = self.link_title
        title.update(list_title)
        title.display = bool(links)
        option_list.display = bool(links)
        self.body_scroll.scroll_home(animate=False)

    def show_message(self, message: str, title: str = "Detail") -> None:
        """An explanation instead of a note."""
        self.note = None
        self.tab = "note"
        self.border_title = title
        self._set(Text(message, style="italic"))

    # ------------------------------------------------------------------ load
    def show_subject(
        self, scope: AgentScope, note_id: str | None, hit: SearchHit | None, after: float = 0.0
    ) -> None:
        """Show the subject: ``note_id`` as ``scope`` sees it (with ``hit``'s explanation,
        while search hits are shown), loaded if need be; None: no row is highlighted."""
        if note_id is None:
            self.forget_note()
            self.show_message(NOTHING_HIGHLIGHTED)
        elif note_id != self.note_id or self.note_data is None or hit is not None:
            self.load_note(scope, note_id, hit, after)
        elif self.note_data.hit is not None:
            # The hits are gone (Esc): the note stays, its search explanation goes.
            self.note_data = replace(self.note_data, hit=None)
            self.show_note(self.note_data, scope.agent)
        elif self.note is None or self.note.id != note_id:
            self.show_note(self.note_data, scope.agent)  # loaded, but a run was shown since

    def load_note(
        self, scope: AgentScope, note_id: str, hit: SearchHit | None, after: float = 0.0
    ) -> None:
        """Select ``note_id``: load it, its links and conflicts as ``scope`` sees them.

        With ``after``, the load waits that many seconds first and is dropped if another
        selection comes meanwhile; asking again for the note already loading changes
        nothing.
        """
        if self._loading == (note_id, hit):
            return
        self.scope = scope
        self._loads += 1
        self.note_id = note_id
        self._loading = (note_id, hit)
        self._load(scope, note_id, hit, self._loads, after)

    def drop_waiting_load(self) -> None:
        """Drop a load still waiting out its ``after`` (a load already reading goes on)."""
        if self._loading is not None and not self._reading:
            self._loads += 1
            self._loading = None

    def forget_note(self) -> None:
        """Nothing is selected any more: a load still running is dropped when it ends."""
        self.note_id = None
        self.note_data = None
        self._loading = None

    @work(thread=True, exclusive=True, exit_on_error=False, group="note")
    def _load(
        self, scope: AgentScope, note_id: str, hit: SearchHit | None, load: int, after: float
    ) -> None:
        worker = get_current_worker()
        deadline = time.monotonic() + after
        while time.monotonic() < deadline:
            if load != self._loads or worker.is_cancelled:
                return
            time.sleep(LOAD_POLL)
        self._reading = True
        try:
            data = self._read(scope, note_id, hit)
        except BaseException:
            self._loading = None  # a failed load is not in flight: asking again retries
            raise
        finally:
            self._reading = False
        if not worker.is_cancelled:
            self.post_message(NoteLoaded(load, data))

    def _read(self, scope: AgentScope, note_id: str, hit: SearchHit | None) -> NoteData:
        engine = self.engine
        try:
            stored = engine.agent(scope).get(note_id)
        except NotFound as exc:
            return NoteData.missing(note_id, str(exc))
        # Ids of notes the agent may not read never reach the screen: they are counted.
        note = engine.agent(scope).redact([stored])[0]
        links = engine.agent(scope).linked(note)
        conflicts: list[tuple[str, MemoryNote | None]] = []
        for other in note.conflicts_with[:CONFLICTS_SHOWN]:
            try:
                conflicts.append((other, engine.agent(scope).get(other)))
            except AmemError:
                conflicts.append((other, None))
        denial = engine.agent(scope).write_refusal(stored, "update")
        return NoteData(
            note=note,
            links=links,
            conflicts=conflicts,
            hit=hit,
            writable=denial is None,
            write_refusal=str(denial) if denial is not None else None,
        )

    def on_note_loaded(self, message: NoteLoaded) -> None:
        """Keep the selected note as loaded; the screen decides whether to show it now."""
        if message.generation != self._loads or message.data.note.id != self.note_id:
            message.stop()
            return
        self._loading = None
        self.note_data = message.data

    # ------------------------------------------------------------------ note
    def show_note(self, data: NoteData, agent: str) -> None:
        """Every field of a note, the reason it is visible, its timeline and links."""
        note = data.note
        self.note = note
        self.border_title = self._note_title(note)
        if self.tab == "versions" and self.scope is not None:
            # Read again: the subject moved on, or the note was written (a revert).
            self._versions_of = note.id
            self.versions.load(self.scope, note.id)
        self._set(*note_text(data, agent))

    # ------------------------------------------------------------------- run
    def show_run(self, run: ConsolidationRun, hint: str = "") -> None:
        """What a consolidation run merged; its merges listed on the right to undo one."""
        self.note = None
        self.tab = "note"
        self.border_title = Text(f"Consolidation run {run.id}")
        body, options = run_text(run, hint)
        self._set(body, links=options, list_title="Merges")
        self.run = run
        if options:  # a merge is chosen from the start: the first one still undoable
            first = next((i for i, m in enumerate(run.merges) if not m.undone), 0)
            self.link_list.highlighted = first

    @property
    def chosen_merge(self) -> str | None:
        """The keeper of the merge highlighted in the list (the shown run's only one, else)."""
        if self.run is None:
            return None
        option_list = self.link_list
        index = option_list.highlighted
        if index is not None and option_list.display:
            keeper = merge_keeper(option_list.get_option_at_index(index).id or "")
            if keeper is not None:
                return keeper
        merges = list(self.run.merges)
        return merges[0].keeper if len(merges) == 1 else None

    def show_hidden(self, result: SearchResult) -> None:
        """Matches the agent cannot see, and why (never their content)."""
        self.note = None
        self.tab = "note"
        self.border_title = Text(f"Hidden matches for {one_line(result.query, 40)!r}")
        self._set(hidden_text(result))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Follow a visible link, or ask to undo the chosen merge."""
        event.stop()
        option_id = event.option.id or ""
        keeper = merge_keeper(option_id)
        if keeper is not None:
            self.post_message(self.MergeChosen(keeper))
        elif option_id:
            self.post_message(self.FollowLink(option_id))
