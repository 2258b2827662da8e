"""A note's versions: ``versions ID`` lists every change, ``revert ID --to N`` goes back
to one as a new version (a write like any other)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from amem_tui.cli.command import Command, Context
from amem_tui.cli.notes import EXPECT_HASH_HELP, NoteId, shown
from amem_tui.cli.options import flag, option
from amem_tui.cli.output import Note, TextOnly, flattened, note_lines, shorten
from amem_tui.engine import NoteHistory
from amem_tui.engine.for_apps import plain_diff
from amem_tui.wording import plural

if TYPE_CHECKING:
    from amem_tui.engine.for_apps import NoteVersion

#: The widest content diff a version's line shows (``--diff`` shows all of it).
DIFF_WIDTH = 160


@dataclass(frozen=True)
class VersionsOptions(NoteId):
    """``versions``: the note, and whether to show whole content diffs."""

    diff: bool = flag("--diff", help="show each change of the content in full")


@dataclass(frozen=True)
class VersionList:
    """A note's versions, oldest first, and how the text shows them."""

    history: NoteHistory
    full_diff: TextOnly[bool] = False
    _json = flattened("history")


def version_line(version: NoteVersion) -> str:
    """One version: its number, when, who, what it did and what it changed."""
    when = version.at.replace("T", " ")[:19] if version.at else "(time unknown)"
    who = version.agent or ("import" if version.action == "import" else "-")
    changed = ", ".join(version.changed_fields)
    line = f"  {version.number:>3}  {when:<19}  {who:<10} {version.label}"
    return f"{line}: {changed}" if changed else line


def versions_text(answer: VersionList) -> Iterator[str]:
    """A heading, then a line per version with its content diff."""
    history = answer.history
    versions = plural(len(history.versions), "version")
    yield f"note {history.note_id} ({history.collection}): {versions}"
    for version in history.versions:
        yield version_line(version)
        if "content" in version.changed:
            diff = plain_diff(version.content_diff())
            yield "       " + (diff if answer.full_diff else shorten(diff, DIFF_WIDTH))
        if version.before is not None:
            for change in version.field_changes():
                before, after = shorten(change.before, 60), shorten(change.after, 60)
                yield f"       {change.name}: {before} -> {after}"
        yield from (f"       {shorten(fact, 120)}" for fact in version.known)
    if history.latest is not None and not history.latest.recorded:
        yield (
            f"  version {history.latest.number} is the note as it is now; "
            "amem-tui records it when it next writes the note"
        )


@Command("versions", versions_text, VersionsOptions, reads=True)
def list_versions(ctx: Context, options: VersionsOptions) -> VersionList:
    """List a note's versions: every change, who made it, what it changed."""
    view = ctx.reader()
    return VersionList(view.versions(options.id), options.diff)


@dataclass(frozen=True)
class RevertOptions(NoteId):
    """``revert``: the note, the version to go back to, the hash it must still have."""

    to: int = option(
        "--to", required=True, metavar="N", within=(1, None), help="the version to go back to"
    )
    expect_hash: str | None = option("--expect-hash", metavar="MD5", help=EXPECT_HASH_HELP)


@dataclass(frozen=True)
class Reverted:
    """The note after a revert, and the version the revert was kept as."""

    note: Note
    reverted_to: int
    version: int
    changed: list[str]
    _json = flattened("note")


def reverted_text(answer: Reverted) -> Iterator[str]:
    """The note, then what the revert changed and the version it was kept as."""
    yield from note_lines(answer.note)
    kept = f"(kept as version {answer.version})"
    yield f"  reverted to version {answer.reverted_to} {kept}: {', '.join(answer.changed)}"


@Command("revert", reverted_text, RevertOptions)
def revert_note(ctx: Context, options: RevertOptions) -> Reverted:
    """Bring a note back to one of its versions (as a new version)."""
    view = ctx.writer()
    note = view.revert(options.id, options.to, expected_hash=options.expect_hash)
    latest = view.versions(options.id).latest
    number = latest.number if latest is not None else 0
    changed = latest.changed_fields if latest is not None else []
    return Reverted(shown(view, note).note, options.to, number, changed)
