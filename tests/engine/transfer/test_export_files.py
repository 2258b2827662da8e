"""Export files through the apps' module: written whole and read back as the records
``import_lines`` takes, whether the file is JSON Lines or the array ``export --json``
writes, a BOM dropped and every record on its own line number."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amem_tui.engine import InvalidInput
from amem_tui.engine.for_apps import ExportFile, export_records, write_export


def test_an_export_file_reads_back_as_its_records(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    records = [{"id": "a", "payload": {"content": "x\u2028y"}}, {"id": "b", "payload": {}}]
    assert write_export(records, path) == 2
    assert [json.loads(line) for line in ExportFile(str(path))] == records
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left behind


def test_the_json_array_and_a_bom_read_as_json_lines_keeping_line_numbers() -> None:
    array = [b"\xef\xbb\xbf[\n", b'  {"id": "a"},\n', b'  {"id": "b"}\n', b"]\n"]
    assert list(export_records(array)) == ["\n", '{"id": "a"}\n', '{"id": "b"}\n', "\n"]
    assert list(export_records([b'{"id": "a"}\n', b"\xff\n"])) == ['{"id": "a"}\n', "\udcff\n"]


def test_a_missing_file_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="file not found"):
        list(ExportFile(str(tmp_path / "nope.jsonl")))
