"""Subcommands for real stores: ``status``, ``collections``, ``audit``, ``export``, ``import``.

Registered on import by :mod:`amem_tui.cli_extensions`.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from amem_tui import cli
from amem_tui.cli import Context, command
from amem_tui.engine.errors import AmemError, InvalidInput


# -------------------------------------------------------------------- status
def _status_text(data: dict[str, Any]) -> str:
    lines = [
        f"configuration: {data['config_file'] or 'none found (defaults)'}",
        f"store:         {data['store']}{' (read-only)' if data['read_only'] else ''}",
        f"agent:         {data['agent']} (Mode {data['mode']}, collection {data['collection']})",
    ]
    if data["collection"] != data["resolved_collection"]:
        lines.append(f"alias:         {data['collection']} -> {data['resolved_collection']}")
    lines.append(f"format:        {data['format']}")
    lines.append(f"embeddings:    {data['model']}")
    lines.append(f"search:        {'vector' if data['searchable'] else 'keyword only'}")
    lines.append(f"               {data['model_reason']}")
    if not data["exists"] and data["collections"]:
        names = ", ".join(data["collections"])
        lines.append(f"hint:          the store holds {names}; choose one with --collection")
    return "\n".join(lines)


@command("status", _status_text)
def cmd_status(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """Which configuration file, store, agent and collection are in use, and their model."""
    engine = ctx.engine
    settings = ctx.settings
    scope = engine.scope()
    usable, reason = engine.model_status(scope.collection)
    return {
        "config_file": str(settings.config_file) if settings.config_file else None,
        "store": settings.store_label,
        "read_only": engine.read_only,
        "agent": scope.agent,
        "mode": scope.mode,
        "collection": scope.collection,
        "resolved_collection": engine.store.resolve_alias(scope.collection),
        "exists": engine.store.collection_info(scope.collection) is not None,
        "collections": engine.store.list_collections(),
        "format": engine.collection_format(scope.collection),
        "model": engine.embedder.model_name,
        "searchable": usable,
        "model_reason": reason,
    }


# --------------------------------------------------------------- collections
def _collections_text(rows: list[dict[str, Any]]) -> str:
    lines = []
    for row in rows:
        if not row["exists"]:
            lines.append(f"{row['name']}  (configured, does not exist yet)")
            continue
        aliases = f" alias {', '.join(row['aliases'])}" if row["aliases"] else ""
        used = f" used by {', '.join(row['used_by'])}" if row["used_by"] else ""
        model = row["model"] or "unknown model"
        ro = f"; read-only: {row['read_only_reason']}" if row["read_only"] else ""
        lines.append(
            f"{row['name']}{aliases}: {row['points']} points, {row['format']}, "
            f"{model} ({row['vector_size']} dims, from {row['model_source']}){used}{ro}"
        )
        if not row["searchable"]:
            lines.append(f"  {row['model_reason']}")
    return "\n".join(lines) or "no collections"


@command("collections", _collections_text)
def cmd_collections(ctx: Context, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Every collection: aliases, format, embedding model, who uses it."""
    return [view.model_dump() for view in ctx.engine.collections()]


# --------------------------------------------------------------------- audit
def _refs(title: str, refs: list[dict[str, Any]]) -> list[str]:
    lines = [f"{title} ({len(refs)})"]
    for ref in refs:
        state = "" if ref["active"] else " (soft-deleted)"
        lines.append(
            f"  {ref['id']}{state}  agent_id={ref['agent_id']} owner={ref['owner']} "
            f"readers={ref['readers']}  {ref['content']}"
        )
    return lines


def _audit_text(data: dict[str, Any]) -> str:
    lines = [
        f"configuration: {data['config_file'] or 'none found (defaults)'}",
        f"store: {data['store']}",
    ]
    for col in data["collections"]:
        search = "vector search" if col["searchable"] else "keyword search only"
        lines.append(f"collection {col['name']}: {col['points']} points, {col['format']}, {search}")
    shared = data["shared_by_owner"]
    lines.append(f"shared notes by owner ({sum(len(v) for v in shared.values())})")
    for owner in sorted(shared):
        lines += ["  " + line for line in _refs(f"owner {owner}", shared[owner])]
    lines += _refs("notes whose readers go beyond their owner", data["readers_beyond_owner"])
    lines.append(f"malformed points ({len(data['malformed'])})")
    for bad in data["malformed"]:
        lines.append(f"  {bad['id']} in {bad['collection']}: {'; '.join(bad['problems'])}")
    lines.append(f"legacy notes ({len(data['legacy'])})")
    for old in data["legacy"]:
        lines.append(
            f"  {old['id']} in {old['collection']}: no {', '.join(old['missing'])}; "
            f"derived owner={old['owner']} readers={old['readers']} writers={old['writers']}"
        )
    lines.append(f"links that cross scopes ({len(data['cross_scope_links'])})")
    for link in data["cross_scope_links"]:
        if link["kind"] == "missing":
            lines.append(f"  {link['source']} -> {link['target']}: no such note here")
        else:
            lines.append(
                f"  {link['source']} -> {link['target']}: readers {link['source_readers']} "
                f"-> {link['target_readers']}; hidden from {link['exposed_to']}"
            )
    lines.append(
        f"agents in the store but not in the configuration ({len(data['unconfigured_agents'])})"
    )
    for agent in data["unconfigured_agents"]:
        bad = "" if agent["valid_id"] else " (not a valid agent id)"
        lines.append(
            f"  {agent['agent']}{bad}: {agent['notes']} notes in {', '.join(agent['collections'])}"
        )
    return "\n".join(lines)


@command("audit", _audit_text)
def cmd_audit(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """Shared notes by owner, wide readers, malformed and legacy points, cross-scope links."""
    engine = ctx.engine
    return engine.audit(all_collections=args.all).model_dump()


# -------------------------------------------------------------------- export
def _export_text(data: dict[str, Any]) -> str:
    if data.get("file") is None:
        return ""
    vectors = " with vectors" if data["vectors"] else ""
    return f"exported {data['points']} points{vectors} from {data['collection']} to {data['file']}"


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


@command("export", _export_text)
def cmd_export(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """Write a collection as JSON Lines (payloads and ids; vectors with --vectors)."""
    from amem_tui.engine.transfer import dump_line

    engine = ctx.engine
    collection = engine.store.resolve_alias(ctx.settings.collection)
    count = 0

    def write(handle: TextIO) -> None:
        nonlocal count
        for record in engine.export_lines(collection, vectors=args.vectors):
            handle.write(dump_line(record) + "\n")
            count += 1

    if args.output and args.output != "-":
        path = Path(args.output).expanduser()
        try:
            with _atomic_text(path) as handle:
                write(handle)
        except OSError as exc:
            raise InvalidInput(f"cannot write {path}: {exc.strerror or exc}") from exc
        return {
            "collection": collection,
            "file": str(path),
            "points": count,
            "vectors": args.vectors,
        }
    write(sys.stdout)
    sys.stdout.flush()
    args.json = False  # stdout holds the lines: no summary after them
    return {"collection": collection, "file": None, "points": count, "vectors": args.vectors}


# -------------------------------------------------------------------- import
def _import_text(data: dict[str, Any]) -> str:
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
    if data["error"]:
        lines.append(f"stopped: {data['error']}")
    return "\n".join(lines)


def _open_input(name: str) -> Iterator[str]:
    if name == "-":
        yield from sys.stdin
        return
    path = Path(name).expanduser()
    try:
        with path.open(encoding="utf-8-sig") as handle:  # a leading BOM is tolerated
            yield from handle
    except FileNotFoundError as exc:
        raise InvalidInput(f"{path}: file not found") from exc
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{path}: not UTF-8 text ({exc.reason})") from exc
    except OSError as exc:
        raise InvalidInput(f"{path}: cannot be read ({exc.strerror or exc})") from exc


@command("import", _import_text)
def cmd_import(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """Validate a JSON Lines export, then write it (nothing at all if a line is rejected)."""
    engine = ctx.engine
    collection = engine.store.resolve_alias(ctx.settings.collection)
    if not args.dry_run:
        engine.check_writable(collection)  # refuse before reading a single line
    lines = list(_open_input(args.file))
    result = engine.import_lines(
        lines,
        collection,
        source=args.file,
        skip_invalid=args.skip_invalid,
        replace=args.replace,
        dry_run=args.dry_run,
    )
    data = result.model_dump()
    if result.error or (result.rejected and not args.skip_invalid and not args.dry_run):
        # Print the full report first, then fail with one line on stderr.
        cli._print(data, bool(getattr(args, "json", False)), _import_text)
        args.json = False
        if result.error:
            raise AmemError(f"import stopped: {result.error}")
        raise InvalidInput(
            f"import refused: {len(result.rejected)} of {result.lines} lines rejected; "
            "nothing was written (fix them, or pass --skip-invalid)"
        )
    return data


# ------------------------------------------------------------------- parsers
def extend(sub: Any, add: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add the subcommands' parsers to ``amem-tui``."""
    add("status", "which configuration, store, collection and model are in use")
    add("collections", "list collections with aliases, format and embedding model")
    p = add("audit", "shared notes by owner, malformed and legacy points, cross-scope links")
    p.add_argument("--all", action="store_true", help="audit every collection in the store")
    p = add("export", "write a collection as JSON Lines")
    p.add_argument("--vectors", action="store_true", help="include each point's vector")
    p.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of stdout")
    p = add("import", "validate and load a JSON Lines export")
    p.add_argument("file", metavar="FILE", help="the JSON Lines file ('-' for stdin)")
    p.add_argument(
        "--skip-invalid", action="store_true", help="write the valid lines, report the rest"
    )
    p.add_argument("--replace", action="store_true", help="overwrite notes whose id exists")
    p.add_argument("--dry-run", action="store_true", help="validate only, write nothing")


cli.EXTENSIONS.append(extend)
