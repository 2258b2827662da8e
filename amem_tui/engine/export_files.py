"""Export files: a collection's records written to a file whole or not at all, and an
export read back as the JSON Lines ``transfer.import_lines`` takes (the format itself,
one record a line, is ``transfer``'s)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from amem_tui.engine.errors import InvalidInput
from amem_tui.engine.transfer import dump_line


def write_export(records: Iterable[dict[str, Any]], path: Path) -> int:
    """The ``records`` as a JSON Lines file at ``path``, moved into place only when
    complete; how many were written."""
    count = 0
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        with tmp.open("w", encoding="utf-8", newline="\n") as handle:
            for record in records:
                handle.write(dump_line(record) + "\n")
                count += 1
        tmp.replace(path)
    except OSError as exc:
        raise InvalidInput(f"cannot write {path}: {exc.strerror or exc}") from exc
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    return count


def json_lines(lines: Iterable[str]) -> Iterator[str]:
    """JSON Lines, or the array ``export --json`` writes, as JSON Lines in which every
    record keeps its line number."""
    array: bool | None = None
    for line in lines:
        if array is None and line.strip():
            array = line.strip() == "["
            if array:
                yield "\n"
                continue
        if not array:
            yield line
            continue
        record = line.strip()
        if record == "]":
            yield "\n"
            continue
        yield record.removesuffix(",") + "\n"


def decoded(lines: Iterable[bytes]) -> Iterator[str]:
    """Lines of bytes as text, a BOM dropped; bad UTF-8 kept for the line's rejection."""
    first = True
    for line in lines:
        if first:
            line, first = line.removeprefix(b"\xef\xbb\xbf"), False
        yield line.decode("utf-8", "surrogateescape")


def export_records(lines: Iterable[bytes]) -> Iterator[str]:
    """An export's lines of bytes (a file's, standard input's) as ``import_lines``
    reads them (see ``json_lines`` and ``decoded``)."""
    return json_lines(decoded(lines))


class ExportFile:
    """The records of an export file, read afresh each time (an import reads them
    twice, so that a large file never sits in memory)."""

    def __init__(self, name: str) -> None:
        self.path = Path(name).expanduser()

    def __iter__(self) -> Iterator[str]:
        try:
            with self.path.open("rb") as handle:
                yield from export_records(handle)
        except FileNotFoundError as exc:
            raise InvalidInput(f"{self.path}: file not found") from exc
        except OSError as exc:
            raise InvalidInput(f"{self.path}: cannot be read ({exc.strerror or exc})") from exc
