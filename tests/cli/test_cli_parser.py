"""Every subcommand, built-in or added by a feature module, takes the common options."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from amem_tui.cli.options import CommonOptions, options_from, tui_options
from amem_tui.cli.parser import build_parser, commands

COMMON = ["--json", "--store", "--url", "--config", "--collection", "--agent", "--session-key"]


def subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    [action] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def test_every_registered_command_has_a_parser_and_back() -> None:
    aliases = {alias for command in commands().values() for alias in command.aliases}
    assert set(subparsers()) == set(commands()) | aliases == set(commands()) | {"get"}
    for name in ("agents", "add", "publish", "unpublish", "show", "update", "delete"):
        assert name in commands()
    assert {"restore", "list", "search", "demo"} <= set(commands())


@pytest.mark.parametrize("name", sorted(commands()))
def test_common_options_after_every_subcommand(name: str) -> None:
    options = {opt for action in subparsers()[name]._actions for opt in action.option_strings}
    missing = [opt for opt in COMMON if opt not in options]
    assert missing == [], f"{name} lacks {missing}"


@pytest.mark.parametrize(
    "argv",
    [
        ["--agent", "dev", "--json", "list", "--limit", "3"],
        ["list", "--agent", "dev", "--json", "--limit", "3"],
        ["--json", "list", "--limit", "3", "--agent", "dev"],
    ],
)
def test_options_before_or_after_the_subcommand_parse_alike(argv: list[str]) -> None:
    args = build_parser().parse_args(argv)
    assert (args.command, args.agent, args.json, args.limit) == ("list", "dev", True, 3)


def test_an_option_after_the_subcommand_wins() -> None:
    args = build_parser().parse_args(["--agent", "main", "show", "x", "--agent", "dev"])
    assert args.agent == "dev"


@pytest.mark.parametrize("name", sorted(commands()))
def test_each_command_s_options_are_what_its_parser_fills(name: str) -> None:
    """A command's typed options name only arguments its parser sets, so the handler
    reads exactly what was given (a misnamed field fails here, not in use)."""
    command = commands()[name]
    parser = subparsers()[name]
    required = [a for a in parser._actions if not a.option_strings and a.required]
    # Required options (revert's --to) given a value their type takes.
    options = [
        (a.option_strings[0], "1") for a in parser._actions if a.option_strings and a.required
    ]
    given = [part for pair in options for part in pair]
    parsed = build_parser().parse_args([name, *("x" for _ in required), *given])
    common = options_from(CommonOptions, parsed)
    assert common.command == name and common.json is False
    if command.options is not None:
        options = options_from(command.options, parsed)
        assert dataclasses.is_dataclass(options)


@pytest.mark.parametrize(
    "line",
    [
        [],
        ["--store", "/tmp/s", "--agent", "dev"],
        ["--url", "http://localhost:6333", "--follow", "--read-only"],
        ["--session-key", "agent:ops:main", "--view", "recall", "--json"],
        ["--stor", "/tmp/s"],  # an abbreviation, as argparse takes it
    ],
)
def test_a_tui_line_reads_the_same_with_the_common_options_alone(line: list[str]) -> None:
    whole = options_from(CommonOptions, build_parser().parse_args(line))
    assert whole.command is None
    assert tui_options(line) == whole


@pytest.mark.parametrize(
    "line",
    [
        ["search", "deploy"],
        ["--agent", "dev", "stats"],
        ["--help"],
        ["-h"],
        ["--bogus"],
        ["--agent"],
    ],
)
def test_every_other_line_is_left_to_the_whole_parser(line: list[str]) -> None:
    assert tui_options(line) is None
