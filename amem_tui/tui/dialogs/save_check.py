"""Save as check: the file to append the search box's query to, and what saving adds,
as a diff, before anything is written."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from amem_tui.tui.dialogs.base import Dialog, DialogBody
from amem_tui.tui.saved_check import (
    SavedCheck,
    appended,
    diff_lines,
    read_existing,
    refusal,
    write_checks,
)


def diff_text(lines: list[str]) -> Text:
    """The diff, added lines green and removed ones red (saving only adds)."""
    out = Text(no_wrap=True, overflow="ellipsis")
    for line in lines:
        if line.startswith(("+++", "---")):
            style = "bold"
        elif line.startswith("+"):
            style = "green"
        elif line.startswith("-"):
            style = "red"
        elif line.startswith("@@"):
            style = "cyan"
        else:
            style = "dim"
        out.append(line + "\n", style=style)
    return out


class SaveCheckDialog(Dialog[Path | None]):
    """Pick the checks file; the diff follows the path typed; Save writes, Escape
    cancels. A path that cannot be written is refused here, with the reason."""

    DEFAULT_CSS = """
    SaveCheckDialog { align: center middle; }
    SaveCheckDialog > Vertical {
        width: 96; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    SaveCheckDialog .title { text-style: bold; margin-bottom: 1; }
    SaveCheckDialog DialogBody { height: auto; max-height: 1fr; }
    SaveCheckDialog #save-check-problem { color: $error; height: auto; }
    SaveCheckDialog Horizontal { height: auto; margin-top: 1; align-horizontal: right; }
    SaveCheckDialog Button { margin-left: 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="save_check.cancel"),
    ]

    def __init__(self, check: SavedCheck, path: Path) -> None:
        super().__init__()
        self.check = check
        self.start_path = path
        #: The file's text once the check is added (for the path typed), if readable.
        self.after: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                Text(f"Save as check: {self.check.agent} searches {self.check.typed!r}"),
                classes="title",
            )
            yield Input(str(self.start_path), id="save-check-path", select_on_focus=False)
            yield Static("", id="save-check-problem", markup=False)
            with DialogBody():
                yield Static("", id="save-check-diff", markup=False)
            with Horizontal():
                yield Button("Cancel", id="cancel", compact=self.compact)
                yield Button("Save", id="save", variant="primary", compact=self.compact)

    def on_mount(self) -> None:
        """Show what saving to the default file adds; the path is ready to edit."""
        super().on_mount()
        self.show_diff()
        self.query_one("#save-check-path", Input).focus()

    @property
    def path(self) -> Path:
        """The file typed (``~`` is the home folder)."""
        typed = self.query_one("#save-check-path", Input).value.strip()
        return Path(typed).expanduser()

    @on(Input.Changed, "#save-check-path")
    def show_diff(self) -> None:
        """The diff of the file named now: what the check adds to it."""
        path = self.path
        problem = self.query_one("#save-check-problem", Static)
        shown = self.query_one("#save-check-diff", Static)
        self.after = None
        if not path.name:
            problem.update("Name the file to save the check to.")
            shown.update("")
            return
        try:
            before = read_existing(path)
        except (OSError, UnicodeDecodeError) as exc:
            problem.update(f"{path} cannot be read: {exc}")
            shown.update("")
            return
        self.after = appended(before, self.check.table())
        problem.update("" if before else f"{path} is a new file.")
        shown.update(diff_text(diff_lines(path, before, self.after)))

    @on(Input.Submitted, "#save-check-path")
    @on(Button.Pressed, "#save")
    def save(self) -> None:
        """Write the file, or say why it cannot be written and stay open."""
        path, after = self.path, self.after
        problem = self.query_one("#save-check-problem", Static)
        if after is None:
            return  # the line under the path says why
        reason = refusal(path, after)
        if reason is None:
            try:
                write_checks(path, after)
            except OSError as exc:
                reason = f"{path} could not be written: {exc.strerror or exc}"
        if reason is not None:
            problem.update(f"Not saved: {reason}")
            return
        self.dismiss(path)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """Write nothing."""
        self.dismiss(None)
