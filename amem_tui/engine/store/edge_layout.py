"""Where an Edge store keeps each collection, and what its files say with the shard closed.

Reading these needs neither Qdrant Edge nor the store's lock: an app that has only
just started reads a collection's metadata, its write count and its saved note index
here while the shard (seconds of work at a million notes) has yet to load.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from amem_tui.engine.store.journal import SAVED_INDEX_DIR, SIDECAR_DIR, read_revision

LOCK_FILE = "edge.lock"
SHARDS_DIR = "edge"
META_FILE = "collection.json"
JOURNAL_DIR = "journal"
_SAFE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$")


def is_edge_store(folder: Path) -> bool:
    """True if ``folder`` holds an Edge store written by this backend."""
    return (folder / SHARDS_DIR).is_dir() or (folder / LOCK_FILE).exists()


def folder_name(collection: str) -> str:
    """A folder name for a collection; unusual names are percent-encoded."""
    if _SAFE_NAME.match(collection):
        return collection
    return "%" + quote(collection, safe="")


def collection_folder(root: Path, collection: str) -> Path:
    """The folder of ``collection`` in the store at ``root``."""
    return root / SHARDS_DIR / folder_name(collection)


@dataclass(frozen=True)
class ClosedCollection:
    """A collection as its files describe it, its shard not loaded."""

    name: str
    #: What the collection was created with (its embedding model, the tool that made it).
    metadata: dict[str, Any]
    #: How many writes it has had, as its journal counts them.
    revision: int
    #: Its folder of derived data.
    sidecar: Path

    @property
    def saved_index(self) -> Path:
        """Where its note index is saved."""
        return self.sidecar / SAVED_INDEX_DIR


def closed_collection(root: Path, collection: str) -> ClosedCollection | None:
    """What the store at ``root`` says of ``collection`` without loading it; None when
    it holds no such collection (or its description cannot be read)."""
    folder = collection_folder(root, collection)
    try:
        meta = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or meta.get("name") != collection:
        return None
    metadata = meta.get("metadata")
    return ClosedCollection(
        name=collection,
        metadata=dict(metadata) if isinstance(metadata, dict) else {},
        revision=read_revision(folder / JOURNAL_DIR),
        sidecar=folder / SIDECAR_DIR,
    )
