"""The versions of the subject note, for the detail view's Versions tab.

Every change amem-tui made to the note, and those other tools made between them,
newest first on the right; the one highlighted is shown on the left, its content's
changed words marked (what went struck through, what came underlined) and every other
field's change. Enter (or R) on a recorded version asks to revert the note to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual import getters, work
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from amem_tui.engine import AmemError
from amem_tui.tui.render import ADDED_STYLE, REMOVED_STYLE, add_field, diff_text
from amem_tui.tui.text import literal, one_line
from amem_tui.tui.workers import ReportsWorkerFailures

if TYPE_CHECKING:
    from amem_tui.engine import AgentScope, MemoryEngine, MemoryNote, NoteHistory
    from amem_tui.engine.for_apps import NoteVersion


@dataclass
class VersionsLoaded(Message):
    """A note's versions, read in a worker."""

    load: int
    history: NoteHistory | None
    error: str | None = None


#: How a row names each action, where the list is narrow.
SHORT_LABELS = {
    "outside": "outside change",
    "merge": "merged",
    "undo": "merge undone",
    "readers": "readers",
    "revert": "reverted",
}


def version_title(version: NoteVersion) -> str:
    """``3  main  updated``: a version as its row reads."""
    who = version.agent or ("import" if version.action == "import" else "?")
    label = SHORT_LABELS.get(version.action, version.label)
    if version.action == "revert" and version.reverted_to is not None:
        label = f"reverted to {version.reverted_to}"
    if not version.recorded:
        label = "outside, now"
    return f"{version.number:>2} {one_line(who, 8):<8} {label}"


def version_text(version: NoteVersion, history: NoteHistory) -> Text:
    """Everything a version says: when, who, what it did, its content's changed words,
    every other field it changed, and what is known of a change made outside."""
    body = Text()
    body.append(f"Version {version.number} of {len(history.versions)}", style="bold")
    body.append(f"  {version.label}\n", style="bold yellow" if version.action == "outside" else "")
    when = f"{version.at.replace('T', ' ')[:19]} UTC" if version.at else "(time unknown)"
    if not version.recorded:
        when += " (recorded at amem-tui's next write of the note)"
    add_field(body, "when", when)
    add_field(body, "by", version.agent or "not known (outside amem-tui)")
    if version.run_id:
        add_field(body, "consolidation run", version.run_id)
    changed = version.changed_fields
    if version.before is None:
        add_field(body, "changed", Text("the note was created", style="italic"))
    else:
        add_field(
            body, "changed", changed or Text("nothing it keeps (a merge keeper)", style="dim")
        )
    body.append("\n")
    if version.before is None:
        body.append("Content\n", style="bold")
        body.append_text(literal(version.content_after))
        body.append("\n\n")
    elif "content" in version.changed:
        body.append("Content", style="bold")
        body.append("  struck: removed, underlined: added\n", style="dim")
        body.append_text(diff_text(version.content_diff()))
        body.append("\n\n")
    for change in version.field_changes():
        line = Text()
        line.append(one_line(change.before, 60), style=REMOVED_STYLE)
        line.append(" → ")
        line.append(one_line(change.after, 60), style=ADDED_STYLE)
        add_field(body, one_line(change.name, 17), line)
    if version.known:
        body.append("\nWhat the note itself says of it\n", style="bold")
        for fact in version.known:
            body.append(f"  {one_line(fact, 120)}\n", style="italic")
    body.append("\n")
    if version.recorded and version is not history.latest:
        body.append(
            f"Enter or R reverts the note to how version {version.number} left it "
            f"(as version {len(history.versions) + 1}; nothing is rewritten).",
            style="italic dim",
        )
    elif version.recorded:
        body.append("This is the note as it is now.", style="italic dim")
    return body


def revert_question(history: NoteHistory, version: NoteVersion) -> Text:
    """What reverting the note to ``version`` changes: its content's words (marked, so it
    reads without colour too), its scope, readers and writers (old → new, or that they
    stay), and the names of any other field it brings back."""
    from amem_tui.engine import MemoryNote
    from amem_tui.engine.for_apps import word_diff

    now = (history.latest.after if history.latest is not None else None) or {}
    wanted = version.after or {}
    body = Text(f"Note {history.note_id}\n")
    before, after = str(now.get("content", "")), version.content_after
    if before == after:
        add_field(body, "content", Text("stays as it is", style="italic"))
    else:
        body.append(f"Content, now → as version {version.number} left it", style="bold")
        body.append("  [-removed-] {+added+}\n", style="dim")
        body.append_text(diff_text(word_diff(before, after), marked=True))
        body.append("\n")
    old = MemoryNote.from_payload(history.note_id, now)
    new = MemoryNote.from_payload(history.note_id, wanted)
    access = [
        ("scope", _scope(old), _scope(new)),
        ("readers", _agents(old.effective_readers), _agents(new.effective_readers)),
        ("writers", _agents(old.effective_writers), _agents(new.effective_writers)),
    ]
    for name, was, will in access:
        if was != will:
            add_field(body, name, Text.assemble((was, REMOVED_STYLE), " → ", (will, ADDED_STYLE)))
        elif name != "scope":
            add_field(body, name, Text.assemble(was, ("  (stay)", "dim")))
    access_keys = {"content", "hash", "agent_id", "owner", "readers", "writers"}
    others = sorted(k for k in now.keys() | wanted.keys() if now.get(k) != wanted.get(k))
    others = [k for k in others if k not in access_keys]
    if others:
        add_field(body, "also changes", others)
    return body


def _scope(note: MemoryNote) -> str:
    owner = one_line(note.effective_owner or "?", 30)
    return "shared" if note.is_shared else f"private to {owner}"


def _agents(agents: list[str]) -> str:
    return ", ".join(one_line(agent, 30) for agent in agents) or "(none)"


class NoteVersions(ReportsWorkerFailures, Horizontal):
    """A note's versions: the list on the right, the highlighted one on the left."""

    DEFAULT_CSS = """
    NoteVersions { height: 1fr; }
    NoteVersions #version-body { width: 2fr; padding: 0 1; }
    NoteVersions #version-list { width: 1fr; min-width: 30; height: 1fr; border: none;
        border-left: solid $panel-lighten-2; }
    """

    @dataclass
    class RevertChosen(Message):
        """The user chose a version to revert the note to."""

        note_id: str
        number: int

    version_body = getters.query_one("#version-text", Static)
    version_list = getters.query_one("#version-list", OptionList)
    body_scroll = getters.query_one("#version-body", VerticalScroll)

    def __init__(self, engine: MemoryEngine, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.engine = engine
        #: The versions shown, once loaded.
        self.history: NoteHistory | None = None
        #: The note whose versions are shown (or loading).
        self.note_id: str | None = None
        self._loads = 0

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="version-body"):
            yield Static("", id="version-text", markup=False)
        yield OptionList(id="version-list")

    @property
    def chosen(self) -> NoteVersion | None:
        """The version highlighted in the list."""
        index = self.version_list.highlighted
        if self.history is None or index is None:
            return None
        option_id = self.version_list.get_option_at_index(index).id or ""
        return self.history.version(int(option_id)) if option_id.isdigit() else None

    def load(self, scope: AgentScope, note_id: str) -> None:
        """Read ``note_id``'s versions as ``scope`` may see them, then show them."""
        self._loads += 1
        if note_id != self.note_id:
            self.history = None
            self.version_list.clear_options()
            self.version_body.update(Text("Reading the versions…", style="italic"))
        self.note_id = note_id
        self._read(scope, note_id, self._loads)

    @work(thread=True, exclusive=True, exit_on_error=False, group="versions")
    def _read(self, scope: AgentScope, note_id: str, load: int) -> None:
        worker = get_current_worker()
        try:
            history: NoteHistory | None = self.engine.agent(scope).versions(note_id)
            error = None
        except AmemError as exc:
            history, error = None, str(exc)
        if not worker.is_cancelled:
            self.post_message(VersionsLoaded(load, history, error))

    def on_versions_loaded(self, message: VersionsLoaded) -> None:
        """Show the versions read, newest first, the newest highlighted."""
        message.stop()
        if message.load != self._loads:
            return
        self.history = message.history
        options = self.version_list
        chosen = self.chosen.number if self.chosen is not None else None
        options.clear_options()
        if message.history is None:
            self.version_body.update(Text(message.error or "No versions.", style="italic"))
            return
        versions = list(reversed(message.history.versions))
        options.add_options([self._option(v) for v in versions])
        numbers = [v.number for v in versions]
        options.highlighted = numbers.index(chosen) if chosen in numbers else 0
        self._show_chosen()

    @staticmethod
    def _option(version: NoteVersion) -> Option:
        prompt = Text(version_title(version), no_wrap=True, overflow="ellipsis")
        if version.action == "outside":
            prompt.stylize("yellow")
        return Option(prompt, id=str(version.number))

    def _show_chosen(self) -> None:
        version = self.chosen
        if version is None or self.history is None:
            return
        self.version_body.update(version_text(version, self.history))
        self.body_scroll.scroll_home(animate=False)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Show the version the cursor is on."""
        event.stop()
        self._show_chosen()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on a version asks to revert the note to it."""
        event.stop()
        version = self.chosen
        if version is not None and self.note_id is not None:
            self.post_message(self.RevertChosen(self.note_id, version.number))
