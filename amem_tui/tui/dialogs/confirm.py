"""A yes/no question before anything changes data."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from amem_tui.tui.dialogs.base import Dialog, DialogBody
from amem_tui.tui.dialogs.what_if import WhatIfNote


class ConfirmDialog(Dialog[bool]):
    """Ask before a change; Enter or y confirms, Escape or n cancels."""

    DEFAULT_CSS = """
    ConfirmDialog { align: center middle; }
    ConfirmDialog > Vertical {
        width: 72; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    ConfirmDialog .title { text-style: bold; margin-bottom: 1; }
    ConfirmDialog DialogBody { height: auto; max-height: 1fr; }
    ConfirmDialog Horizontal { height: auto; margin-top: 1; align-horizontal: right; }
    ConfirmDialog Button { margin-left: 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(
        self,
        title: str,
        body: Text | str,
        confirm_label: str = "Yes",
        preview: Callable[[], Text] | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.body = body if isinstance(body, Text) else Text(body)
        self.confirm_label = confirm_label
        #: Works out what the change would do (slow: run in a worker, shown when ready).
        self.preview = preview

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text), classes="title")
            with DialogBody():
                yield Static(self.body)
                if self.preview is not None:
                    yield WhatIfNote(self.preview, id="confirm-preview")
            with Horizontal():
                yield Button("Cancel", id="no", compact=self.compact)
                yield Button(self.confirm_label, id="yes", variant="primary", compact=self.compact)

    def on_mount(self) -> None:
        """Focus the confirm button so Enter confirms."""
        self.query_one("#yes", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Answer with the button pressed."""
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        """Answer from a key."""
        self.dismiss(value)


def confirm_then(
    app: App[object],
    title: str,
    body: Text | str,
    label: str,
    then: Callable[[], object],
    preview: Callable[[], Text] | None = None,
) -> None:
    """Ask ``title`` with ``body`` (plain text, or styled); run ``then`` only if the user
    confirms. ``preview`` (run in a worker) says what the change would do, once known."""

    def answer(yes: bool | None) -> None:
        if yes:
            then()

    app.push_screen(ConfirmDialog(title, body, label, preview), answer)
