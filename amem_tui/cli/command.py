"""What every subcommand module shares: the ``Command`` record it lists in
``COMMANDS``, the usage error, the ``OpenTui`` result, and the reader of a text argument."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from amem_tui.engine import AmemError, InvalidInput

if TYPE_CHECKING:
    from amem_tui.cli.context import Context
    from amem_tui.cli.options import CommonOptions
    from amem_tui.config import Settings

Options = TypeVar("Options")
Result = TypeVar("Result")
Shown = TypeVar("Shown")


class UsageError(InvalidInput):
    """A bad command line (exit 2)."""


class FailedWithReport(Exception):
    """A failure with a report: the report is printed as the answer, then ``error``
    ends the run as any other failure does."""

    def __init__(self, report: object, error: AmemError) -> None:
        super().__init__(str(error))
        self.report = report
        self.error = error


@dataclass(frozen=True)
class OpenTui(Generic[Shown]):
    """A result that opens the TUI on ``settings``, then prints ``then`` as text."""

    settings: Settings
    then: Shown


@dataclass(frozen=True)
class NoOptions:
    """The options of a subcommand that takes only the common ones."""


@dataclass(frozen=True)
class Command(Generic[Options, Result]):
    """One subcommand: its handler (whose docstring's first line is its ``--help``
    line), which returns a typed result; the text renderer of that result (with
    ``--json`` pydantic dumps it); and its options class (see ``options``).

    ``reads``: on an empty default store it says how to fill it. ``creates``: it may
    make the store folder it is given. ``follow``: the help of ``--follow`` after a
    command that opens the TUI. ``settings``: its own settings (the demo's store).
    """

    name: str
    handler: Callable[[Context, Options], Result]
    text: Callable[[Result], str]
    options: type[Options] = NoOptions  # type: ignore[assignment]
    aliases: tuple[str, ...] = ()
    reads: bool = False
    creates: bool = False
    follow: str | None = None
    settings: Callable[[CommonOptions], Settings] | None = None

    @property
    def help(self) -> str:
        """The handler docstring's first paragraph, as a line of ``--help``."""
        first = " ".join((self.handler.__doc__ or "").split("\n\n")[0].split())
        return first[:1].lower() + first[1:].removesuffix(".")


def text_argument(value: str) -> str:
    """A text argument, or standard input for ``-``, less its one final newline (as a
    shell's ``$(...)`` does)."""
    if value != "-":
        return value
    try:
        text = sys.stdin.buffer.read().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"standard input is not UTF-8 text (byte {exc.start})") from None
    return text.removesuffix("\n").removesuffix("\r") if text.endswith("\n") else text
