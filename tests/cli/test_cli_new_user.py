"""What a new user trips over on the command line (issue 45): stdin's final newline,
a blank query, ``get`` and a mistyped command, and messages that read right."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from amem_tui.demo import demo_id
from amem_tui.engine.embed import TEST_MODEL
from tests.support.cli import in_this_process as cli


class Stdin(io.TextIOWrapper):
    """Standard input holding ``data``."""

    def __init__(self, data: bytes) -> None:
        super().__init__(io.BytesIO(data), encoding="utf-8")


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        (b"A note piped in from a shell\n", "A note piped in from a shell"),
        (b"A note written on Windows\r\n", "A note written on Windows"),
        (b"A note that ends in a blank line\n\n", "A note that ends in a blank line\n"),
        (b"A note with no final newline", "A note with no final newline"),
    ],
)
def test_add_from_stdin_drops_only_the_one_final_newline(
    demo: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    given: bytes,
    stored: str,
) -> None:
    monkeypatch.setattr("sys.stdin", Stdin(given))
    code, out, err = cli(capsys, *demo, "--agent", "main", "--json", "add", "-")
    assert code == 0, err
    assert json.loads(out)["content"] == stored


@pytest.mark.parametrize("query", ["", "   "])
def test_a_blank_query_is_refused_with_a_message(
    demo: list[str], capsys: pytest.CaptureFixture[str], query: str
) -> None:
    code, out, err = cli(capsys, *demo, "--agent", "dev", "search", query)
    assert (code, out) == (2, "")
    assert "search needs a query" in err


def test_get_is_show(demo: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    note = demo_id("shared-freeze")
    shown = cli(capsys, *demo, "--agent", "dev", "--json", "show", note)
    got = cli(capsys, *demo, "--agent", "dev", "--json", "get", note)
    assert got == shown and shown[0] == 0


@pytest.mark.parametrize(
    ("argv", "meant"),
    [
        (["shwo", "x"], "show"),
        (["serach", "x"], "search"),
        (["list", "--scope", "privat"], "private"),
    ],
)
def test_a_mistyped_choice_is_told_the_nearest_one(
    capsys: pytest.CaptureFixture[str], argv: list[str], meant: str
) -> None:
    code, out, err = cli(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.rstrip().endswith(f"did you mean '{meant}'?")


def test_messages_read_right(demo: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, *demo, "--agent", "main", "show", "")
    assert code == 4 and "note '' not found" in err

    argv = ["--agent", "main", "add", "A note for a reader with a bad name", "--readers"]
    code, _, err = cli(capsys, *demo, *argv, "bad name!")
    assert code == 2 and "readers: invalid agent id 'bad name!'" in err


# ------------------------------------------------------------- a mistyped --store
READS_OF_A_STORE = [
    ["list"],
    ["search", "deploy freeze"],
    ["status"],
    ["stats"],
    ["export", "--all", "--output", "{tmp}/exported"],
    ["publish", "00000000-0000-0000-0000-000000000001"],
]


@pytest.mark.parametrize("argv", READS_OF_A_STORE, ids=lambda argv: argv[0])
def test_a_missing_store_is_refused_and_nothing_is_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    missing = tmp_path / "does" / "not" / "exist"
    argv = [arg.replace("{tmp}", str(tmp_path)) for arg in argv]
    code, out, err = cli(capsys, "--store", str(missing), "--model", TEST_MODEL, *argv)
    assert (code, out) == (4, "")
    assert f"amem-tui: no store at {missing}" in err and "nothing was created" in err
    assert not (tmp_path / "does").exists() and not (tmp_path / "exported").exists()

    code, _, err = cli(capsys, "--store", str(missing), "--json", *argv)
    error = json.loads(err)["error"]
    assert (code, error["kind"], error["exit_code"]) == (4, "store_not_found", 4)


def test_a_missing_store_names_the_stores_that_exist(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert cli(capsys, "--model", TEST_MODEL, "demo", "--no-tui")[0] == 0  # the demo store
    code, _, err = cli(capsys, "--store", str(tmp_path / "typo"), "list")
    demo_store = Path(os.environ["AMEM_DATA_DIR"]) / "demo"
    assert code == 4 and f"(the demo store is {demo_store})" in err


def test_a_first_write_creates_the_store_and_says_so_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = tmp_path / "new-store"
    add = ["--store", str(new), "--model", TEST_MODEL, "add"]
    code, _, err = cli(capsys, *add, "The first note of a new store folder")
    assert code == 0 and err == f"amem-tui: warning: created a new store at {new}\n"
    code, _, err = cli(capsys, *add, "The second note of that store folder")
    assert (code, err) == (0, "")

    lines = tmp_path / "notes.jsonl"
    assert cli(capsys, "--store", str(new), "export", "--output", str(lines))[0] == 0
    other = tmp_path / "imported"
    code, _, err = cli(capsys, "--store", str(other), "--model", TEST_MODEL, "import", str(lines))
    assert code == 0 and err.count(f"created a new store at {other}") == 1


def test_an_import_line_that_is_not_utf8_is_named_and_skipped_on_request(
    demo: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exported = tmp_path / "export.jsonl"
    assert cli(capsys, *demo, "export", "--output", str(exported))[0] == 0
    good = exported.read_bytes().splitlines(keepends=True)[:3]
    bad = b'{"id": "broken", "payload": {"content": "caf\xe9"}}\n'  # Latin-1, not UTF-8
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_bytes(b"\xef\xbb\xbf" + good[0] + bad + b"".join(good[1:]))
    new_store = ["--store", str(tmp_path / "other"), "--model", TEST_MODEL]

    code, out, err = cli(capsys, *new_store, "import", str(mixed))
    assert code == 2 and "line 2: rejected (not UTF-8 text" in out
    assert "1 of 4 lines rejected" in err

    code, out, err = cli(capsys, *new_store, "--json", "import", str(mixed), "--skip-invalid")
    answer = json.loads(out)
    assert code == 0 and answer["written"] == 3
    assert [(bad["line"], bad["reason"][:15]) for bad in answer["rejected"]] == [
        (2, "not UTF-8 text ")
    ]


def test_the_tui_on_a_missing_store_is_refused_before_it_opens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def opened(*_: object, **__: object) -> int:
        raise AssertionError("the TUI opened on a store that does not exist")

    monkeypatch.setattr("amem_tui.tui.launch.run", opened)
    missing = tmp_path / "typo"
    for argv in (["--store", str(missing)], ["--store", str(missing), "--agent", "dev"]):
        code, out, err = cli(capsys, *argv)
        assert (code, out) == (4, "") and f"no store at {missing}" in err
    assert not missing.exists()
