"""Which of an open Edge shard's mapped pages this process hands back, and when.

A shard's files are memory-mapped; every page a load or a read touches counts in the
process's resident memory until it is handed back (see ``mapped_pages``). What
stays mapped is what every search reads: the id tracker and the compact vectors, and
for a shard without compact vectors its full vectors and graph, which every search
walks. Everything else (the payloads, a compact shard's full vectors and graph, the
keyword indexes and the write-ahead log) is handed back right after the shard loads
and then whenever the app asks.

The keyword indexes are handed back too: a search filters by one or two of them and
maps back the few pages it reads (a minor fault each, from the page cache), while each
index keeps a fixed-size map even when empty, and an appendable segment has eight
of them.
"""

from __future__ import annotations

from amem_tui.engine.store.edge_shard import OpenShard
from amem_tui.engine.store.mapped_pages import release_mapped_pages

#: Shard files whose mapped pages every search reads: never handed back.
KEPT_MAPPED = ("id_tracker", "/quantized")
#: What every search of a shard without compact vectors walks: its vectors and graph.
SEARCHED_MAPPED = ("/vector_storage/", "/vector_index/")


def hand_back(opened: OpenShard) -> int:
    """Hand back the pages of ``opened``'s files that searches do not need resident;
    the caller holds the shard's lock for writing (nothing unmaps them meanwhile).
    Returns the bytes of mappings released."""
    skip = KEPT_MAPPED if opened.compact else (*KEPT_MAPPED, *SEARCHED_MAPPED)
    return release_mapped_pages(opened.folder / "shard", skip=skip)
