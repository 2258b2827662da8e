"""What the CLI says: errors as one plain line or (``--json``) one JSON object on stderr
with the same exit codes, help without markup, dry runs that say nothing was stored,
and the demo's way back to its store once the TUI closes."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from amem_tui.cli.parser import build_parser
from amem_tui.demo import demo_id
from amem_tui.engine.embed import TEST_MODEL
from tests.support.cli import in_this_process as cli

# --------------------------------------------------------------------- errors
FAILURES = [
    (["search", "--limit", "x", "q"], 2, "usage_error", "search: argument --limit"),
    (["list", "--bogus"], 2, "usage_error", "unrecognized arguments: --bogus"),
    (["--agent", "shared", "list"], 2, "config_error", "reserved"),
    (["--config", "", "status"], 2, "invalid_input", "--config needs a value"),
    (["add", "short"], 2, "invalid_input", "quality gate"),
    (["show", "00000000-0000-0000-0000-000000000000"], 4, "not_found", "not found"),
    (["--read-only", "add", "A note that is never written"], 3, "read_only_store", "read-only"),
    (["--agent", "dev", "delete", demo_id("shared-freeze")], 3, "permission_denied", "main"),
    (["undo", "00000000-0000-0000-0000-000000000009"], 4, "run_not_found", "no consolidation"),
]


@pytest.mark.parametrize(("argv", "code", "kind", "fragment"), FAILURES, ids=lambda v: str(v))
def test_errors_are_one_line_or_one_json_object_with_the_same_exit_code(
    demo: list[str],
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    code: int,
    kind: str,
    fragment: str,
) -> None:
    got, out, err = cli(capsys, *demo, *argv)
    assert (got, out) == (code, "")
    [line] = err.strip("\n").split("\n")
    assert line.startswith("amem-tui: ") and fragment in line
    assert "amem-tui: amem-tui" not in line  # the program is named once

    got, out, err = cli(capsys, *demo, *argv, "--json")
    assert (got, out) == (code, "")
    [line] = err.strip("\n").split("\n")
    error = json.loads(line)["error"]
    assert (error["exit_code"], error["kind"]) == (code, kind)
    assert fragment in error["message"] and not error["message"].startswith("amem-tui")
    if kind == "run_not_found":
        assert error["run_id"] == argv[1] and "note_id" not in error


def test_a_store_that_cannot_open_is_a_json_error_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("not a store")
    code, out, err = cli(capsys, "--store", str(a_file), "list", "--json")
    error = json.loads(err)["error"]
    assert (code, out, error["exit_code"]) == (5, "", 5)
    assert "not a store folder" in error["message"]


def test_a_failed_import_reports_on_stdout_and_the_error_on_stderr_as_json(
    demo: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = tmp_path / "bad.jsonl"
    lines.write_text('{"id": "not-a-uuid"}\n', encoding="utf-8")
    code, out, err = cli(capsys, *demo, "import", str(lines), "--json")
    assert code == 2
    assert json.loads(out)["rejected"]  # the report, as the answer
    assert json.loads(err)["error"]["kind"] == "invalid_input"


# ----------------------------------------------------------------------- help
def every_parser() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    [action] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return {"amem-tui": parser, **action.choices}


@pytest.mark.parametrize("name", sorted(every_parser()))
def test_help_has_no_markup(name: str) -> None:
    text = every_parser()[name].format_help()
    assert "``" not in text and ":mod:" not in text and ":func:" not in text


def test_help_names_the_new_options() -> None:
    text = every_parser()["add"].format_help()
    for option in ("--new-agent", "--user", "--namespace", "--view"):
        assert option in text
    assert "--run RUN_ID" in every_parser()["list"].format_help()


# ------------------------------------------------------------------ dry runs
def test_a_dry_run_says_it_stored_nothing_and_has_no_run_id(
    demo: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = cli(capsys, *demo, "consolidate", "--dry-run", "--threshold", "0.65")
    assert code == 0
    assert out.startswith("plan  ") and "dry run, not stored" in out
    assert "nothing was stored, so there is no run to undo" in out
    code, out, _ = cli(capsys, *demo, "consolidate", "--dry-run", "--threshold", "0.65", "--json")
    plan = json.loads(out)
    assert plan["id"] is None and plan["stored"] is False and plan["dry_run"] is True
    assert plan["merges"] and "nothing was stored" in plan["messages"][0]
    code, out, _ = cli(capsys, *demo, "--agent", "main", "history", "--json")
    assert json.loads(out) == []
    code, out, _ = cli(capsys, *demo, "consolidate", "--threshold", "0.65", "--json")
    run = json.loads(out)
    assert run["id"] and run["stored"] is True


# ---------------------------------------------------------------------- demo
def test_the_demo_says_how_to_reach_its_store_after_the_tui_closes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import amem_tui.tui.launch

    def fake_tui(open_settings: Any, **options: Any) -> int:
        assert open_settings().store_label == str(store)
        print("<the TUI ran here>")
        return 0

    store = tmp_path / "store"
    monkeypatch.setattr(amem_tui.tui.launch, "run", fake_tui)
    code, out, err = cli(capsys, "demo", "--store", str(store), "--model", TEST_MODEL)
    assert (code, err) == (0, "")
    tui_at = out.index("<the TUI ran here>")
    told_at = out.index(f"amem-tui --store {store} --config {store / 'openclaw.json'}")
    assert tui_at < told_at


def test_running_the_demo_again_keeps_what_the_user_changed(
    demo: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    vendor = demo_id("main-vendor")
    code, _, _ = cli(capsys, *demo, "update", vendor, "--content", "The vendor account moved")
    assert code == 0
    assert cli(capsys, *demo, "delete", demo_id("main-trip"))[0] == 0
    config = Path(demo[demo.index("--config") + 1])
    edited = json.loads(config.read_text())
    edited["plugins"]["entries"]["openclaw-amem"]["config"]["agents"]["ops"] = {"agentId": "ops"}
    config.write_text(json.dumps(edited))

    store = demo[demo.index("--store") + 1]
    assert cli(capsys, "demo", "--no-tui", "--store", store, "--model", TEST_MODEL)[0] == 0
    code, out, _ = cli(capsys, *demo, "show", vendor, "--json")
    assert json.loads(out)["content"] == "The vendor account moved"
    code, out, _ = cli(capsys, *demo, "show", demo_id("main-trip"), "--json")
    assert json.loads(out)["is_active"] is False
    assert json.loads(config.read_text()) == edited
