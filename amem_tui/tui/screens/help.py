"""F1 or ?: what the app shows, the scope rules in plain words, and every key binding."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from amem_tui.paths import config_dir
from amem_tui.tui.dialogs.base import Dialog

#: (term, what it means), shown as a table so it wraps to any width.
INTRO: tuple[tuple[str, str], ...] = (
    ("", "amem-tui shows what each agent remembers, exactly as that agent may see it."),
    ("Close", "Escape, q, F1 or ? closes this page (F1 or ? opens it again)."),
    (
        "Header",
        "the user (mem0), the agent, its mode, its collection, and the counts: "
        "private + shared = visible.",
    ),
    (
        "Private",
        "the current agent's own notes (Mode B: its whole collection; mem0: the "
        "memories of its user_id).",
    ),
    (
        "Shared",
        "notes published to the shared scope, with their owner. g lists instead the "
        "notes this agent reads only by id (their readers name it): openclaw-amem's "
        "getNote returns them, its searches and counts never do. Mode B agents and "
        "mem0 stores have no shared scope.",
    ),
    ("History", "consolidation runs of the current agent and what each merged."),
    (
        "Detail",
        "every field of the selected note, who may modify it (and why not), its "
        "evolution history, conflicts and links. Links and conflicts to notes the agent "
        "may not read are only counted, never named. Enter on a row puts the focus here, "
        "to read it whole; Escape goes back to the row.",
    ),
    (
        "Search",
        "type in the box: the matches the agent's own search returns (memory_search's "
        "5 unless limit:N asks for more; subject:NAME and topics:A,B filter), in its "
        "order, in the pane they belong to. 'cosine' is the similarity to the query; "
        "'match' says how many of the query's words the note holds ('2/3'), 'meaning' "
        "for a match by meaning alone, 'link' for a note reached through a link, and "
        "'weak' (dimmed) for a hit with no query word and a cosine under 0.30. The "
        "detail view explains the selected hit.",
    ),
    (
        "Rules",
        "only the owner or a listed writer may change a note; only the owner may "
        "publish or unpublish it, or choose its readers; mem0 memories are only read. "
        "Refusals name the rule.",
    ),
    (
        "Changes",
        "publish, unpublish, delete, restore, consolidation and undo ask first; "
        "add and edit open a form that saves only on Ctrl+S (or Save, or Enter outside "
        "the text). Its Readers list: space chooses an agent, and the form says what "
        "openclaw-amem will give it, or why it would be refused, before saving.",
    ),
    (
        "Nightly",
        "on a writable store the open inspector runs the nightly pass for every agent "
        "at the configured time (once a day, whoever runs it first); the foot of the "
        "history pane says when the next one runs and by what.",
    ),
    ("Narrow", "under 100 columns the panes are tabs: Tab and Shift+Tab move between them."),
)


class HelpScreen(Dialog[None]):
    """A scrollable help page; Escape, q, F1 or ? closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 100; max-width: 100%; height: 90%; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q,question_mark", "close", "Close", id="help.close"),
    ]

    def __init__(self, bindings: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self.bindings = bindings

    def compose(self) -> ComposeResult:
        intro = Table.grid(padding=(0, 2), expand=True)
        intro.add_column(style="bold", no_wrap=True)
        intro.add_column(ratio=1)
        for term, meaning in INTRO:
            intro.add_row(Text(term), Text(meaning))
        table = Table(title="Keys", expand=True, show_edge=False)
        table.add_column("key", style="bold", no_wrap=True)
        table.add_column("does")
        table.add_column("binding id (for keymap.toml)", style="dim")
        for key, description, binding_id in self.bindings:
            table.add_row(Text(key), Text(description), Text(binding_id))
        keymap = config_dir() / "keymap.toml"
        with VerticalScroll():
            yield Static(intro)
            yield Static(table)
            yield Static(
                Text(
                    f'\nRebind keys in {keymap}, e.g.  publish = "P"\n'
                    f"Themes: put Textual theme files (.toml) in {config_dir() / 'themes'}; "
                    "pick one from the command palette (Ctrl+P)."
                )
            )

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
