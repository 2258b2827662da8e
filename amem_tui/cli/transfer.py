"""Moving notes in and out: ``export`` a collection as JSON Lines, ``import`` such a
file (validated first: nothing is written while a line is rejected)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TextIO

from amem_tui.cli.command import Command, FailedWithReport
from amem_tui.engine.errors import AmemError, InvalidInput

if TYPE_CHECKING:
    from amem_tui.cli.context import Context


def real_collection(ctx: Context) -> str:
    """The collection ``--collection`` names, its alias resolved (the name written into
    reports, and the one import writes to)."""
    # ENGINE-SEAM: MemoryEngine.resolve_collection(name) -> str. Until the facade offers
    # it, the facts of the collection (read through a scope on it) carry its real name.
    from amem_tui.engine.scope import AgentScope

    name = ctx.settings.collection
    info = ctx.engine.collection_info(AgentScope("export", "A", name))
    return info.name if info is not None else name


# -------------------------------------------------------------------- export
def export_arguments(parser: argparse.ArgumentParser) -> None:
    """``export [--vectors] [--output FILE]``."""
    parser.add_argument("--vectors", action="store_true", help="include each point's vector")
    parser.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of stdout")


@contextlib.contextmanager
def _atomic_text(path: Path) -> Iterator[TextIO]:
    """Write a file under a temporary name and move it into place only when complete."""
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        with tmp.open("w", encoding="utf-8", newline="\n") as handle:
            yield handle
        tmp.replace(path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def export(ctx: Context, args: argparse.Namespace) -> dict[str, Any] | None:
    """Write a collection as JSON Lines (payloads and ids; vectors with --vectors).

    Written to standard output, the lines are the whole answer: it returns None so
    that no summary follows them, even with --json.
    """
    from amem_tui.engine.transfer import dump_line  # the export line format

    engine = ctx.engine
    collection = real_collection(ctx)
    count = 0

    def write(handle: TextIO) -> None:
        nonlocal count
        for record in engine.export_lines(collection, vectors=args.vectors):
            handle.write(dump_line(record) + "\n")
            count += 1

    if not args.output or args.output == "-":
        write(sys.stdout)
        return None
    path = Path(args.output).expanduser()
    try:
        with _atomic_text(path) as handle:
            write(handle)
    except OSError as exc:
        raise InvalidInput(f"cannot write {path}: {exc.strerror or exc}") from exc
    return {"collection": collection, "file": str(path), "points": count, "vectors": args.vectors}


def export_text(data: dict[str, Any] | None) -> str:
    """How many points went from which collection to which file."""
    if data is None:
        return ""
    vectors = " with vectors" if data["vectors"] else ""
    return f"exported {data['points']} points{vectors} from {data['collection']} to {data['file']}"


# -------------------------------------------------------------------- import
def import_arguments(parser: argparse.ArgumentParser) -> None:
    """``import FILE [--skip-invalid] [--replace] [--dry-run]``."""
    parser.add_argument("file", metavar="FILE", help="the JSON Lines file ('-' for stdin)")
    parser.add_argument(
        "--skip-invalid", action="store_true", help="write the valid lines, report the rest"
    )
    parser.add_argument("--replace", action="store_true", help="overwrite notes whose id exists")
    parser.add_argument("--dry-run", action="store_true", help="validate only, write nothing")


class ImportFile:
    """The lines of an import file, read afresh each time (the import reads them twice);
    a read error is bad input."""

    def __init__(self, name: str) -> None:
        self.path = Path(name).expanduser()

    def __iter__(self) -> Iterator[str]:
        try:
            with self.path.open(encoding="utf-8-sig") as handle:  # a leading BOM is tolerated
                yield from handle
        except FileNotFoundError as exc:
            raise InvalidInput(f"{self.path}: file not found") from exc
        except UnicodeDecodeError as exc:
            raise InvalidInput(f"{self.path}: not UTF-8 text ({exc.reason})") from exc
        except OSError as exc:
            raise InvalidInput(f"{self.path}: cannot be read ({exc.strerror or exc})") from exc


class ProgressLine:
    """An import's progress as one line on a terminal's stderr, rewritten in place.

    Only for a terminal: redirected stderr (and JSON on stdout) stays clean.
    """

    PHASES: ClassVar[dict[str, str]] = {
        "reading": "checking lines",
        "writing": "writing notes",
        "optimizing": "merging segments, building the graph",
        "indexing": "saving the keyword index",
    }

    def __init__(self) -> None:
        self.shown = sys.stderr.isatty()
        self.started = time.perf_counter()
        self.last = 0.0

    def __call__(self, phase: str, done: int, total: int) -> None:
        if not self.shown:
            return
        now = time.perf_counter()
        if now - self.last < 0.1 and done != total:  # a few updates a second is plenty
            return
        self.last = now
        label = self.PHASES.get(phase, phase)
        count = f" {done:,}/{total:,}" if total and phase in ("reading", "writing") else ""
        if phase == "reading" and not total:
            count = f" {done:,}"
        rate = ""
        if phase == "writing" and done:
            rate = f" ({done / max(now - self.started, 1e-9):,.0f} notes/s)"
        elapsed = f" [{now - self.started:.0f} s]"
        sys.stderr.write(f"\r\x1b[2Kimport: {label}{count}{rate}{elapsed}")
        sys.stderr.flush()

    def close(self) -> float:
        """End the line; the seconds the import took."""
        if self.shown:
            sys.stderr.write("\r\x1b[2K")
            sys.stderr.flush()
        return time.perf_counter() - self.started


def import_notes(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """Validate a JSON Lines export, then write it (nothing at all if a line is rejected)."""
    engine = ctx.engine
    collection = real_collection(ctx)
    if not args.dry_run:
        engine.check_writable(collection)  # refuse before reading a single line
    lines: Iterable[str] = list(sys.stdin) if args.file == "-" else ImportFile(args.file)
    progress = ProgressLine()
    try:
        result = engine.import_lines(
            lines,
            collection,
            source=args.file,
            skip_invalid=args.skip_invalid,
            replace=args.replace,
            dry_run=args.dry_run,
            progress=progress,
        )
    finally:
        seconds = progress.close()
    data = result.model_dump()
    data["seconds"] = round(seconds, 3)
    data["notes_per_second"] = (
        round(result.written / seconds, 1) if seconds and result.written else None
    )
    if result.error:
        raise FailedWithReport(data, AmemError(f"import stopped: {result.error}"))
    if result.rejected and not args.skip_invalid and not args.dry_run:
        refusal = InvalidInput(
            f"import refused: {len(result.rejected)} of {result.lines} lines rejected; "
            "nothing was written (fix them, or pass --skip-invalid)"
        )
        raise FailedWithReport(data, refusal)
    return data


def import_text(data: dict[str, Any]) -> str:
    """Each rejected line, then what was (or would be) written, and why it stopped."""
    lines = []
    for bad in data["rejected"]:
        lines.append(
            f"line {bad['line']}: rejected ({bad['reason']})"
            + (f" id {bad['id']}" if bad["id"] else "")
        )
    if data["dry_run"]:
        verb = "would write"
        count = data["valid"]
    else:
        verb = "wrote"
        count = data["written"]
    lines.append(
        f"{data['file']}: {data['lines']} lines, {data['valid']} valid, "
        f"{len(data['rejected'])} rejected; {verb} {count} notes to {data['collection']} "
        f"({data['vectors_kept']} with their vectors, {data['reembedded']} re-embedded)"
    )
    if data.get("notes_per_second"):
        lines.append(
            f"{data['written']} notes in {data['seconds']:.1f} s ({data['notes_per_second']:,.0f} "
            "notes/s, the store optimized and its keyword index saved)"
        )
    if data["error"]:
        lines.append(f"stopped: {data['error']}")
    return "\n".join(lines)


COMMANDS: tuple[Command[Any], ...] = (
    Command(
        "export",
        "write a collection as JSON Lines",
        handler=export,
        text=export_text,
        arguments=export_arguments,
    ),
    Command(
        "import",
        "validate and load a JSON Lines export",
        handler=import_notes,
        text=import_text,
        arguments=import_arguments,
    ),
)
