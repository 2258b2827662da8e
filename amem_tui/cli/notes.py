"""Notes, one at a time: ``add``, ``publish``, ``unpublish``, ``show``, ``delete``,
``restore``, ``update``, and a page of them with ``list``.

Each answers with the note as JSON; its text is the note block of :mod:`.output`.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from amem_tui.cli.command import Command, UsageError, comma_list, text_argument
from amem_tui.cli.output import NoteJson, note_json, note_json_text

if TYPE_CHECKING:
    from amem_tui.cli.context import Context


# ----------------------------------------------------------- one note by id
def note_id_argument(parser: argparse.ArgumentParser) -> None:
    """The note a command acts on."""
    parser.add_argument("id")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``add TEXT [--shared] [--tags A,B]``."""
    parser.add_argument("text", help="the note's content; - reads it from standard input")
    parser.add_argument("--shared", action="store_true", help="publish to the shared scope")
    parser.add_argument("--tags", help="comma-separated tags")


def add_note(ctx: Context, args: argparse.Namespace) -> NoteJson:
    """Write a note (private unless --shared)."""
    tags = comma_list(args.tags)
    agent = ctx.acting_agent()
    note = ctx.engine.add(agent, text_argument(args.text), shared=args.shared, tags=tags)
    return note_json(note)


def publish_note(ctx: Context, args: argparse.Namespace) -> NoteJson:
    """Make a private note shared."""
    return note_json(ctx.engine.publish(ctx.acting_agent(), args.id))


def unpublish_note(ctx: Context, args: argparse.Namespace) -> NoteJson:
    """Make a shared note private to its owner."""
    return note_json(ctx.engine.unpublish(ctx.acting_agent(), args.id))


def show_note(ctx: Context, args: argparse.Namespace) -> NoteJson:
    """One note, if the agent may read it."""
    return note_json(ctx.engine.get(ctx.acting_agent(), args.id))


def delete_note(ctx: Context, args: argparse.Namespace) -> NoteJson:
    """Soft-delete a note."""
    return note_json(ctx.engine.delete(ctx.acting_agent(), args.id))


def restore_note(ctx: Context, args: argparse.Namespace) -> NoteJson:
    """Restore a soft-deleted note."""
    return note_json(ctx.engine.restore(ctx.acting_agent(), args.id))


def update_arguments(parser: argparse.ArgumentParser) -> None:
    """``update ID [--content TEXT] [--expect-hash MD5] [--tags A,B]``."""
    parser.add_argument("id")
    parser.add_argument("--content", help="new content; - reads it from standard input")
    parser.add_argument(
        "--expect-hash",
        metavar="MD5",
        help="refuse if the note changed since it had this hash (its JSON 'hash')",
    )
    parser.add_argument("--tags", help="comma-separated tags (replaces them)")


def update_note(ctx: Context, args: argparse.Namespace) -> NoteJson:
    """Change content and/or tags."""
    tags = comma_list(args.tags) if args.tags is not None else None
    content = text_argument(args.content) if args.content is not None else None
    note = ctx.engine.update(
        ctx.acting_agent(), args.id, content=content, tags=tags, expected_hash=args.expect_hash
    )
    return note_json(note)


# ------------------------------------------------------------- a page of notes
def list_arguments(parser: argparse.ArgumentParser) -> None:
    """``list [--scope private|shared|visible] [--limit N] [--offset N] [--owner ID]
    [--low-quality]``."""
    parser.add_argument("--scope", choices=["private", "shared", "visible"], default="visible")
    parser.add_argument("--limit", type=int, default=50)
    parser.add_argument("--offset", type=int, default=0)
    parser.add_argument("--owner", metavar="ID", help="only notes this agent wrote")
    parser.add_argument("--low-quality", action="store_true", help="only notes flagged low_quality")


def list_notes(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """A page of private, shared or all visible notes."""
    if args.limit < 1 or args.offset < 0:
        raise UsageError("--limit must be at least 1 and --offset at least 0")
    scope = ctx.engine.scope(ctx.acting_agent())
    page = ctx.engine.list_notes(
        scope,
        args.scope,
        limit=args.limit,
        offset=args.offset,
        owner=args.owner,
        low_quality=args.low_quality,
    )
    return {
        "agent": scope.agent,
        "mode": scope.mode,
        "collection": scope.collection,
        "scope": args.scope,
        "total": page.total,
        "offset": page.offset,
        "notes": [note_json(n) for n in page.notes],
    }


def list_text(data: dict[str, Any]) -> str:
    """A heading (whose notes, how many of how many), then each note's block."""
    head = (
        f"agent {data['agent']} (Mode {data['mode']}, {data['collection']}): "
        f"{len(data['notes'])} of {data['total']} {data['scope']} notes"
    )
    return "\n".join([head, *(note_json_text(n) for n in data["notes"])])


COMMANDS: tuple[Command[Any], ...] = (
    Command(
        "add",
        "write a note (private unless --shared)",
        handler=add_note,
        text=note_json_text,
        arguments=add_arguments,
    ),
    Command(
        "publish",
        "make a private note shared",
        handler=publish_note,
        text=note_json_text,
        arguments=note_id_argument,
    ),
    Command(
        "unpublish",
        "make a shared note private to its owner",
        handler=unpublish_note,
        text=note_json_text,
        arguments=note_id_argument,
    ),
    Command(
        "show", "show one note", handler=show_note, text=note_json_text, arguments=note_id_argument
    ),
    Command(
        "delete",
        "soft-delete a note",
        handler=delete_note,
        text=note_json_text,
        arguments=note_id_argument,
    ),
    Command(
        "restore",
        "restore a soft-deleted note",
        handler=restore_note,
        text=note_json_text,
        arguments=note_id_argument,
    ),
    Command(
        "update",
        "change a note's content or tags",
        handler=update_note,
        text=note_json_text,
        arguments=update_arguments,
    ),
    Command("list", "list notes", handler=list_notes, text=list_text, arguments=list_arguments),
)
