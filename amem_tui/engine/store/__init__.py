"""Store backends behind one protocol."""

from amem_tui.engine.store.base import CollectionInfo, NoteStore, ScoredPoint, StoredPoint

__all__ = ["CollectionInfo", "NoteStore", "ScoredPoint", "StoredPoint"]
