"""The store as a whole: ``status`` (which configuration, store, agent, collection and
model are in use) and ``collections`` (every collection: aliases, format, model)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from amem_tui.cli.command import Command

if TYPE_CHECKING:
    from amem_tui.cli.context import Context


# -------------------------------------------------------------------- status
def status(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """Which configuration file, store, agent and collection are in use, and their model."""
    ctx.reading_scope()  # a mistyped --agent (or mem0 user) is named on stderr
    return ctx.engine.status().model_dump()


def status_text(data: dict[str, Any]) -> str:
    """One labelled line per fact, and a hint when the collection does not exist."""
    lines = [
        f"configuration: {data['config_file'] or 'none found (defaults)'}",
        f"store:         {data['store']}{' (read-only)' if data['read_only'] else ''}",
        f"agent:         {data['agent']} (Mode {data['mode']}, collection {data['collection']})",
    ]
    if data.get("user") is not None or data.get("namespace") is not None:
        lines.append(
            f"user:          {data['user']} (reads user_id {data['namespace']}, "
            f"{data['view']} view)"
        )
    if data["collection"] != data["resolved_collection"]:
        lines.append(f"alias:         {data['collection']} -> {data['resolved_collection']}")
    lines.append(f"format:        {data['format']}")
    lines.append(f"embeddings:    {data['model']}")
    if data.get("exists"):
        built_by = data.get("collection_model")
        source = data.get("model_source", "none")
        named = f"{built_by} (from {source})" if built_by else "not named by anything"
        lines.append(f"built with:    {named}")
    lines.append(f"search:        {'vector' if data['searchable'] else 'keyword only'}")
    lines.append(f"               {data['model_reason']}")
    if not data["exists"] and data["collections"]:
        names = ", ".join(data["collections"])
        lines.append(f"hint:          the store holds {names}; choose one with --collection")
    return "\n".join(lines)


# --------------------------------------------------------------- collections
def collections(ctx: Context, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Every collection: aliases, format, embedding model, who uses it."""
    return [view.model_dump() for view in ctx.engine.collections()]


def collections_text(rows: list[dict[str, Any]]) -> str:
    """One line per collection (and why it cannot be searched by vector, if so)."""
    lines = []
    for row in rows:
        if not row["exists"]:
            lines.append(f"{row['name']}  (configured, does not exist yet)")
            continue
        if row.get("bookkeeping"):
            lines.append(
                f"{row['name']}: {row['points']} points, {row['bookkeeping']}; "
                "holds no memories, never searched or written"
            )
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


COMMANDS: tuple[Command[Any], ...] = (
    Command(
        "status",
        "which configuration, store, collection and model are in use",
        handler=status,
        text=status_text,
    ),
    Command(
        "collections",
        "list collections with aliases, format and embedding model",
        handler=collections,
        text=collections_text,
    ),
)
