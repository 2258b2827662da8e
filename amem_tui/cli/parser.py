"""The whole command line: the common options, then a subcommand of one of the modules
``COMMAND_MODULES`` names (each declares its own), imported once a line names a
subcommand (a line that opens the TUI is read by ``options.tui_options`` alone)."""

from __future__ import annotations

import argparse
import difflib
import functools
import importlib
import re
from typing import Any, NoReturn

from amem_tui.cli.command import DECLARED, Command, UsageError
from amem_tui.cli.options import FOLLOW_HELP, add_common_options, add_options

PROGRAM = "amem-tui"
DESCRIPTION = "amem-tui: the TUI by default, and headless subcommands on the same engine."
EPILOG = (
    "Exit codes: 0 done; 1 health found a problem at --fail-on or worse (or an "
    "unexpected error); 2 rejected input; 3 permission denied or read-only; "
    "4 not found or not visible; 5 store or model unavailable; 75 the nightly pass is "
    "running elsewhere (consolidate --all-agents). With --json, errors on "
    "stderr are JSON objects."
)
#: The subcommand modules of ``amem_tui.cli``, in the order of ``--help``.
COMMAND_MODULES = (
    "store",
    "notes",
    "versions",
    "search",
    "compare",
    "stats",
    "demo",
    "consolidation",
    "conflicts",
    "health",
    "nightly",
    "audit",
    "isolation",
    "transfer",
    "serve",
)


@functools.cache
def commands() -> dict[str, Command[Any, Any]]:
    """Every subcommand by name (its module imported here, on the first call)."""
    modules = [importlib.import_module(f"amem_tui.cli.{name}") for name in COMMAND_MODULES]
    return {
        name: command for module in modules for name, command in DECLARED[module.__name__].items()
    }


class CommandLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are ``UsageError`` (one line, exit 2)."""

    def error(self, message: str) -> NoReturn:
        """Raise instead of exiting, the subcommand named; a mistyped choice is told the
        nearest one."""
        command = self.prog.removeprefix(PROGRAM).strip()
        typo = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if typo is not None:
            choices = re.findall(r"'([^']*)'", typo.group(2)) or typo.group(2).split(", ")
            close = difflib.get_close_matches(typo.group(1), choices, n=1, cutoff=0.5)
            message += f"; did you mean '{close[0]}'?" if close else ""
        raise UsageError(f"{command}: {message}" if command else message)


def build_parser() -> argparse.ArgumentParser:
    """The command line: options may stand before or after the subcommand."""
    parser = CommandLineParser(prog=PROGRAM, description=DESCRIPTION, epilog=EPILOG)
    add_common_options(parser, suppress=False, follow=FOLLOW_HELP)
    subcommands = parser.add_subparsers(dest="command", parser_class=CommandLineParser)
    for command in commands().values():
        subparser = subcommands.add_parser(
            command.name, aliases=command.aliases, help=command.help, description=command.help
        )
        subparser.set_defaults(command=command.name)  # an alias runs the command it names
        add_common_options(subparser, suppress=True, follow=command.follow)
        add_options(subparser, command.options)
    return parser
