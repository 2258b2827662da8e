"""Store backends behind one protocol, and the factory that opens the right one.

Backends are imported only when a store of their kind is opened: importing
qdrant-client builds hundreds of pydantic models, which an embedded Edge store
(and a TUI's first frame) never needs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from amem_tui.engine.errors import StoreUnavailable
from amem_tui.engine.store.base import CollectionInfo, NoteStore, ScoredPoint, StoredPoint

__all__ = [
    "CollectionInfo",
    "EmbeddedBackend",
    "NoteStore",
    "ScoredPoint",
    "StoredPoint",
    "connect",
    "embedded_backend",
    "holds_store",
]

EmbeddedBackend = Literal["edge", "qdrant-local"]
MEMORY = ":memory:"


def connect(
    *,
    url: str | None = None,
    path: str | Path | None = None,
    api_key: str | None = None,
    backend: str | None = None,
    read_only: bool = False,
) -> NoteStore:
    """Open a Qdrant server (``url``), else the embedded folder ``path`` (or ``:memory:``).

    Embedded folders open on Qdrant Edge, unless qdrant-client's local mode wrote
    them (then they stay on it, so nothing written earlier is lost) or ``backend``
    ``qdrant-local`` picks qdrant-client for a new folder. ``:memory:`` is always
    qdrant-client. ``read_only`` opens a folder that cannot be written (a read-only
    filesystem, no write permission) from a private copy (``snapshot``).
    """
    if url:
        from amem_tui.engine.store.qdrant import QdrantStore

        return QdrantStore(url=url, api_key=api_key)
    if path is None or str(path) == MEMORY:
        from amem_tui.engine.store.qdrant import QdrantStore

        return QdrantStore(path=MEMORY)
    folder = Path(path).expanduser()
    if folder.exists() and not folder.is_dir():
        raise StoreUnavailable(f"the store {folder} is a file, not a store folder")
    if read_only and folder.is_dir():
        from amem_tui.engine.store import snapshot

        if not snapshot.writable(folder):
            return snapshot.open_copy(folder, lambda copy: _open_folder(copy, backend))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreUnavailable(
            f"cannot create the store folder {folder}: {exc.strerror or exc}"
        ) from exc
    return _open_folder(folder, backend)


def _open_folder(folder: Path, backend: str | None) -> NoteStore:
    """The embedded backend that wrote ``folder`` (else ``backend``), opened on it."""
    if embedded_backend(folder, backend) == "edge":
        from amem_tui.engine.store.edge import EdgeStore

        return EdgeStore(folder)
    from amem_tui.engine.store.qdrant import QdrantStore

    return QdrantStore(path=str(folder))


def holds_store(folder: Path) -> bool:
    """Whether ``folder`` holds an embedded store either backend wrote (without opening
    it: no lock is taken and nothing is created)."""
    if (folder / "meta.json").is_file() or (folder / "collection").is_dir():
        return True
    from amem_tui.engine.store.edge_layout import is_edge_store

    return is_edge_store(folder)


def embedded_backend(path: Path, wanted: str | None = None) -> EmbeddedBackend:
    """Which backend opens an embedded folder: the one that wrote it, else ``wanted``.

    qdrant-client's local mode leaves ``meta.json`` (and ``collection/``); an Edge
    store leaves ``edge/``. A new folder gets ``wanted``, else Edge.
    """
    if (path / "meta.json").is_file() or (path / "collection").is_dir():
        return "qdrant-local"
    if holds_store(path):
        return "edge"
    return "qdrant-local" if wanted == "qdrant-local" else "edge"
