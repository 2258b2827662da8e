"""What every subcommand module shares: the ``Command`` record it declares,
the usage error, the ``OpenTui`` result, and readers for argument values.

A command module lists its subcommands in ``COMMANDS``: each names its handler (which
calls the engine and returns a typed result: an engine model or a small dataclass),
its text renderer (what that result reads like without ``--json``; with it, pydantic
dumps the result: ``amem_tui.cli.output.emit``) and its options class (each field
an argument: ``amem_tui.cli.options``).
"""

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
    """A command that failed after producing a report the user needs to see.

    The report is printed as the command's answer, then ``error`` ends the run
    as any other failure does (one line on stderr, its exit code).
    """

    def __init__(self, report: object, error: AmemError) -> None:
        super().__init__(str(error))
        self.report = report
        self.error = error


@dataclass(frozen=True)
class OpenTui(Generic[Shown]):
    """A result that asks for the TUI: it opens on ``settings``; once it closes,
    ``then`` is printed as the command's answer (as text: the TUI had the terminal)."""

    settings: Settings
    then: Shown


@dataclass(frozen=True)
class NoOptions:
    """The options of a subcommand that takes only the common ones."""


@dataclass(frozen=True)
class Command(Generic[Options, Result]):
    """One subcommand: its name, its handler (whose docstring's first paragraph is the
    command's line in ``--help``, as click takes it), its text renderer (the handler's
    result as text) and its options class (whose fields declare its own arguments:
    see ``options``).

    ``aliases`` are other names it answers to (``get``: openclaw-amem's ``memory_get``).
    ``reads`` marks a command that reads the store: on an empty default store it says
    how to fill it or find another. ``creates`` marks one that may make the store
    folder it is given (a write of new notes); any other refuses a missing folder.
    ``follow`` is the help of ``--follow`` after a command that opens the TUI (None: it
    takes none). ``settings`` builds the settings the command runs with, when they are
    not simply the command line's (the demo's own store).
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
        """The first paragraph of the handler's docstring, as a line of ``--help``."""
        first = " ".join((self.handler.__doc__ or "").split("\n\n")[0].split())
        return first[:1].lower() + first[1:].removesuffix(".")


def text_argument(value: str) -> str:
    """A text argument, or standard input for ``-`` (for notes too big for a command line).

    Standard input loses its one final newline, as a shell's ``$(...)`` and git's
    messages do: ``echo note | amem-tui add -`` stores ``note``.
    """
    if value != "-":
        return value
    try:
        text = sys.stdin.buffer.read().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"standard input is not UTF-8 text (byte {exc.start})") from None
    return text.removesuffix("\n").removesuffix("\r") if text.endswith("\n") else text


def comma_list(value: str | None) -> list[str]:
    """``"a, b,,c"`` as ``["a", "b", "c"]``; nothing for an empty or missing value."""
    if not value:
        return []
    return [part.strip() for part in value.split(",") if part.strip()]
