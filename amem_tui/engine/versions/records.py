"""The versions of a note, as recorded and as shown."""

from __future__ import annotations

import json
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, Field, computed_field

from amem_tui.engine.versions.diff import DiffPart, word_diff

#: What made a version: a write through amem-tui (each of its writes), or ``outside``,
#: a change another tool made (openclaw-amem's own writes and evolution, a script).
VersionAction = Literal[
    "add",
    "update",
    "readers",
    "publish",
    "unpublish",
    "delete",
    "restore",
    "merge",
    "undo",
    "import",
    "revert",
    "resolve",
    "unresolve",
    "outside",
]

#: How each action reads in a list of versions.
ACTION_LABELS: dict[str, str] = {
    "add": "added",
    "update": "updated",
    "readers": "sharing changed",
    "publish": "published",
    "unpublish": "unpublished",
    "delete": "deleted",
    "restore": "restored",
    "merge": "merged by consolidation",
    "undo": "merge undone",
    "import": "imported",
    "revert": "reverted",
    "resolve": "conflict settled",
    "unresolve": "conflict decision undone",
    "outside": "changed outside amem-tui",
}


#: Fields that change only because another did (the content's hash): lists of what a
#: version changed leave them out.
FOLLOWING_FIELDS = frozenset({"hash"})


class FieldChange(NamedTuple):
    """One field a version changed other than the content, as text to read."""

    name: str
    before: str
    after: str


def field_text(value: object) -> str:
    """A payload value as one reads it: a string as is, ``(absent)``, else JSON."""
    if value is None:
        return "(absent)"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


class NoteVersion(BaseModel):
    """One change of a note: who, when, what changed, and the note before and after.

    ``before`` and ``after`` are snapshots (the payload without the fields that change
    by use; see ``snapshot``): ``before`` is None for the version that created
    the note. A version with ``recorded`` False was never written: it stands for a
    change found in the note as it is now, made outside amem-tui since the last
    recorded version (or before amem-tui first wrote it).
    """

    number: int = 0
    note_id: str
    at: str = ""
    #: The agent that made the change (None: not known, a change made outside amem-tui).
    agent: str | None = None
    action: VersionAction
    changed: list[str] = Field(default_factory=list)
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    recorded: bool = True
    #: The consolidation run of a merge or an undo.
    run_id: str | None = None
    #: The version a revert went back to.
    reverted_to: int | None = None
    #: For a change made outside amem-tui: what the note itself says of it (its
    #: evolution history entries since, its creation time).
    known: list[str] = Field(default_factory=list)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def label(self) -> str:
        """The action as it reads in a list (``updated``, ``changed outside amem-tui``)."""
        label = ACTION_LABELS[self.action]
        if self.action == "revert" and self.reverted_to is not None:
            label += f" to version {self.reverted_to}"
        return label

    @property
    def changed_fields(self) -> list[str]:
        """The fields this version changed, without those that follow another."""
        return [name for name in self.changed if name not in FOLLOWING_FIELDS]

    def field_changes(self) -> list[FieldChange]:
        """Each field other than the content this version changed, before and after."""
        before, after = self.before or {}, self.after or {}
        return [
            FieldChange(name, field_text(before.get(name)), field_text(after.get(name)))
            for name in self.changed_fields
            if name != "content"
        ]

    @property
    def content_before(self) -> str:
        """The content before the change ("" when the change created the note)."""
        return str((self.before or {}).get("content", ""))

    @property
    def content_after(self) -> str:
        """The content after the change."""
        return str((self.after or {}).get("content", ""))

    def content_diff(self) -> list[DiffPart]:
        """The content's words that went and came in this change."""
        return word_diff(self.content_before, self.content_after)


class NoteHistory(BaseModel):
    """Every version of one note, oldest first, numbered from 1."""

    note_id: str
    collection: str
    versions: list[NoteVersion] = Field(default_factory=list)

    @property
    def latest(self) -> NoteVersion | None:
        """The newest version (possibly an unrecorded outside change)."""
        return self.versions[-1] if self.versions else None

    def version(self, number: int) -> NoteVersion | None:
        """Version ``number`` (1 is the oldest), or None."""
        if 1 <= number <= len(self.versions):
            return self.versions[number - 1]
        return None
