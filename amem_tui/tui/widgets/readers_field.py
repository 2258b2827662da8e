"""The readers field of the add and edit forms: the known agents, each chosen with
space, and under them what the choice means to openclaw-amem, or why it would be
refused, said as the readers are chosen (the engine's words; see
``amem_tui.tui.readers_choice``).

The field loads the agents in a worker of its own; until they come it says so. For a
note the agent may not choose readers for (another agent's note, a shared note, a
Mode B agent, a mem0 memory) the list is shown read-only, with the reason.

What the choice means is a line of its own, ``ReadersSaid``, which the form keeps
in view below its fields (they scroll; the line never does): the field tells it with
``ReadersField.Advised``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from rich.segment import Segment
from rich.text import Text
from textual import getters, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.strip import Strip
from textual.widgets import SelectionList, Static

from amem_tui.tui.readers_choice import EVERY_AGENT, ReadersAdvice, ReadersChoice
from amem_tui.tui.workers import ReportsWorkerFailures

LOADING = "Readers: finding the agents…"
TITLE = "Readers: agents that may read it by id"
TITLE_KEYS = " (space chooses, Enter saves)"


def label_of(agent: str) -> str:
    """How an agent is offered: its name, or what ``*`` would mean."""
    return "* (every agent)" if agent == EVERY_AGENT else agent


#: The mark in the box of an agent chosen; one not chosen has an empty box.
CHOSEN_MARK = "X"
NOT_CHOSEN_MARK = " "


class ReadersList(SelectionList[str]):
    """The agents, each chosen or not with space; Enter saves the form.

    Textual draws a box with an ``X`` in it for every option and tells the chosen ones
    by colour alone; here a box not chosen is empty, so the choice reads in any colour
    scheme, NO_COLOR included."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "Save", show=False),
    ]

    @dataclass
    class Submitted(Message):
        """Enter was pressed in the list: the form is saved."""

    def on_focus(self) -> None:
        """Tabbed into: the cursor is on the first agent, so space chooses at once."""
        if self.highlighted is None and self.option_count:
            self.highlighted = 0

    def action_submit(self) -> None:
        """Ask the form to save (space chooses; Enter is the form's, as in its inputs)."""
        self.post_message(self.Submitted())

    def render_line(self, y: int) -> Strip:
        """The option's line as Textual draws it, its box emptied if not chosen."""
        line = super().render_line(y)
        index = self.scroll_offset.y + y
        if index >= self.option_count:
            return line
        if self.get_option_at_index(index).value in self.selected:
            return line
        segments = list(line)
        # The box is three cells, the mark in the middle one (see SelectionList).
        if len(segments) > 1 and segments[1].text == CHOSEN_MARK:
            mark = segments[1]
            segments[1] = Segment(NOT_CHOSEN_MARK, mark.style, mark.control)
            return Strip(segments, line.cell_length)
        return line


class ReadersField(ReportsWorkerFailures, Vertical):
    """Choose the readers of a note; says what each choice means before it is saved."""

    DEFAULT_CSS = """
    ReadersField { height: auto; margin-top: 1; }
    ReadersField > .readers-title { color: $text-muted; }
    ReadersField > ReadersList { height: auto; max-height: 7; }
    """

    readers_list = getters.query_one(ReadersList)

    @dataclass
    class Loaded(Message):
        """The agents to offer are known."""

        choice: ReadersChoice

    @dataclass
    class Advised(Message):
        """What the readers chosen now mean (``refused``: why saving them is refused)."""

        text: str
        refused: bool

    def __init__(self, load: Callable[[], ReadersChoice], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._load = load
        #: What the field offers, once loaded (None until then).
        self.choice: ReadersChoice | None = None
        #: The note is to be written shared (the add form's choice): it takes no readers.
        self._shared = False
        #: What the readers chosen now mean, or why they would be refused.
        self.advice = ReadersAdvice(None, None)

    def compose(self) -> ComposeResult:
        yield Static(TITLE + TITLE_KEYS, classes="readers-title", markup=False)
        yield ReadersList(id="readers", compact=True)

    def on_mount(self) -> None:
        self.readers_list.display = False
        self.load()

    @work(thread=True, exclusive=True, exit_on_error=False, group="readers")
    def load(self) -> None:
        """Read the known agents and the rules for this note (the store is asked)."""
        self.post_message(self.Loaded(self._load()))

    def on_readers_field_loaded(self, message: ReadersField.Loaded) -> None:
        message.stop()
        choice = self.choice = message.choice
        listing = self.readers_list
        listing.clear_options()
        # Read-only, the list shows the note's readers alone (what the note has now).
        offered = choice.candidates if choice.locked is None else choice.chosen
        listing.add_options((label_of(agent), agent, agent in choice.chosen) for agent in offered)
        listing.disabled = choice.locked is not None
        listing.display = bool(offered)
        if choice.locked is not None:
            self.query_one(".readers-title", Static).update(TITLE)
        self._advise()

    # ----------------------------------------------------------------- state
    @property
    def loaded(self) -> bool:
        """True once the agents are shown."""
        return self.choice is not None

    @property
    def chosen(self) -> list[str]:
        """The agents chosen now, in the order offered."""
        if self.choice is None:
            return []
        picked = set(self.readers_list.selected)
        return [agent for agent in self.choice.candidates if agent in picked]

    @property
    def changed(self) -> bool:
        """True when the readers chosen differ from the note's (a new note's: none)."""
        if self.choice is None or self.choice.locked is not None:
            return False
        return set(self.chosen) != set(self.choice.chosen)

    @property
    def shared(self) -> bool:
        """The note is to be written shared (set by the form's scope choice)."""
        return self._shared

    @shared.setter
    def shared(self, shared: bool) -> None:
        self._shared = shared
        self._advise()

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged[str]) -> None:
        event.stop()
        self._advise()

    def _advise(self) -> None:
        """Say what the choice means (or why it would be refused, or why it is fixed)."""
        choice = self.choice
        if choice is None:
            return
        if choice.locked is not None:
            self.advice = ReadersAdvice(None, choice.locked)
            now = ", ".join(choice.chosen) if choice.chosen else f"none but {choice.owner}"
            self._say(f"Read-only (readers: {now}): {choice.locked}", refused=False)
            return
        self.advice = choice.advise(self.chosen, self._shared)
        if self.advice.refusal is not None:
            self._say(f"Refused: {self.advice.refusal}", refused=True)
        elif self.advice.sentence is not None:
            self._say(self.advice.sentence, refused=False)
        else:
            self._say(f"No other reader: only {choice.owner}, its owner, reads it.", refused=False)

    def _say(self, text: str, *, refused: bool) -> None:
        self.post_message(self.Advised(text, refused))

    def point_at_refusal(self) -> None:
        """A save was refused: show the list and what refuses it."""
        self._say(f"Not saved: {self.advice.refusal}", refused=True)
        self.readers_list.focus()


class ReadersSaid(Static):
    """What the readers chosen mean, or why they would be refused (in the error colour)."""

    DEFAULT_CSS = """
    ReadersSaid { height: auto; color: $text-muted; }
    ReadersSaid.-refused { color: $text-error; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(LOADING, id=id, markup=False)

    def show(self, message: ReadersField.Advised) -> None:
        """Say what the field said."""
        self.update(Text(message.text))
        self.set_class(message.refused, "-refused")
