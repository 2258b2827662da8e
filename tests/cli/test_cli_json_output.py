"""With ``--json``, stdout is exactly one JSON value, for every subcommand and every
input: blank queries, unknown ids, an empty store, a store that cannot open. Warnings
and errors go to stderr, each one line holding one JSON object.

Each case runs ``python -m amem_tui`` in a fresh process: a library that prints while
the interpreter shuts down (a model still loading, say) shows only there.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from amem_tui.cli.parser import commands
from amem_tui.engine.embed import DEFAULT_MODEL
from tests.support.cli import cli_env, inert, run
from tests.support.paths import MODEL_CACHE, REPO_ROOT

UNKNOWN_ID = "00000000-0000-0000-0000-00000000dead"
UNKNOWN_RUN = "00000000-0000-0000-0000-00000000beef"


def one_json_value(text: str) -> Any:
    """The one JSON value ``text`` holds; fails on anything before or after it."""
    return json.loads(text)  # "Extra data" for a second value or a stray line


def check_streams(result: subprocess.CompletedProcess[bytes]) -> Any:
    """Stdout: one JSON value (or, for a failure, nothing or one value: its report);
    stderr: one JSON object a line. The answer, None after a failure."""
    out, err = inert(result.stdout), inert(result.stderr)
    for line in err.splitlines():
        assert isinstance(json.loads(line), dict), f"stderr line is not a JSON object: {line!r}"
    if result.returncode != 0:
        assert err.strip(), "a failure says why on stderr"
        if out.strip():
            one_json_value(out)
        return None
    assert out.strip(), f"no answer on stdout; stderr: {err}"
    return one_json_value(out)


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """A demo store (test embedder) and the options that reach it with its agents."""
    home = tmp_path_factory.mktemp("demo-home")
    store = home / "store"
    result = run(["demo", "--no-tui", "--json", "--store", str(store)], home)
    assert check_streams(result)["counts"]["amem_notes"] > 0
    return ["--store", str(store), "--config", str(store / "openclaw.json")]


Case = Callable[[Path], list[str]]


def empty(*argv: str) -> Case:
    """A command on a store folder that holds nothing yet."""
    return lambda home: ["--store", str(home / "empty"), *argv]


#: Every subcommand on inputs at the edge: nothing stored, blank text, unknown ids.
EMPTY_STORE_CASES: dict[str, Case] = {
    "agents": empty("agents"),
    "status": empty("status"),
    "collections": empty("collections"),
    "audit": empty("audit", "--all"),
    "stats": empty("stats"),
    "stats --check": empty("stats", "--check"),
    "history": empty("history"),
    "list": empty("list"),
    "list --run": empty("list", "--run", "   "),
    "search ''": empty("search", ""),
    "search '   '": empty("search", "   "),
    "search word": empty("search", "deploy"),
    "compare": empty("compare", "main", "dev"),
    "compare --query ''": empty("compare", "main", "dev", "--query", ""),
    "compare --query '   '": empty("compare", "main", "dev", "--query", "   "),
    "show unknown": empty("show", UNKNOWN_ID),
    "show not-an-id": empty("show", "not an id"),
    "show ''": empty("show", ""),
    "publish unknown": empty("publish", UNKNOWN_ID),
    "unpublish unknown": empty("unpublish", UNKNOWN_ID),
    "delete unknown": empty("delete", UNKNOWN_ID),
    "restore unknown": empty("restore", UNKNOWN_ID),
    "update unknown": empty("update", UNKNOWN_ID, "--content", "A new text for no note"),
    "update nothing": empty("update", UNKNOWN_ID),
    "versions unknown": empty("versions", UNKNOWN_ID),
    "versions ''": empty("versions", ""),
    "revert unknown": empty("revert", UNKNOWN_ID, "--to", "1"),
    "revert --to 0": empty("revert", UNKNOWN_ID, "--to", "0"),
    "revert --to word": empty("revert", UNKNOWN_ID, "--to", "first"),
    "add ''": empty("add", ""),
    "add '   '": empty("add", "   "),
    "add": empty("add", "A first note in an empty store"),
    "consolidate --dry-run": empty("consolidate", "--dry-run"),
    "consolidate": empty("consolidate"),
    "consolidate --all-agents --due": empty("consolidate", "--all-agents", "--due"),
    "schedule --print cron": empty("schedule", "--print", "cron"),
    "schedule --print systemd": empty("schedule", "--print", "systemd"),
    "conflicts": empty("conflicts"),
    "conflicts --all-agents": empty("conflicts", "--all-agents"),
    "conflicts resolve unknown": empty(
        "conflicts", "resolve", UNKNOWN_ID, UNKNOWN_RUN, "--keep", "A"
    ),
    "conflicts resolve no keep": empty("conflicts", "resolve", UNKNOWN_ID, UNKNOWN_RUN),
    "conflicts clear unknown": empty("conflicts", "clear", UNKNOWN_ID, "--dry-run"),
    "health": empty("health"),
    "health --fail-on error": empty("health", "--fail-on", "error"),
    "leaks": empty("leaks"),
    "leaks --fail-on info": empty("leaks", "--fail-on", "info"),
    "check missing file": empty("check", "/nonexistent/checks.toml"),
    "check empty file": lambda home: [
        "--store",
        str(home / "empty"),
        "check",
        str(_write(home / "checks.toml", "")),
    ],
    "check bad file": lambda home: [
        "--store",
        str(home / "empty"),
        "check",
        str(_write(home / "bad.toml", "[[check]]\nagent = 'main'\nnope = 1\n")),
    ],
    "undo unknown": empty("undo", UNKNOWN_RUN),
    "undo ''": empty("undo", ""),
    "export": empty("export"),
    "export -o": lambda home: ["--store", str(home / "empty"), "export", "-o", str(home / "x")],
    "import missing": empty("import", "/nonexistent/file.jsonl"),
    "import empty file": lambda home: [
        "--store",
        str(home / "empty"),
        "import",
        str(_write(home / "empty.jsonl", "")),
    ],
    "import bad line": lambda home: [
        "--store",
        str(home / "empty"),
        "import",
        str(_write(home / "bad.jsonl", '{"id": "x"}\n')),
    ],
    "demo": lambda home: ["demo", "--no-tui", "--store", str(home / "demo")],
    "serve --port 0": empty("serve", "--port", "0"),
}


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_every_subcommand_has_an_edge_case() -> None:
    covered = {name.split()[0] for name in EMPTY_STORE_CASES}
    assert covered == set(commands())


@pytest.mark.parametrize("name", sorted(EMPTY_STORE_CASES))
def test_json_stdout_is_one_value_on_an_empty_store(name: str, tmp_path: Path) -> None:
    argv = EMPTY_STORE_CASES[name](tmp_path)
    check_streams(run(["--json", *argv], tmp_path))


DEMO_CASES: dict[str, list[str]] = {
    "search ''": ["search", ""],
    "search '   '": ["search", "   ", "--explain", "--hidden"],
    "compare --query ''": ["compare", "main", "dev", "--query", ""],
    "compare unknown agent": ["compare", "main", "nobody"],
    "list as a stranger": ["--agent", "nobody", "list"],
    "show unknown": ["show", UNKNOWN_ID],
    "undo unknown": ["undo", UNKNOWN_RUN],
    "export": ["export"],
}


@pytest.mark.parametrize("name", sorted(DEMO_CASES))
def test_json_stdout_is_one_value_on_the_demo(
    name: str, demo_store: list[str], tmp_path: Path
) -> None:
    check_streams(run(["--json", *demo_store, *DEMO_CASES[name]], tmp_path))


def test_an_export_with_json_is_one_array_of_the_records(
    demo_store: list[str], tmp_path: Path
) -> None:
    lines = inert(run([*demo_store, "export"], tmp_path).stdout).splitlines()
    records = check_streams(run(["--json", *demo_store, "export"], tmp_path))
    assert records == [json.loads(line) for line in lines] and len(records) > 10


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [
        ["search", ""],
        ["search", "   "],
        ["compare", "main", "dev", "--query", ""],
        ["search", "deploy", "--store", "{a file}"],
    ],
    ids=["empty", "blank", "compare-empty", "store-fails"],
)
def test_the_real_model_prints_nothing_on_stdout(
    argv: list[str], demo_store: list[str], tmp_path: Path
) -> None:
    """The real model loads beside the store; a command that ends before it is needed
    (a blank query, a store that cannot open) must not leave it printing on stdout."""
    not_a_store = _write(tmp_path / "a-file", "not a store")
    argv = [str(not_a_store) if arg == "{a file}" else arg for arg in argv]
    options = demo_store if "--store" not in argv else []
    env = {"AMEM_MODEL": DEFAULT_MODEL, "AMEM_CACHE_DIR": str(MODEL_CACHE)}
    for as_json in (["--json"], []):
        result = run([*as_json, *options, *argv], tmp_path, **env)
        if as_json:
            check_streams(result)
        out = inert(result.stdout)
        assert "Error importing" not in out + inert(result.stderr)
        if result.returncode != 0:
            assert out == ""


def test_a_print_after_the_answer_goes_to_stderr(tmp_path: Path) -> None:
    """What a library prints once the answer is out (a model still importing while the
    interpreter shuts down: huggingface_hub prints its import failures with ``print``)
    lands on stderr, never after the JSON value on stdout."""
    (tmp_path / "empty").mkdir()  # an empty store (a missing one is refused)
    program = (
        "import sys, threading\n"
        "from amem_tui.cli import main\n"
        "answered = threading.Event()\n"
        "def late():\n"
        "    answered.wait(60)\n"
        "    print('Error importing huggingface_hub.hf_api: a late print')\n"
        "threading.Thread(target=late).start()\n"
        f"sys.argv = ['amem-tui', '--json', '--store', {str(tmp_path / 'empty')!r}, 'status']\n"
        "code = main()\n"
        "answered.set()\n"
        "sys.exit(code)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", program],
        cwd=REPO_ROOT,
        env=cli_env(tmp_path),
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert one_json_value(inert(result.stdout))["store"] == str(tmp_path / "empty")
    assert b"a late print" in result.stderr
