"""``versions ID`` and ``revert ID --to N``, as users run them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support.cli import inert, one_error_line, run


def ok(result: Any) -> str:
    assert result.returncode == 0, result.stderr.decode()
    return inert(result.stdout)


def test_edit_three_times_then_revert_to_the_first_version(tmp_path: Path) -> None:
    def cli(*args: str) -> Any:
        return run(list(args), tmp_path)

    note = json.loads(
        ok(cli("add", "The deploy window is Tuesday morning", "--tags", "deploy", "--json"))
    )
    note_id = note["id"]
    for content in (
        "The deploy window is Tuesday afternoon",
        "The deploy window is Wednesday afternoon",
        "Deploys are frozen until the audit ends",
    ):
        ok(cli("update", note_id, "--content", content))

    text = ok(cli("versions", note_id))
    assert "4 versions" in text
    assert "Tuesday [-morning-]{+afternoon+}" in text
    listed = json.loads(ok(cli("versions", note_id, "--json")))
    assert [(v["number"], v["action"], v["agent"]) for v in listed["versions"]] == [
        (1, "add", "main"),
        (2, "update", "main"),
        (3, "update", "main"),
        (4, "update", "main"),
    ]
    assert listed["versions"][1]["before"]["content"] == "The deploy window is Tuesday morning"

    reverted = json.loads(ok(cli("revert", note_id, "--to", "1", "--json")))
    assert reverted["content"] == "The deploy window is Tuesday morning"
    assert (reverted["reverted_to"], reverted["version"]) == (1, 5)
    shown = json.loads(ok(cli("show", note_id, "--json")))
    assert shown["content"] == "The deploy window is Tuesday morning"
    assert ok(cli("versions", note_id)).count("reverted to version 1") == 1


def test_revert_is_refused_to_another_agent_and_changes_nothing(tmp_path: Path) -> None:
    def cli(*args: str) -> Any:
        return run(list(args), tmp_path)

    note_id = json.loads(ok(cli("add", "Code freeze starts on the 18th", "--shared", "--json")))[
        "id"
    ]
    ok(cli("update", note_id, "--content", "Code freeze starts on the 19th"))
    ok(cli("--agent", "dev", "--new-agent", "add", "Dev keeps its own notes here", "--json"))
    before = ok(cli("versions", note_id, "--json"))
    line = one_error_line(cli("--agent", "dev", "revert", note_id, "--to", "1"), 3)
    assert "PERMISSION_DENIED" in line and "dev" in line and note_id in line
    assert ok(cli("versions", note_id, "--json")) == before


def test_revert_to_a_version_that_is_not_there(tmp_path: Path) -> None:
    note_id = json.loads(ok(run(["add", "Incident reviews within a week", "--json"], tmp_path)))[
        "id"
    ]
    line = one_error_line(run(["revert", note_id, "--to", "7"], tmp_path), 2)
    assert "versions are 1 to 1" in line
    line = one_error_line(run(["revert", note_id, "--to", "0"], tmp_path), 2)
    assert "--to" in line


def test_a_readers_change_lists_the_readers_before_and_after(tmp_path: Path) -> None:
    def cli(*args: str) -> Any:
        return run(list(args), tmp_path)

    note_id = json.loads(ok(cli("add", "The on-call rota lives in the wiki", "--json")))["id"]
    ok(cli("--agent", "dev", "--new-agent", "add", "Dev keeps its own notes here"))
    ok(cli("update", note_id, "--readers", "dev"))

    text = ok(cli("versions", note_id))
    assert 'readers: ["main"] -> ["main", "dev"]' in text
    reverted = ok(cli("revert", note_id, "--to", "1"))
    assert reverted.rstrip().endswith("(kept as version 3): readers")
    assert 'readers: ["main", "dev"] -> ["main"]' in ok(cli("versions", note_id))
