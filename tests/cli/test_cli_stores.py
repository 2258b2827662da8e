"""The real-store subcommands through the CLI: status, collections, audit, export, import,
configuration discovery and --read-only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from amem_tui.cli import main
from amem_tui.engine.embed import TEST_MODEL
from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.cli import in_this_process as run
from tests.support.paths import REPO_ROOT
from tests.support.real_stores import (
    AMEM_REAL,
    BAD_NO_AGENT,
    MALFORMED,
    MEM0_SMALL,
    SANDBOX,
    amem_payload,
    amem_points,
    build_real_store,
    nid,
    snapshot,
)


@pytest.fixture
def store_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder store written as openclaw-amem and mem0 would, and an openclaw.json in
    the (test) home folder naming main, dev and the Mode B sandbox."""
    path = tmp_path / "store"
    store = QdrantStore(path=str(path))
    build_real_store(store.client)
    store.close()
    monkeypatch.setenv("AMEM_MODEL", TEST_MODEL)
    config = Path(os.environ["HOME"]) / ".openclaw" / "openclaw.json"
    config.parent.mkdir(parents=True)
    config.write_text(
        json.dumps(
            {
                "plugins": {
                    "entries": {
                        "openclaw-amem": {
                            "config": {
                                "agentId": "main",
                                "agents": {
                                    "dev": {"agentId": "dev"},
                                    "sandbox": {"agentId": "sandbox", "collection": SANDBOX},
                                },
                            }
                        }
                    }
                }
            }
        )
    )
    return path


def amem_ids() -> list[str]:
    return list(amem_points())


def read_store(path: Path) -> dict[str, object]:
    store = QdrantStore(path=str(path))
    try:
        return snapshot(store.client)
    finally:
        store.close()


def test_discovered_configuration_is_named(
    store_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = str(Path(os.environ["HOME"]) / ".openclaw" / "openclaw.json")
    code, out, _ = run(capsys, "agents", "--store", str(store_dir))
    assert code == 0
    assert out.splitlines()[-1] == f"configuration: {config}"
    assert "sandbox          Mode B  amem_notes_sandbox" in out
    code, out, _ = run(capsys, "agents", "--store", str(store_dir), "--json")
    assert [r["agent"] for r in json.loads(out)] == ["main", "dev", "sandbox", "ops"]
    code, out, _ = run(capsys, "status", "--store", str(store_dir), "--json")
    status = json.loads(out)
    assert status["config_file"] == config
    assert (status["collection"], status["resolved_collection"]) == ("amem_notes", AMEM_REAL)
    assert status["searchable"] is False and "bge-m3" in status["model_reason"]
    code, out, _ = run(capsys, "status", "--store", str(store_dir))
    assert f"configuration: {config}" in out
    assert "search:        keyword only" in out
    code, out, _ = run(capsys, "status", "--store", str(store_dir), "--collection", "amem")
    assert "hint:          the store holds amem_notes_sandbox, amem_notes_v2, mem0" in out


def test_collections_and_audit(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = read_store(store_dir)
    code, out, _ = run(capsys, "collections", "--store", str(store_dir), "--json")
    assert code == 0
    views = {v["name"]: v for v in json.loads(out)}
    assert views[AMEM_REAL]["aliases"] == ["amem_notes"]
    assert views[MEM0_SMALL]["format"] == "mem0"
    code, out, _ = run(capsys, "audit", "--store", str(store_dir), "--json")
    report = json.loads(out)
    assert {m["id"] for m in report["malformed"]} == MALFORMED
    assert [a["agent"] for a in report["unconfigured_agents"]] == ["ops"]
    assert report["config_file"].endswith("openclaw.json")
    code, out, _ = run(capsys, "audit", "--store", str(store_dir))
    assert "malformed points (6)" in out and BAD_NO_AGENT in out
    code, out, _ = run(capsys, "audit", "--all", "--store", str(store_dir), "--json")
    assert {c["name"] for c in json.loads(out)["collections"]} >= {AMEM_REAL, MEM0_SMALL}
    for argv in (
        ("search", "deploy frozen", "--agent", "dev", "--hidden", "--explain"),
        ("search", "pnpm workspace", "--agent", "dev", "--collection", MEM0_SMALL),
        ("list", "--agent", "ops", "--scope", "visible"),
        ("show", amem_ids()[0]),
        ("agents",),
        ("status",),
        ("export", "--vectors"),
    ):
        code, out, _ = run(capsys, *argv, "--store", str(store_dir), "--json")
        assert code in (0, 4), argv
    assert read_store(store_dir) == before  # reading changed nothing, byte for byte


def test_export_import_round_trip_through_the_cli(
    store_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    export = tmp_path / "notes.jsonl"
    code, out, _ = run(capsys, "export", "--store", str(store_dir), "--output", str(export))
    assert code == 0 and f"exported {len(amem_points())} points" in out
    records = [json.loads(line) for line in export.read_text().splitlines()]
    assert {r["id"]: r["payload"] for r in records} == amem_points()
    # Stdout export: only the lines; with --json, the same records as one JSON array.
    code, out, _ = run(capsys, "export", "--store", str(store_dir))
    assert [json.loads(line) for line in out.splitlines()] == records
    code, out, _ = run(capsys, "export", "--store", str(store_dir), "--json")
    assert json.loads(out) == records
    as_array = tmp_path / "notes.json"
    as_array.write_text(out, encoding="utf-8")
    # The malformed points are refused by name and line; nothing is written.
    fresh = tmp_path / "fresh"
    code, out, err = run(
        capsys, "import", str(export), "--store", str(fresh), "--collection", "amem_notes"
    )
    assert code == 2
    assert "nothing was written" in err
    rejected = [
        line for line in out.splitlines() if "rejected" in line and line.startswith("line ")
    ]
    assert len(rejected) == len(MALFORMED)
    assert read_store(fresh) == {}
    # With --skip-invalid the rest lands, payloads unchanged.
    code, out, _ = run(
        capsys, "import", str(export), "--skip-invalid", "--store", str(fresh), "--json"
    )
    assert code == 0
    result = json.loads(out)
    assert result["written"] == len(amem_points()) - len(MALFORMED)
    restored = dict((pid, payload) for pid, payload, _ in read_store(fresh)["amem_notes"])
    assert restored == {
        pid: json.dumps(p, sort_keys=True)
        for pid, p in amem_points().items()
        if pid not in MALFORMED
    }
    # The array that export --json writes imports alike, line numbers and all.
    again = tmp_path / "again"
    code, out, _ = run(
        capsys, "import", str(as_array), "--store", str(again), "--collection", "amem_notes"
    )
    assert code == 2 and len([line for line in out.splitlines() if " rejected (" in line]) == len(
        MALFORMED
    )
    code, out, _ = run(
        capsys, "import", str(as_array), "--skip-invalid", "--store", str(again), "--json"
    )
    assert code == 0 and json.loads(out)["written"] == result["written"]
    code, out, _ = run(capsys, "export", "--store", str(again), "--json")
    assert {r["id"]: r["payload"] for r in json.loads(out)} == {
        pid: p for pid, p in amem_points().items() if pid not in MALFORMED
    }


def test_read_only_cli_refuses_writes_with_exit_3(
    store_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = read_store(store_dir)
    line = json.dumps(
        {
            "id": nid(500),
            "payload": amem_payload("Note to import here", "main", "main", ["main"], ["main"]),
        }
    )
    imp = tmp_path / "one.jsonl"
    imp.write_text(line + "\n")
    for argv in (
        ("add", "A note that must be refused"),
        ("delete", nid(1)),
        ("publish", nid(1)),
        ("import", str(imp)),
        ("demo", "--no-tui"),
        ("update", nid(1), "--content", "Changed content of the note"),
        ("restore", nid(6)),
        ("unpublish", nid(2)),
        ("consolidate",),
        ("undo", nid(900)),
    ):
        code, _, err = run(capsys, *argv, "--store", str(store_dir), "--read-only")
        assert code == 3, argv
        assert "read-only" in err and "Traceback" not in err
    code, out, _ = run(capsys, "list", "--store", str(store_dir), "--read-only", "--json")
    assert code == 0 and json.loads(out)["notes"]
    assert read_store(store_dir) == before


def test_mem0_collection_write_is_refused_in_a_real_process(store_dir: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "amem_tui",
            "add",
            "A note for a mem0 collection",
            "--store",
            str(store_dir),
            "--collection",
            MEM0_SMALL,
        ],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 3
    assert "mem0" in proc.stderr and "Traceback" not in proc.stderr


def test_mem0_collection_lists_through_the_cli(
    store_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ("list", "--agent", "dev", "--json", "--store", str(store_dir))
    code, out, _ = run(capsys, *argv, "--collection", MEM0_SMALL)
    assert code == 0
    listed = json.loads(out)
    assert "The dev agent uses pnpm for the web workspace" in {
        n.get("content") for n in listed["notes"]
    }
    assert all(n["agent_id"] == "dev" for n in listed["notes"])


def test_import_shows_progress_on_a_terminal_and_reports_its_rate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from amem_tui.engine.formats.openclaw import openclaw_payload

    export = tmp_path / "export.jsonl"
    export.write_text(
        "".join(
            json.dumps(
                {
                    "id": str(i + 1),
                    "payload": openclaw_payload(
                        f"A note to import, number {i}", agent_id="main", owner="main"
                    ),
                }
            )
            + "\n"
            for i in range(5)
        ),
        encoding="utf-8",
    )
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code = main(["--store", str(tmp_path / "store"), "import", str(export)])
    out, err = capsys.readouterr()
    assert code == 0
    assert "import: writing notes 5/5" in err and "notes/s" in err  # the progress line
    assert "5 notes in" in out and "notes/s" in out  # the rate, in the report
    code = main(["--store", str(tmp_path / "again"), "import", str(export), "--json"])
    out, _ = capsys.readouterr()
    assert code == 0 and json.loads(out)["notes_per_second"] > 0
