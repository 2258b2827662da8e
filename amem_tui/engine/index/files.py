"""Saving a note index beside its store (or in the cache folder), so it outlives the process.

One ``.npz`` holds the arrays and one ``.json`` the strings and the state the index
was built at; both are written to temporary names and renamed, the JSON last, so a
reader sees a whole index or none. The state says which write the index reflects: a
caller uses it as is only when the store is still there, else catches it up from the
store's journal, or builds it afresh.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from amem_tui.engine.index.records import AccessRecord
from amem_tui.engine.index.table import NoteIndex

#: Bumped whenever what is saved (or how notes are tokenized) changes.
FORMAT = 1
ARRAYS = "index.npz"
META = "index.json"


def save(index: NoteIndex, folder: Path, state: dict[str, Any]) -> None:
    """Write a compacted index and the ``state`` it reflects (best effort: a cache)."""
    if index.fresh_terms or len(index.position) != len(index.ids):
        index.compact()
    folder.mkdir(parents=True, exist_ok=True)
    records = [r for r in index.records if r is not None]
    columns = list(zip(*(r.as_tuple() for r in records), strict=True)) if records else []
    meta = {
        "format": FORMAT,
        "state": state,
        "ids": index.ids,
        "terms": index.terms,
        "records": [list(column) for column in columns],
    }
    tmp_arrays = folder / f"{ARRAYS}.{os.getpid()}.tmp.npz"
    tmp_meta = folder / f"{META}.{os.getpid()}.tmp"
    np.savez(
        tmp_arrays,
        lengths=index.lengths,
        order=index.order,
        doc_start=index.doc_start,
        doc_term=index.doc_term,
        doc_tf=index.doc_tf,
        term_start=index.term_start,
        post_doc=index.post_doc,
        post_tf=index.post_tf,
    )
    tmp_meta.write_text(json.dumps(meta, separators=(",", ":")), encoding="utf-8")
    with contextlib.suppress(OSError):  # the old pair stops matching before the new one lands
        (folder / META).unlink()
    os.replace(tmp_arrays, folder / ARRAYS)
    os.replace(tmp_meta, folder / META)


def load(folder: Path) -> tuple[NoteIndex, dict[str, Any]] | None:
    """The saved index and the state it was built at, or None (missing, old, unreadable)."""
    try:
        meta = json.loads((folder / META).read_text(encoding="utf-8"))
        if meta.get("format") != FORMAT:
            return None
        with np.load(folder / ARRAYS) as arrays:
            loaded = {name: arrays[name] for name in arrays.files}
    except (OSError, ValueError, KeyError):
        return None
    index = NoteIndex()
    index.ids = list(meta["ids"])
    index.position = {note_id: p for p, note_id in enumerate(index.ids)}
    index.terms = list(meta["terms"])
    index.term_id = {term: t for t, term in enumerate(index.terms)}
    names = AccessRecord.__slots__
    columns = meta["records"]
    records: list[AccessRecord | None] = []
    for values in zip(*columns, strict=True) if columns else ():
        fields = dict(zip(names, values, strict=True))
        readers = fields["readers"]
        fields["readers"] = tuple(readers) if readers is not None else None
        records.append(AccessRecord(**fields))
    index.records = records
    try:
        index.lengths = loaded["lengths"]
        index.order = loaded["order"]
        index.doc_start = loaded["doc_start"]
        index.doc_term = loaded["doc_term"]
        index.doc_tf = loaded["doc_tf"]
        index.term_start = loaded["term_start"]
        index.post_doc = loaded["post_doc"]
        index.post_tf = loaded["post_tf"]
    except KeyError:
        return None
    index.alive = np.ones(len(index.ids), dtype=bool)
    if len(index.records) != len(index.ids) or len(index.lengths) != len(index.ids):
        return None
    return index, dict(meta.get("state") or {})
