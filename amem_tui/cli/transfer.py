"""Moving notes in and out: ``export`` a collection as JSON Lines, ``import`` such a
file (validated first: nothing is written while a line is rejected)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from amem_tui.cli.command import Command, Context, FailedWithReport
from amem_tui.cli.options import flag, option
from amem_tui.cli.output import JsonLines, LiveLine, flattened
from amem_tui.engine import AmemError, InvalidInput
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine import ImportResult, MemoryEngine
else:
    ImportResult = Any  # a model dumped as itself: see output.emit


# -------------------------------------------------------------------- export
@dataclass(frozen=True)
class ExportOptions:
    """``export``: with vectors or not, to a file or (``None``, ``-``) to stdout."""

    vectors: bool = flag("--vectors", help="include each point's vector")
    output: str | None = option("--output", "-o", metavar="FILE", help="write to FILE")
    all: bool = flag("--all", help="every collection, to --output FOLDER")


@dataclass(frozen=True)
class Exported:
    """An export written to a file."""

    collection: str
    file: str
    points: int
    vectors: bool


@dataclass(frozen=True)
class ExportLines(JsonLines):
    """An export to stdout: the records themselves, read from the store as written."""

    engine: MemoryEngine
    collection: str
    vectors: bool

    def lines(self) -> Iterator[str]:
        """Each point as one JSON line (see ``amem_tui.engine.transfer.dump_line``)."""
        from amem_tui.engine.for_apps import dump_line

        for record in self.engine.export_lines(self.collection, vectors=self.vectors):
            yield dump_line(record)


@dataclass(frozen=True)
class ExportedAll:
    """``export --all``: one file per collection in one folder."""

    folder: str
    exports: list[Exported]


def _write_export(engine: MemoryEngine, collection: str, path: Path, vectors: bool) -> Exported:
    """One collection into one JSON Lines file (see ``engine.export_files``)."""
    from amem_tui.engine.for_apps import write_export

    count = write_export(engine.export_lines(collection, vectors=vectors), path)
    return Exported(collection, str(path), count, vectors)


def export_all(ctx: Context, options: ExportOptions) -> ExportedAll:
    """Every collection of notes in the store, each to ``FOLDER/<collection>.jsonl``."""
    if not options.output or options.output == "-":
        raise InvalidInput("export --all writes one file per collection: pass --output FOLDER")
    engine = ctx.engine  # a store that is not there is said before a folder is made
    folder = Path(options.output).expanduser()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidInput(f"cannot create {folder}: {exc.strerror or exc}") from exc
    names = sorted(engine.note_collections())
    exports = [
        _write_export(engine, name, folder / f"{name}.jsonl", options.vectors) for name in names
    ]
    return ExportedAll(str(folder), exports)


def export_text(result: Exported | ExportLines | ExportedAll) -> Iterator[str]:
    """How many points went from which collection to which file."""
    if isinstance(result, ExportLines):
        return  # written as its lines
    if isinstance(result, ExportedAll):
        if not result.exports:
            yield f"no collections of notes to export; nothing written to {result.folder}"
        for one in result.exports:
            yield from export_text(one)
        return
    vectors = " with vectors" if result.vectors else ""
    points = plural(result.points, "point")
    yield f"exported {points}{vectors} from {result.collection} to {result.file}"


@Command("export", export_text, ExportOptions)
def export(ctx: Context, options: ExportOptions) -> Exported | ExportLines | ExportedAll:
    """Write a collection as JSON Lines."""
    if options.all:
        return export_all(ctx, options)
    engine = ctx.engine
    collection = engine.real_collection(ctx.settings.collection)
    if not options.output or options.output == "-":
        return ExportLines(engine, collection, options.vectors)
    return _write_export(engine, collection, Path(options.output).expanduser(), options.vectors)


# -------------------------------------------------------------------- import
class ProgressLine(LiveLine):
    """An import's progress line."""

    PHASES: ClassVar[dict[str, str]] = {
        "reading": "checking lines",
        "writing": "writing notes",
        "optimizing": "merging segments, building the graph",
        "indexing": "saving the keyword index",
    }

    def __init__(self) -> None:
        super().__init__("import")

    def __call__(self, phase: str, done: int, total: int) -> None:
        count = f" {done:,}/{total:,}" if total and phase in ("reading", "writing") else ""
        if phase == "reading" and not total:
            count = f" {done:,}"
        rate = ""
        if phase == "writing" and done:
            rate = f" ({done / max(time.perf_counter() - self.started, 1e-9):,.0f} notes/s)"
        self.show(f"{self.PHASES.get(phase, phase)}{count}{rate}", final=done == total)


@dataclass(frozen=True)
class ImportOptions:
    """``import``: the file (``-``: stdin), and what to do with bad lines and known ids."""

    file: str = option(metavar="FILE", help="a JSON Lines file ('-': stdin)")
    skip_invalid: bool = flag("--skip-invalid", help="write the valid lines, report the rest")
    replace: bool = flag("--replace", help="overwrite notes whose id exists")
    dry_run: bool = flag("--dry-run", help="validate only, write nothing")


@dataclass(frozen=True)
class Imported:
    """What an import found and did, how long it took and at what rate."""

    result: ImportResult
    seconds: float
    notes_per_second: float | None
    _json = flattened("result")


def import_text(imported: Imported) -> Iterator[str]:
    """Each rejected line, then what was written, and why it stopped."""
    result = imported.result
    for bad in result.rejected:
        yield f"line {bad.line}: rejected ({bad.reason})" + (f" id {bad.id}" if bad.id else "")
    found = (
        f"{result.file}: {plural(result.lines, 'line')}, {result.valid} valid, "
        f"{len(result.rejected)} rejected"
    )
    if result.dry_run:
        done = f"would write {plural(result.valid, 'note')} to {result.collection}"
        if result.valid:
            done += f" ({result.vectors_kept} with their vectors, {result.reembedded} to re-embed)"
    elif result.written:
        done = (
            f"wrote {plural(result.written, 'note')} to {result.collection} "
            f"({result.vectors_kept} with their vectors, {result.reembedded} re-embedded)"
        )
    else:
        done = f"wrote nothing to {result.collection}"
    yield f"{found}; {done}"
    if imported.notes_per_second:
        yield (
            f"{plural(result.written, 'note')} in {imported.seconds:.1f} s "
            f"({imported.notes_per_second:,.0f} notes/s, the store optimized and its keyword "
            "index saved)"
        )
    if result.error:
        yield f"stopped: {result.error}"


@Command("import", import_text, ImportOptions, creates=True)
def import_notes(ctx: Context, options: ImportOptions) -> Imported:
    """Validate and load a JSON Lines export."""
    engine = ctx.engine
    collection = engine.real_collection(ctx.settings.collection)
    if not options.dry_run:
        engine.check_writable(collection)  # refuse before reading a single line
    from amem_tui.engine.for_apps import ExportFile, export_records

    lines: Iterable[str] = (
        list(export_records(sys.stdin.buffer)) if options.file == "-" else ExportFile(options.file)
    )
    progress = ProgressLine()
    try:
        result = engine.import_lines(
            lines,
            collection,
            source=options.file,
            skip_invalid=options.skip_invalid,
            replace=options.replace,
            dry_run=options.dry_run,
            progress=progress,
        )
    finally:
        seconds = progress.close()
    rate = round(result.written / seconds, 1) if seconds and result.written else None
    imported = Imported(result, round(seconds, 3), rate)
    if result.error:
        raise FailedWithReport(imported, AmemError(f"import stopped: {result.error}"))
    if result.rejected and not options.skip_invalid and not options.dry_run:
        refusal = InvalidInput(
            f"import refused: {len(result.rejected)} of {plural(result.lines, 'line')} "
            "rejected; nothing was written (fix them, or pass --skip-invalid)"
        )
        raise FailedWithReport(imported, refusal)
    return imported
