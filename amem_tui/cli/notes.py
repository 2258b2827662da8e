"""Notes, one at a time: ``add``, ``publish``, ``unpublish``, ``show``, ``delete``,
``restore``, ``update``, and a page of them with ``list``.

Each answers with the note as JSON; its text is the note block of :mod:`.output`.
Every answer is what the acting agent may see: links and conflicts to notes it may
not read are left out and only counted (``unreadable_links``,
``unreadable_conflicts``), so no output reveals that such a note exists.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from amem_tui.cli.command import Command, UsageError, comma_list, text_argument
from amem_tui.cli.output import NoteJson, mem0_view_json, note_json, note_json_text, scope_label

if TYPE_CHECKING:
    from amem_tui.cli.context import Context
    from amem_tui.engine.models import MemoryNote
    from amem_tui.engine.scope import AgentScope


def shown(ctx: Context, scope: AgentScope, note: MemoryNote) -> NoteJson:
    """A note as the acting agent may see it (see :meth:`MemoryEngine.redact`)."""
    (visible,) = ctx.engine.redact(scope, [note])
    return note_json(visible)


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
    scope = ctx.writing_scope()
    note = ctx.engine.add(scope, text_argument(args.text), shared=args.shared, tags=tags)
    return shown(ctx, scope, note)


def publish_note(ctx: Context, args: argparse.Namespace) -> NoteJson:
    """Make a private note shared."""
    scope = ctx.writing_scope()
    return shown(ctx, scope, ctx.engine.publish(scope, args.id))


def unpublish_note(ctx: Context, args: argparse.Namespace) -> NoteJson:
    """Make a shared note private to its owner."""
    scope = ctx.writing_scope()
    return shown(ctx, scope, ctx.engine.unpublish(scope, args.id))


def show_note(ctx: Context, args: argparse.Namespace) -> NoteJson:
    """One note, if the agent may read it."""
    scope = ctx.reading_scope()
    return shown(ctx, scope, ctx.engine.get(scope, args.id))


def delete_note(ctx: Context, args: argparse.Namespace) -> NoteJson:
    """Soft-delete a note."""
    scope = ctx.writing_scope()
    return shown(ctx, scope, ctx.engine.delete(scope, args.id))


def restore_note(ctx: Context, args: argparse.Namespace) -> NoteJson:
    """Restore a soft-deleted note."""
    scope = ctx.writing_scope()
    return shown(ctx, scope, ctx.engine.restore(scope, args.id))


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
    """Change content and/or tags.

    The content goes to the engine unchecked: the engine checks the write rule
    before the quality gate, so a note another agent owns answers PERMISSION_DENIED
    whatever the new content is.
    """
    tags = comma_list(args.tags) if args.tags is not None else None
    content = text_argument(args.content) if args.content is not None else None
    scope = ctx.writing_scope()
    note = ctx.engine.update(
        scope, args.id, content=content, tags=tags, expected_hash=args.expect_hash
    )
    return shown(ctx, scope, note)


# ------------------------------------------------------------- a page of notes
def list_arguments(parser: argparse.ArgumentParser) -> None:
    """``list [--scope private|shared|visible] [--limit N] [--offset N] [--owner ID]
    [--low-quality] [--run RUN_ID]``."""
    parser.add_argument(
        "--scope",
        choices=["private", "shared", "visible"],
        default="visible",
        help="the agent's own notes, the notes shared with it, or both (default)",
    )
    parser.add_argument("--limit", type=int, default=50, help="notes per page (default 50)")
    parser.add_argument("--offset", type=int, default=0, help="notes to skip first")
    parser.add_argument("--owner", metavar="ID", help="only notes this agent wrote")
    parser.add_argument("--low-quality", action="store_true", help="only notes flagged low_quality")
    parser.add_argument(
        "--run",
        metavar="RUN_ID",
        help="mem0: only the short-term memories of this session (their run_id)",
    )


def list_notes(ctx: Context, args: argparse.Namespace) -> dict[str, Any]:
    """A page of private, shared or all visible notes."""
    if args.limit < 1 or args.offset < 0:
        raise UsageError("--limit must be at least 1 and --offset at least 0")
    scope = ctx.reading_scope()
    page = ctx.engine.list_notes(
        scope,
        args.scope,
        limit=args.limit,
        offset=args.offset,
        owner=args.owner,
        low_quality=args.low_quality,
        run_id=args.run,
    )
    out: dict[str, Any] = {
        "agent": scope.agent,
        "mode": scope.mode,
        "collection": scope.collection,
        "scope": args.scope,
        "total": page.total,
        "offset": page.offset,
        "notes": [note_json(n) for n in ctx.engine.redact(scope, page.notes)],
    }
    out.update(mem0_view_json(scope))
    if args.run is not None:
        out["run_id"] = args.run
    return out


def list_text(data: dict[str, Any]) -> str:
    """A heading (whose notes, how many of how many), then each note's block."""
    run = f" of run {data['run_id']}" if data.get("run_id") is not None else ""
    head = (
        f"{scope_label(data)}: {len(data['notes'])} of {data['total']} {data['scope']} notes{run}"
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
