"""Notes, one at a time: ``add``, ``publish``, ``unpublish``, ``show``, ``delete``,
``restore``, ``update``, and a page of them with ``list``.

Each answers with the note as JSON; its text is the note block of ``output``.
Every answer is what the acting agent may see: links and conflicts to notes it may
not read are left out and only counted (``unreadable_links``,
``unreadable_conflicts``), so no output reveals that such a note exists.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from amem_tui.cli.command import Command, UsageError, comma_list, text_argument
from amem_tui.cli.options import flag, option
from amem_tui.cli.output import (
    Mem0View,
    Note,
    Omitted,
    flattened,
    mem0_view,
    note_text,
    scope_label,
    shorten,
    warn,
)
from amem_tui.cli.preview import PreviewOptions, check_preview, preview, what_if_text
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.cli.context import Context
    from amem_tui.engine import AgentScope, MemoryNote, WhatIf
    from amem_tui.engine.for_apps import ListScope as EngineListScope


@dataclass(frozen=True)
class ShownNote:
    """A note as the agent may see it and, for a note it reads only by id (``show``),
    what openclaw-amem gives it of that note (``get_only``)."""

    note: Note
    get_only: Omitted[str] = None
    #: ``publish``: what became of the note's readers and writers.
    access_change: Omitted[str] = None
    _json = flattened("note")


def shown(ctx: Context, scope: AgentScope, note: MemoryNote) -> ShownNote:
    """A note as the acting agent may see it (see ``MemoryEngine.redact``)."""
    (visible,) = ctx.engine.agent(scope).redact([note])
    return ShownNote(visible)


def shown_text(answer: ShownNote) -> str:
    """The note block, then what a get-only note gives the agent."""
    text = note_text(answer.note)
    if answer.get_only:
        text += f"\n  {shorten(answer.get_only, 200)}"
    if answer.access_change:
        text += f"\n  {answer.access_change}"
    return text


# ----------------------------------------------------------- one note by id
@dataclass(frozen=True)
class NoteId:
    """The options of a command that acts on one note."""

    id: str = option()


@dataclass(frozen=True)
class ChangeNote(PreviewOptions, NoteId):
    """The options of a command that changes who reads one note: its id, and
    ``--dry-run [--checks FILE]`` (see ``preview``)."""


def note_or_preview_text(result: ShownNote | WhatIf) -> str:
    """The note block, or what a dry run says the change would do."""
    return shown_text(result) if isinstance(result, ShownNote) else what_if_text(result)


READERS_HELP = (
    "comma-separated agents that may read this private note by id: openclaw-amem's "
    "getNote returns it to them, their memory_search, memory_list and counts never do "
    "(owner only; not for mem0 memories)"
)
#: ``--expect-hash``, of ``update`` and ``revert``.
EXPECT_HASH_HELP = "refuse if the note changed since it had this hash (its JSON 'hash')"


@dataclass(frozen=True)
class AddOptions:
    """``add``: the content (``-``: standard input), shared or not, the tags, the readers."""

    text: str = option(help="the note's content; - reads it from standard input")
    shared: bool = flag("--shared", help="publish to the shared scope")
    tags: str | None = option("--tags", help="comma-separated tags")
    readers: str | None = option("--readers", metavar="AGENTS", help=READERS_HELP)


def warn_unknown_readers(ctx: Context, readers: list[str]) -> None:
    """Name on stderr the readers neither configured nor in the store (most often a
    typo): they are kept, since an agent may start writing later."""
    known = ctx.engine.known_agents() if readers else set()
    for reader in readers:
        if reader not in known:
            warn(
                f"reader '{reader}' is not a known agent (neither configured nor in the "
                "store): it is kept, and reads the note once it exists",
                ctx.as_json,
                "unknown_reader",
                {"agent": reader, "known_agents": sorted(known)},
            )


def add_note(ctx: Context, options: AddOptions) -> ShownNote:
    """Write a note (private unless --shared).

    ``--readers`` name the agents that may read it by id.
    """
    tags = comma_list(options.tags)
    readers = comma_list(options.readers)
    scope = ctx.writing_scope()
    content = text_argument(options.text)
    note = ctx.engine.agent(scope).add(content, shared=options.shared, tags=tags, readers=readers)
    warn_unknown_readers(ctx, readers)
    return shown(ctx, scope, note)


def changed_by(action: str, help: str) -> Callable[[Context, NoteId], ShownNote]:
    """The handler of a write that needs only the note's id: the acting agent's view
    does ``action`` (publish, unpublish, delete, restore) to it; ``help`` is its line
    in ``--help``."""

    def change(ctx: Context, options: NoteId) -> ShownNote:
        scope = ctx.writing_scope()
        return shown(ctx, scope, getattr(ctx.engine.agent(scope), action)(options.id))

    change.__doc__ = help
    return change


def previewed(action: str, help: str) -> Callable[[Context, ChangeNote], ShownNote | WhatIf]:
    """``changed_by`` for a change ``--dry-run`` previews (unpublish, delete): with
    it, what the change would do, and nothing written."""
    make = changed_by(action, help)

    def change(ctx: Context, options: ChangeNote) -> ShownNote | WhatIf:
        from amem_tui.engine import for_apps

        check_preview(options)
        if not options.dry_run:
            return make(ctx, options)
        kind = for_apps.Unpublish if action == "unpublish" else for_apps.Delete
        return preview(ctx, kind(ctx.writing_scope().agent, options.id), options.checks)

    change.__doc__ = help
    return change


def publish_note(ctx: Context, options: ChangeNote) -> ShownNote | WhatIf:
    """Make a private note shared.

    The answer says what became of its readers and writers; with --dry-run, what the
    publish would do.
    """
    from amem_tui.engine.for_apps import Publish, access_before_publish, publish_sentence

    check_preview(options)
    scope = ctx.writing_scope()
    if options.dry_run:
        return preview(ctx, Publish(scope.agent, options.id), options.checks)
    note = ctx.engine.agent(scope).publish(options.id)
    owner = note.effective_owner or scope.agent
    change = publish_sentence(owner, *access_before_publish(note))
    return dataclasses.replace(shown(ctx, scope, note), access_change=change)


def show_note(ctx: Context, options: NoteId) -> ShownNote:
    """Show one note.

    If the agent may read it; a note it reads only by id says so.
    """
    scope = ctx.reading_scope()
    view = ctx.engine.agent(scope)
    note = view.get(options.id)
    return ShownNote(shown(ctx, scope, note).note, view.get_only_sentence(note))


@dataclass(frozen=True)
class UpdateOptions(PreviewOptions):
    """``update``: the note, its new content, tags and/or readers, the hash it must
    still have (``--dry-run``: only a change of readers is previewed)."""

    id: str = option()
    content: str | None = option("--content", help="new content; - reads it from standard input")
    expect_hash: str | None = option("--expect-hash", metavar="MD5", help=EXPECT_HASH_HELP)
    tags: str | None = option("--tags", help="comma-separated tags (replaces them)")
    readers: str | None = option(
        "--readers", metavar="AGENTS", group="readers", help=READERS_HELP + "; replaces them"
    )
    no_readers: bool = flag(
        "--no-readers",
        group="readers",
        help="clear the chosen readers: the note is readable by its owner alone again",
    )


def update_note(ctx: Context, options: UpdateOptions) -> ShownNote | WhatIf:
    """Change a note's content, tags or readers.

    The content goes to the engine unchecked: the engine checks the write rule before
    the quality gate, so a note another agent owns answers PERMISSION_DENIED whatever
    the new content is.
    """
    tags = comma_list(options.tags) if options.tags is not None else None
    content = text_argument(options.content) if options.content is not None else None
    readers: list[str] | None = [] if options.no_readers else None
    if options.readers is not None:
        readers = comma_list(options.readers)
    check_preview(options)
    scope = ctx.writing_scope()
    if options.dry_run:
        return preview_readers(ctx, scope, options, readers)
    note = ctx.engine.agent(scope).update(
        options.id,
        content=content,
        tags=tags,
        expected_hash=options.expect_hash,
        readers=readers,
    )
    warn_unknown_readers(ctx, readers or [])
    return shown(ctx, scope, note)


def preview_readers(
    ctx: Context, scope: AgentScope, options: UpdateOptions, readers: list[str] | None
) -> WhatIf:
    """What ``update --readers`` (or ``--no-readers``) would do, nothing written."""
    from amem_tui.engine.for_apps import SetReaders

    if readers is None or options.content is not None or options.tags is not None:
        raise UsageError(
            "update --dry-run previews a change of readers: give --readers or --no-readers, "
            "and no --content or --tags"
        )
    change = SetReaders(scope.agent, options.id, tuple(readers))
    return preview(ctx, change, options.checks)


# ------------------------------------------------------------- a page of notes
ListScope = Literal["private", "shared", "visible", "get-only"]
#: The engine's name of each listing ``--scope`` offers.
LISTED: dict[ListScope, EngineListScope] = {
    "private": "private",
    "shared": "shared",
    "visible": "visible",
    "get-only": "get_only",
}


@dataclass(frozen=True)
class ListOptions:
    """``list``: which notes, which page, and the filters."""

    scope: ListScope = option(
        "--scope",
        default="visible",
        help="the agent's own notes, the shared scope, both (default: what its searches and "
        "counts hold), or get-only: notes it reads only by id (their readers name it)",
    )
    limit: int = option("--limit", default=50, help="notes per page (default 50)")
    offset: int = option("--offset", default=0, help="notes to skip first")
    owner: str | None = option("--owner", metavar="ID", help="only notes this agent wrote")
    low_quality: bool = flag("--low-quality", help="only notes flagged low_quality")
    run: str | None = option(
        "--run",
        metavar="RUN_ID",
        help="mem0: only the short-term memories of this session (their run_id)",
    )


@dataclass(frozen=True)
class NoteListing:
    """A page of notes as the acting agent may see them, with the total."""

    agent: str
    mode: str
    collection: str
    scope: ListScope
    total: int
    offset: int
    notes: list[Note]
    mem0: Mem0View | None
    #: mem0: the session whose short-term memories these are (``list --run``).
    run_id: Omitted[str] = None
    _json = flattened("mem0")


def list_notes(ctx: Context, options: ListOptions) -> NoteListing:
    """List notes.

    A page of private, shared or all visible notes, with their total.
    """
    if options.limit < 1 or options.offset < 0:
        raise UsageError("--limit must be at least 1 and --offset at least 0")
    scope = ctx.reading_scope()
    view = ctx.engine.agent(scope)
    page = view.list_notes(
        LISTED[options.scope],
        limit=options.limit,
        offset=options.offset,
        owner=options.owner,
        low_quality=options.low_quality,
        run_id=options.run,
    )
    return NoteListing(
        scope.agent,
        scope.mode,
        scope.collection,
        options.scope,
        page.total,
        page.offset,
        view.redact(page.notes),
        mem0_view(scope),
        options.run,
    )


def list_text(listing: NoteListing) -> str:
    """A heading (whose notes, how many of how many), then each note's block."""
    run = f" of run {listing.run_id}" if listing.run_id is not None else ""
    who = scope_label(listing.agent, listing.mode, listing.collection, listing.mem0)
    listed = plural(listing.total, f"{listing.scope} note")
    head = f"{who}: {len(listing.notes)} of {listed}{run}"
    return "\n".join([head, *(note_text(note) for note in listing.notes)])


COMMANDS: tuple[Command[Any, Any], ...] = (
    Command("add", add_note, shown_text, AddOptions, creates=True),
    Command("publish", publish_note, note_or_preview_text, ChangeNote),
    Command(
        "unpublish",
        previewed("unpublish", "Make a shared note private to its owner."),
        note_or_preview_text,
        ChangeNote,
    ),
    Command("show", show_note, shown_text, NoteId, aliases=("get",), reads=True),
    Command("delete", previewed("delete", "Soft-delete a note."), note_or_preview_text, ChangeNote),
    Command("restore", changed_by("restore", "Restore a soft-deleted note."), shown_text, NoteId),
    Command("update", update_note, note_or_preview_text, UpdateOptions),
    Command("list", list_notes, list_text, ListOptions, reads=True),
)
