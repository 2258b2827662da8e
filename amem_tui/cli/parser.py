"""The ``amem-tui`` command line: the common options and every subcommand (the
``COMMANDS`` of each module in ``COMMAND_MODULES``)."""

from __future__ import annotations

import argparse
import difflib
import re
from types import ModuleType
from typing import Any, NoReturn

# Each module by its own name: importing the package itself from here would make a
# loop (the package's ``main`` imports this parser).
import amem_tui.cli.agents as agents
import amem_tui.cli.audit as audit
import amem_tui.cli.compare as compare
import amem_tui.cli.conflicts as conflicts
import amem_tui.cli.consolidation as consolidation
import amem_tui.cli.demo as demo
import amem_tui.cli.health as health
import amem_tui.cli.isolation as isolation
import amem_tui.cli.notes as notes
import amem_tui.cli.schedule as schedule
import amem_tui.cli.search as search
import amem_tui.cli.serve as serve
import amem_tui.cli.stats as stats
import amem_tui.cli.store as store
import amem_tui.cli.transfer as transfer
import amem_tui.cli.versions as versions
from amem_tui.cli.command import Command, UsageError
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


#: The subcommand modules (each lists its ``COMMANDS``), in the order of ``--help``.
COMMAND_MODULES: tuple[ModuleType, ...] = (
    agents,
    notes,
    versions,
    search,
    compare,
    stats,
    demo,
    consolidation,
    conflicts,
    health,
    schedule,
    store,
    audit,
    isolation,
    transfer,
    serve,
)

#: Every subcommand by name.
COMMANDS: dict[str, Command[Any, Any]] = {
    command.name: command for module in COMMAND_MODULES for command in module.COMMANDS
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
    for command in COMMANDS.values():
        subparser = subcommands.add_parser(
            command.name, aliases=command.aliases, help=command.help, description=command.help
        )
        subparser.set_defaults(command=command.name)  # an alias runs the command it names
        add_common_options(subparser, suppress=True, follow=command.follow)
        add_options(subparser, command.options)
    return parser
