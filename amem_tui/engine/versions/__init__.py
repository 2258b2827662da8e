"""Note versions: every change amem-tui makes to a note, kept so it can be shown and
reverted, and the changes other tools made, found between them.

``log`` keeps them in the store, ``records`` holds the models, ``snapshot``
says what of a note a version keeps, ``diff`` compares two contents word by word.
"""

from __future__ import annotations

from amem_tui.engine.versions.diff import DiffKind, DiffPart, plain_diff, word_diff
from amem_tui.engine.versions.log import Change, VersionLog, versions_collection
from amem_tui.engine.versions.records import ACTION_LABELS, NoteHistory, NoteVersion, VersionAction
from amem_tui.engine.versions.snapshot import (
    ACCESS_FIELDS,
    RUNTIME_FIELDS,
    changed_fields,
    digest,
    snapshot,
)

__all__ = [
    "ACCESS_FIELDS",
    "ACTION_LABELS",
    "RUNTIME_FIELDS",
    "Change",
    "DiffKind",
    "DiffPart",
    "NoteHistory",
    "NoteVersion",
    "VersionAction",
    "VersionLog",
    "changed_fields",
    "digest",
    "plain_diff",
    "snapshot",
    "versions_collection",
    "word_diff",
]
