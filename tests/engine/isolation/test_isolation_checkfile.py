"""Reading a checks file: what it holds, and every way it can be wrong, each named by
the line and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from amem_tui.engine import MemoryEngine
from amem_tui.engine.for_apps import CheckFileError
from amem_tui.engine.isolation import load_checks, parse_checks
from tests.support.leak_store import plant_leaks

GOOD = """\
# checks for CI
[[check]]
agent = "dev"
query = "deploy freeze"
expect = "frozen until"

[[check]]
name = "main's trip stays main's"
agent = "dev"
user = "alice"
subject = "Priya"
query = "flight"
top = 3
forbid = ["Lisbon", "seat 12A"]
hidden_because = "private"
"""


def test_a_good_file_reads_into_checks() -> None:
    file = parse_checks(GOOD, "ci.toml")
    first, second = file.checks
    assert (first.number, first.line, first.agent, first.expect, first.top) == (
        1,
        2,
        "dev",
        ["frozen until"],
        5,
    )
    assert first.name == "check 1: dev / deploy freeze"
    assert (second.name, second.user, second.subject, second.top) == (
        "main's trip stays main's",
        "alice",
        "Priya",
        3,
    )
    assert second.hidden_because == {"Lisbon": "private", "seat 12A": "private"}
    assert second.lines["forbid"] == 14


@pytest.mark.parametrize(
    ("text", "line", "key", "words"),
    [
        ('[[check]]\nagent = "dev"\nquery = "x\n', 3, None, "not valid TOML"),
        ('[[check]]\nagent = "dev"\nquery = "x"\nexpected = ["a"]\n', 4, "expected", "unknown key"),
        ('[[check]]\nagent = "dev"\n', 1, None, "no query"),
        ('[[check]]\nagent = "dev"\nquery = "x"\ntop = "five"\n', 4, "top", "whole number"),
        ('[[check]]\nagent = "dev"\nquery = "x"\nforbid = [1, 2]\n', 4, "forbid", "list"),
        (
            '[[check]]\nagent = "dev"\nquery = "x"\nhidden_because = "private"\n',
            4,
            "hidden_because",
            "forbids nothing",
        ),
        ('title = "mine"\n[[check]]\nagent = "dev"\nquery = "x"\n', 1, "title", "unknown key"),
        (
            '[[check]]\nagent = "dev"\nquery = "x"\n\n[[check]]\nagent = ""\nquery = "y"\n',
            6,
            "agent",
            "not empty",
        ),
        ("# nothing here\n", None, None, "no [[check]]"),
    ],
)
def test_a_bad_file_names_the_line_and_the_key(
    text: str, line: int | None, key: str | None, words: str
) -> None:
    with pytest.raises(CheckFileError) as raised:
        parse_checks(text, "ci.toml")
    error = raised.value
    assert (error.line, error.key) == (line, key)
    assert words in error.message
    assert error.exit_code == 2
    assert error.message.startswith(f"ci.toml:{line}" if line else "ci.toml")


def test_an_unknown_agent_is_named_at_its_line(engine: MemoryEngine, tmp_path: Path) -> None:
    plant_leaks(engine)
    path = tmp_path / "ci.toml"
    path.write_text(
        '[[check]]\nagent = "dev"\nquery = "x"\n\n[[check]]\nquery = "y"\nagent = "deev"\n'
    )
    with pytest.raises(CheckFileError) as raised:
        engine.check(path)
    assert (raised.value.line, raised.value.key) == (7, "agent")
    assert "unknown agent 'deev'" in raised.value.message
    # A mem0 user on a store of openclaw-amem notes is named at its own line.
    path.write_text('[[check]]\nagent = "dev"\nquery = "x"\nuser = "alice"\n')
    with pytest.raises(CheckFileError) as raised:
        engine.check(load_checks(path))
    assert (raised.value.line, raised.value.key) == (4, "user")
