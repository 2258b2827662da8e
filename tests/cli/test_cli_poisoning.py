"""Poisoning signals through the CLI: shared notes filtered by owner, low-quality
listings, edits refused when the note changed elsewhere, and bad patterns named."""

from __future__ import annotations

import json
from pathlib import Path

from amem_tui.engine.store.qdrant import QdrantStore
from tests.support.cli import one_error_line, run
from tests.support.engines import make_engine
from tests.support.hostile_corpus import INSTRUCTION_LIKE


def test_cli_owner_filter_low_quality_and_expect_hash(tmp_path: Path) -> None:
    store = str(tmp_path / "store")
    with make_engine(QdrantStore(path=store)) as engine:
        engine.agent("main").add("Shared by main: deploys happen on Tuesdays", shared=True)
        poison = engine.agent("dev").add(INSTRUCTION_LIKE[0], shared=True)
        note = engine.agent("main").add("Main's private checklist for the release")
    listed = run(["list", "--scope", "shared", "--owner", "dev", "--store", store], tmp_path)
    assert listed.returncode == 0, listed.stderr
    text = listed.stdout.decode()
    assert poison.id in text and "owner=dev" in text and "low quality" in text
    assert "Tuesdays" not in text
    flagged = run(["list", "--low-quality", "--json", "--store", store], tmp_path)
    assert [n["id"] for n in json.loads(flagged.stdout)["notes"]] == [poison.id]

    stale_args = ["update", note.id, "--content", "A stale edit", "--expect-hash", "0" * 32]
    stale = run([*stale_args, "--store", store], tmp_path)
    assert "changed elsewhere" in one_error_line(stale, 2)
    fresh_args = ["update", note.id, "--content", "A fresh edit of it", "--expect-hash", note.hash]
    fresh = run([*fresh_args, "--store", store, "--json"], tmp_path)
    assert fresh.returncode == 0 and json.loads(fresh.stdout)["content"] == "A fresh edit of it"


def test_cli_bad_pattern_from_the_environment(tmp_path: Path) -> None:
    result = run(["list"], tmp_path, AMEM_LOW_QUALITY_PATTERNS="ok pattern\n(unclosed")
    line = one_error_line(result, 2)
    assert "AMEM_LOW_QUALITY_PATTERNS" in line and "(unclosed" in line
