"""The consolidation preview: what a run would merge, before anything changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from amem_tui.tui.dialogs.base import Dialog, DialogBody
from amem_tui.tui.dialogs.what_if import WhatIfNote
from amem_tui.tui.render import merge_text
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine import ConsolidationRun


class ConsolidationPreview(Dialog[bool]):
    """The merges of a dry run; Apply runs them for real, Escape cancels."""

    DEFAULT_CSS = """
    ConsolidationPreview { align: center middle; }
    ConsolidationPreview > Vertical {
        width: 100; max-width: 100%; height: 90%; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    ConsolidationPreview .title { text-style: bold; margin-bottom: 1; }
    ConsolidationPreview DialogBody { height: 1fr; }
    ConsolidationPreview WhatIfNote { margin-top: 1; }
    ConsolidationPreview Horizontal { height: auto; margin-top: 1; align-horizontal: right; }
    ConsolidationPreview Button { margin-left: 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="preview.cancel"),
        Binding("a", "apply", "Apply", id="preview.apply"),
    ]

    def __init__(
        self,
        run: ConsolidationRun,
        read_only: bool = False,
        what_if: Callable[[], Text] | None = None,
    ) -> None:
        super().__init__()
        self.run = run
        self.read_only = read_only
        #: Works out what applying the merges would do to the checks and recent queries.
        self.what_if = what_if

    def compose(self) -> ComposeResult:
        run = self.run
        merges = list(run.merges)
        with Vertical():
            yield Static(
                Text(
                    f"Consolidation preview for {run.agent} ({run.collection}): "
                    f"{plural(len(merges), 'merge')} at threshold {run.threshold:.2f}. "
                    "Nothing has changed yet."
                ),
                classes="title",
            )
            with DialogBody():
                body = Text()
                if not merges:
                    body.append(
                        "Nothing to merge: no near-duplicates among the private, active "
                        "memory notes of this agent.",
                        style="italic",
                    )
                for merge in merges:
                    body.append_text(merge_text(merge))
                    body.append("\n")
                body.append(
                    "Dropped notes are soft-deleted (is_active=false), never hard-deleted; "
                    "every run can be undone from the history pane.",
                    style="dim",
                )
                yield Static(body)
                if merges and self.what_if is not None:
                    yield WhatIfNote(self.what_if, id="consolidation-what-if")
            with Horizontal():
                yield Button("Cancel", id="cancel", compact=self.compact)
                yield Button(
                    "Apply",
                    id="apply",
                    variant="warning",
                    disabled=not merges or self.read_only,
                    compact=self.compact,
                )

    def on_mount(self) -> None:
        """Focus Apply, so Enter applies, as Enter confirms in the other dialogs (Escape
        cancels); Cancel when there is nothing to apply."""
        apply = self.query_one("#apply", Button)
        (self.query_one("#cancel", Button) if apply.disabled else apply).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Apply or cancel."""
        self.dismiss(event.button.id == "apply")

    def action_apply(self) -> None:
        """Apply from a key, if there is anything to apply."""
        if self.run.merges and not self.read_only:
            self.dismiss(True)

    def action_cancel(self) -> None:
        """Close without changing anything."""
        self.dismiss(False)
