"""Write or edit a note: its text, its tags, (for a new note) private or shared, and its
readers (see ``amem_tui.tui.widgets.readers_field``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, RadioButton, RadioSet, Static, TextArea

from amem_tui.tui.dialogs.base import Dialog
from amem_tui.tui.text import clean
from amem_tui.tui.widgets.readers_field import ReadersField, ReadersList, ReadersSaid

if TYPE_CHECKING:
    from amem_tui.tui.readers_choice import ReadersChoice

#: The editor saves only when asked: this form is the confirmation of an add or an edit.
#: Enter saves too, from the tags or the readers (in the text it starts a new line).
SAVE_HINT = "Nothing is saved until you press Ctrl+S (or Save) · Escape discards"


@dataclass
class NoteDraft:
    """What the user asked for."""

    content: str
    tags: list[str]
    shared: bool
    #: The readers chosen, when they changed (None: as they were; ``[]``: none).
    readers: list[str] | None = None


class ScopeButton(RadioButton):
    """A scope to choose: its dot drawn only when chosen. Textual draws the dot in
    both states and tells them by colour alone, which NO_COLOR and monochrome
    terminals lose."""

    def __init__(self, label: str, value: bool = False, **options: Any) -> None:
        super().__init__(label, value, **options)
        self._show_dot()

    def watch_value(self) -> None:
        """Draw the dot when chosen, an empty button when not."""
        self._show_dot()
        super().watch_value()

    def _show_dot(self) -> None:
        self.BUTTON_INNER = RadioButton.BUTTON_INNER if self.value else " "


class Fields(VerticalScroll):
    """The form's fields, scrolled; the field in use stays in view when they get fewer
    rows (the line that says what the readers mean grew)."""

    def on_resize(self) -> None:
        focused = self.screen.focused
        if focused is not None and self in focused.ancestors:
            focused.scroll_visible(animate=False)


class NoteEditor(Dialog[NoteDraft | None]):
    """A modal form; Ctrl+S saves, Escape cancels. The fields scroll; the hint and the
    buttons stay in view at every terminal size."""

    DEFAULT_CSS = """
    NoteEditor { align: center middle; }
    NoteEditor > Vertical {
        width: 90; max-width: 100%; height: 32; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    NoteEditor .title { text-style: bold; margin-bottom: 1; }
    NoteEditor #fields { height: 1fr; }
    NoteEditor TextArea { height: 8; }
    NoteEditor RadioSet { width: 100%; }
    NoteEditor .hint { color: $text-muted; }
    NoteEditor Horizontal { height: auto; margin-top: 1; align-horizontal: right; }
    NoteEditor Button { margin-left: 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", id="editor.save", priority=True),
        Binding("escape", "cancel", "Cancel", id="editor.cancel"),
    ]

    def __init__(
        self,
        title: str,
        agent: str,
        content: str = "",
        tags: list[str] | None = None,
        allow_scope: bool = True,
        shared_reason: str | None = None,
        readers: Callable[[], ReadersChoice] | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.agent = agent
        self.initial = content
        self.tags = tags or []
        self.allow_scope = allow_scope
        self.shared_reason = shared_reason
        #: Reads what the readers field offers (in the field's worker); None: no field.
        self.readers_loader = readers

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield Static(Text(self.title_text), classes="title")
            with Fields(id="fields"):
                yield TextArea(self.initial, id="content", soft_wrap=True, show_line_numbers=False)
                yield Input(
                    ", ".join(clean(t) for t in self.tags),
                    placeholder="tags, comma-separated",
                    id="tags",
                )
                if self.allow_scope:
                    with RadioSet(id="scope"):
                        yield ScopeButton(f"private to {self.agent}", value=True, id="private")
                        yield ScopeButton(
                            "shared (every Mode A agent can read it)",
                            id="shared",
                            disabled=self.shared_reason is not None,
                        )
                    if self.shared_reason:
                        yield Static(Text(self.shared_reason), classes="hint")
                if self.readers_loader is not None:
                    yield ReadersField(self.readers_loader, id="readers-field")
            if self.readers_loader is not None:
                yield ReadersSaid(id="readers-said")
            yield Static(Text(SAVE_HINT), classes="hint")
            with Horizontal():
                yield Button("Cancel", id="cancel", compact=self.compact)
                yield Button("Save", id="save", variant="primary", compact=self.compact)

    def on_mount(self) -> None:
        """Start typing in the text area."""
        area = self.query_one("#content", TextArea)
        if self.app.is_headless:  # snapshots: a blinking cursor is never the same twice
            area.cursor_blink = False
            self.query_one("#tags", Input).cursor_blink = False
        area.focus()

    @property
    def readers_field(self) -> ReadersField | None:
        """The readers field, if the form has one."""
        found = self.query(ReadersField)
        return found.first() if found else None

    def action_save(self) -> None:
        """Return the draft; readers that would be refused keep the form open, saying why."""
        content = self.query_one("#content", TextArea).text
        tags = [t.strip() for t in self.query_one("#tags", Input).value.split(",") if t.strip()]
        shared = False
        if self.allow_scope:
            shared = self.query_one("#shared", RadioButton).value
        readers: list[str] | None = None
        field = self.readers_field
        if field is not None and field.changed:
            if field.advice.refusal is not None:
                field.point_at_refusal()
                return
            readers = field.chosen
        self.dismiss(NoteDraft(content=content, tags=tags, shared=shared, readers=readers))

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        """Private or shared: a shared note takes no readers (the field says so)."""
        field = self.readers_field
        if field is not None and self.allow_scope:
            field.shared = event.pressed.id == "shared"

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the tags saves the form."""
        event.stop()
        self.action_save()

    def on_readers_field_advised(self, message: ReadersField.Advised) -> None:
        """Say, below the fields, what the readers chosen mean."""
        message.stop()
        self.query_one(ReadersSaid).show(message)
        self.call_after_refresh(self._fit_without_list)

    def _fit_without_list(self) -> None:
        """With no readers list to show (a Mode B agent's note: read-only and none), the
        form is made shorter by the rows kept for the list, so no blank stays under the
        readers' title."""
        field = self.readers_field
        if field is None or field.readers_list.display:
            return
        # The readers field is the last of the fields: below it, the rows kept for nothing.
        spare = self.query_one("#fields", Fields).region.bottom - field.region.bottom
        if spare > 0:
            form = self.query_one("#form", Vertical)
            form.styles.height = form.region.height - spare

    def on_readers_list_submitted(self, message: ReadersList.Submitted) -> None:
        """Enter in the readers list saves the form."""
        message.stop()
        self.action_save()

    def action_cancel(self) -> None:
        """Close without saving."""
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Save or cancel."""
        if event.button.id == "save":
            self.action_save()
        else:
            self.action_cancel()
