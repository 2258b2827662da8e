"""The confirm before a decision on a flagged pair: what will change (its dry run), and
an optional reason recorded with it."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from amem_tui.tui.dialogs.base import Dialog, DialogBody


class SettleDialog(Dialog[str | None]):
    """Show what a decision changes; Enter (or the button) makes it with the reason
    typed, Escape cancels. Answers the reason ("" for none), or None when cancelled."""

    DEFAULT_CSS = """
    SettleDialog { align: center middle; }
    SettleDialog > Vertical {
        width: 80; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    SettleDialog .title { text-style: bold; margin-bottom: 1; }
    SettleDialog DialogBody { height: auto; max-height: 1fr; }
    SettleDialog Input { margin-top: 1; }
    SettleDialog Horizontal { height: auto; margin-top: 1; align-horizontal: right; }
    SettleDialog Button { margin-left: 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="settle.cancel"),
    ]

    def __init__(self, title: str, body: Text, confirm_label: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.confirm_label = confirm_label

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text), classes="title")
            with DialogBody():
                yield Static(self.body)
            yield Input(placeholder="reason (optional, recorded with the decision)", id="reason")
            with Horizontal():
                yield Button("Cancel", id="no", compact=self.compact)
                yield Button(self.confirm_label, id="yes", variant="primary", compact=self.compact)

    def on_mount(self) -> None:
        """The reason first: typing it, then Enter, decides."""
        self.query_one("#reason", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the reason: decide."""
        event.stop()
        self.dismiss(event.value.strip())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Decide, or cancel."""
        yes = event.button.id == "yes"
        self.dismiss(self.query_one("#reason", Input).value.strip() if yes else None)

    def action_cancel(self) -> None:
        """Cancel: nothing is written."""
        self.dismiss(None)
