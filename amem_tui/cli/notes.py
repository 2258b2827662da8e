"""Notes, one at a time: ``add``, ``publish``, ``unpublish``, ``show``, ``delete``,
``restore``, ``update``, and a page of them with ``list``.

Every answer is what the acting agent may see: links and conflicts to notes it may
not read are only counted (``unreadable_links``, ``unreadable_conflicts``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast

from pydantic import model_serializer

from amem_tui.cli.command import Command, Context, UsageError, text_argument
from amem_tui.cli.isolation import PreviewOptions, what_if_text
from amem_tui.cli.options import flag, option
from amem_tui.cli.output import (
    Note,
    Omitted,
    count_of,
    flattened,
    mem0_fields,
    note_json,
    note_lines,
    scope_label,
    shorten,
)

if TYPE_CHECKING:
    from amem_tui.engine import AgentScope, AgentView, MemoryNote, NotePage, WhatIf
    from amem_tui.engine.for_apps import ListScope as EngineListScope
else:
    AgentScope = NotePage = Any  # dumped by the answer's own serializer


@dataclass(frozen=True)
class ShownNote:
    """A note as the agent may see it and, for a note it reads only by id (``show``),
    what openclaw-amem gives it of that note (``get_only``)."""

    note: Note
    get_only: Omitted[str] = None
    #: ``publish``: what became of the note's readers and writers.
    access_change: Omitted[str] = None
    _json = flattened("note")


def shown(view: AgentView, note: MemoryNote) -> ShownNote:
    """A note as the acting agent may see it (see ``AgentView.redact``)."""
    (visible,) = view.redact([note])
    return ShownNote(visible)


def shown_text(answer: ShownNote) -> Iterator[str]:
    """The note block, then what a get-only note gives the agent."""
    yield from note_lines(answer.note)
    if answer.get_only:
        yield f"  {shorten(answer.get_only, 200)}"
    if answer.access_change:
        yield f"  {answer.access_change}"


# ----------------------------------------------------------- one note by id
@dataclass(frozen=True)
class NoteId:
    """The options of a command that acts on one note."""

    id: str = option()


@dataclass(frozen=True)
class ChangeNote(PreviewOptions, NoteId):
    """A change of who reads one note, which ``--dry-run`` previews."""


def note_answer_text(result: ShownNote | WhatIf) -> Iterator[str]:
    """The note block, or what a dry run says the change would do."""
    return shown_text(result) if isinstance(result, ShownNote) else what_if_text(result)


READERS_HELP = "comma-separated agents that may read this private note by id (owner only)"
EXPECT_HASH_HELP = "refuse if the note changed since it had this hash (its JSON 'hash')"


@dataclass(frozen=True)
class AddOptions:
    """``add``: the content (``-``: standard input), shared or not, the tags, the readers."""

    text: str = option(help="the note's content; - reads it from standard input")
    shared: bool = flag("--shared", help="publish to the shared scope")
    tags: list[str] | None = option("--tags", help="comma-separated tags")
    readers: list[str] | None = option("--readers", metavar="AGENTS", help=READERS_HELP)


def warn_unknown_readers(ctx: Context, readers: list[str]) -> None:
    """Name on stderr the readers nobody knows (most often a typo): they are kept, since
    an agent may start writing later."""
    known = ctx.engine.known_agents() if readers else set()
    for reader in readers:
        if reader not in known:
            ctx.warn(
                f"reader '{reader}' is not a known agent (neither configured nor in the "
                "store): it is kept, and reads the note once it exists",
                "unknown_reader",
                {"agent": reader, "known_agents": sorted(known)},
            )


@Command("add", shown_text, AddOptions, creates=True)
def add_note(ctx: Context, options: AddOptions) -> ShownNote:
    """Write a note (private unless --shared)."""
    tags, readers = options.tags or [], options.readers or []
    view = ctx.writer()
    note = view.add(text_argument(options.text), shared=options.shared, tags=tags, readers=readers)
    warn_unknown_readers(ctx, readers)
    return shown(view, note)


@Command("show", shown_text, NoteId, aliases=("get",), reads=True)
def show_note(ctx: Context, options: NoteId) -> ShownNote:
    """Show one note, if the agent may read it."""
    view = ctx.reader()
    note = view.get(options.id)
    return ShownNote(shown(view, note).note, view.get_only_sentence(note))


#: The writes to one note by id: their lines in ``--help``, and their options.
CHANGES: dict[str, tuple[str, type[NoteId]]] = {
    "publish": ("Make a private note shared.", ChangeNote),
    "unpublish": ("Make a shared note private to its owner.", ChangeNote),
    "delete": ("Soft-delete a note.", ChangeNote),
    "restore": ("Restore a soft-deleted note.", NoteId),
}


def changed_by(action: str) -> Callable[[Context, NoteId], ShownNote | WhatIf]:
    """The handler of a write to one note by id: the acting agent's view does ``action``
    (one of ``CHANGES``) to it, or with ``--dry-run`` says what that would do."""

    def change(ctx: Context, options: NoteId) -> ShownNote | WhatIf:
        from amem_tui.engine import for_apps

        view = ctx.writer()
        if isinstance(options, ChangeNote) and options.dry_run:
            kind = getattr(for_apps, action.capitalize())
            return ctx.engine.what_if(kind(view.scope.agent, options.id), checks=options.checks)
        note = getattr(view, action)(options.id)
        answer = shown(view, note)
        if action != "publish":
            return answer
        before = for_apps.access_before_publish(note)
        said = for_apps.publish_sentence(note.effective_owner or view.scope.agent, *before)
        return dataclasses.replace(answer, access_change=said)

    change.__doc__ = CHANGES[action][0]
    return change


for change_name, (_, change_options) in CHANGES.items():
    Command(change_name, note_answer_text, change_options)(changed_by(change_name))


@dataclass(frozen=True)
class UpdateOptions(PreviewOptions, NoteId):
    """``update``: the note, its new content, tags and/or readers, the hash it must
    still have (``--dry-run``: only a change of readers is previewed)."""

    content: str | None = option("--content", help="new content; - reads it from standard input")
    expect_hash: str | None = option("--expect-hash", metavar="MD5", help=EXPECT_HASH_HELP)
    tags: list[str] | None = option("--tags", help="comma-separated tags (replaces them)")
    readers: list[str] | None = option(
        "--readers", metavar="AGENTS", group="readers", help=READERS_HELP + "; replaces them"
    )
    no_readers: bool = flag("--no-readers", group="readers", help="clear the chosen readers")


@Command("update", note_answer_text, UpdateOptions)
def update_note(ctx: Context, options: UpdateOptions) -> ShownNote | WhatIf:
    """Change a note's content, tags or readers."""
    tags = options.tags
    content = text_argument(options.content) if options.content is not None else None
    readers = [] if options.no_readers else options.readers
    view = ctx.writer()
    if options.dry_run:
        from amem_tui.engine.for_apps import SetReaders

        if readers is None or content is not None or tags is not None:
            raise UsageError(
                "update --dry-run previews a change of readers: give --readers or "
                "--no-readers, and no --content or --tags"
            )
        change = SetReaders(view.scope.agent, options.id, tuple(readers))
        return ctx.engine.what_if(change, checks=options.checks)
    # The engine checks the write rule before the quality gate: a note another agent
    # owns answers PERMISSION_DENIED whatever the new content is.
    note = view.update(
        options.id, content=content, tags=tags, expected_hash=options.expect_hash, readers=readers
    )
    warn_unknown_readers(ctx, readers or [])
    return shown(view, note)


# ------------------------------------------------------------- a page of notes
ListScope = Literal["private", "shared", "visible", "get-only"]


@dataclass(frozen=True)
class ListOptions:
    """``list``: which notes, which page, and the filters."""

    scope: ListScope = option(
        "--scope",
        default="visible",
        help="the agent's own notes, the shared scope, both (the default), or get-only: "
        "notes it reads only by id",
    )
    limit: int = option("--limit", default=50, within=(1, None), help="notes per page (default 50)")
    offset: int = option("--offset", default=0, within=(0, None), help="notes to skip first")
    owner: str | None = option("--owner", metavar="ID", help="only notes this agent wrote")
    low_quality: bool = flag("--low-quality", help="only notes flagged low_quality")
    run: str | None = option("--run", metavar="RUN_ID", help="mem0: only this session's memories")


@dataclass(frozen=True)
class NoteListing:
    """A page of notes as the acting agent may see them, with the total, the listing
    asked for and (mem0: ``list --run``) the session whose memories these are."""

    scope: AgentScope
    page: NotePage
    listed: ListScope
    run_id: str | None

    @model_serializer
    def _json(self) -> dict[str, Any]:
        scope, page = self.scope, self.page
        answer: dict[str, Any] = {"agent": scope.agent, "mode": scope.mode}
        answer["collection"] = scope.collection
        answer |= {"scope": self.listed, "total": page.total, "offset": page.offset}
        answer["notes"] = [note_json(note) for note in page.notes]
        answer |= mem0_fields(scope)
        return answer | ({"run_id": self.run_id} if self.run_id is not None else {})


def list_text(listing: NoteListing) -> Iterator[str]:
    """A heading (whose notes, how many of how many), then each note's block."""
    scope, notes = listing.scope, listing.page.notes
    run = f" of run {listing.run_id}" if listing.run_id is not None else ""
    who = scope_label(scope.agent, scope.mode, scope.collection, scope)
    yield f"{who}: {count_of(len(notes), listing.page.total, f'{listing.listed} note')}{run}"
    for note in notes:
        yield from note_lines(note)


@Command("list", list_text, ListOptions, reads=True)
def list_notes(ctx: Context, options: ListOptions) -> NoteListing:
    """List notes: a page of private, shared or all visible notes, with their total."""
    view = ctx.reader()
    page = view.list_notes(
        cast("EngineListScope", options.scope.replace("-", "_")),
        limit=options.limit,
        offset=options.offset,
        owner=options.owner,
        low_quality=options.low_quality,
        run_id=options.run,
    )
    page = page.model_copy(update={"notes": view.redact(page.notes)})
    return NoteListing(view.scope, page, options.scope, options.run)
