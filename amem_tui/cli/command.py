"""What every subcommand module shares: the :class:`Command` record it declares,
the usage error, and readers for argument values.

A command module lists its subcommands in ``COMMANDS``: each names its handler
(which parses nothing further and calls the engine, returning plain data) and its
text renderer (what the data reads like without ``--json``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from amem_tui.engine.errors import AmemError, InvalidInput

if TYPE_CHECKING:
    from amem_tui.cli.context import Context

Data = TypeVar("Data")


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


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    """For a subcommand that takes only the common options."""


@dataclass(frozen=True)
class Command(Generic[Data]):
    """One subcommand: its name and help line, its arguments, its handler and its
    text renderer (the handler's data as plain text)."""

    name: str
    help: str
    handler: Callable[[Context, argparse.Namespace], Data]
    text: Callable[[Data], str]
    arguments: Callable[[argparse.ArgumentParser], None] = _no_arguments


def text_argument(value: str) -> str:
    """A text argument, or standard input for ``-`` (for notes too big for a command line)."""
    if value != "-":
        return value
    try:
        return sys.stdin.buffer.read().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"standard input is not UTF-8 text (byte {exc.start})") from None


def comma_list(value: str | None) -> list[str]:
    """``"a, b,,c"`` as ``["a", "b", "c"]``; nothing for an empty or missing value."""
    if not value:
        return []
    return [part.strip() for part in value.split(",") if part.strip()]
