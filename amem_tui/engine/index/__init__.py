"""The note index: what ranking needs of every note of a collection, without the notes.

``table`` holds ids, access records and BM25 postings column-wise and scores BM25
over any selection of them; ``cache`` keeps it current in this process and catches
it up across processes; ``files`` saves it beside the store (or in the cache
folder for stores amem-tui does not write), so a new process does not read and
tokenize a whole collection before its first keyword search.
"""

from __future__ import annotations

from amem_tui.engine.index.cache import IndexCache, PointReader, SelectionKey
from amem_tui.engine.index.records import AccessRecord
from amem_tui.engine.index.table import NoteIndex, Selection

__all__ = ["AccessRecord", "IndexCache", "NoteIndex", "PointReader", "Selection", "SelectionKey"]
