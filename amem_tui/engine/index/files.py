"""Saving a note index beside its store (or in the cache folder), so it outlives the process.

One ``.npz`` holds every array, the strings included (ids, terms and the access
records as coded columns), so loading is a few array reads rather than parsing text;
a small ``.json`` beside it says which state of the collection the index reflects.
Both are written to temporary names and renamed, the JSON last, so a reader sees a
whole index or none. The state says which write the index reflects: a caller uses it
as is only when the store is still there, else catches it up from the store's
journal, or builds it afresh.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from amem_tui.engine.index.records import RecordTable
from amem_tui.engine.index.table import NoteIndex

#: Bumped whenever what is saved (or how notes are tokenized) changes.
FORMAT = 5
ARRAYS = "index.npz"
META = "index.json"
_ACTIVE = {False: 0, True: 1, None: 2}
_ACTIVE_BACK = (False, True, None)


class _Codes:
    """Strings (or None) as small integers, with the table to read them back."""

    def __init__(self) -> None:
        self.table: list[str] = []
        self._code: dict[str, int] = {}

    def code(self, value: str | None) -> int:
        if value is None:
            return -1
        found = self._code.get(value)
        if found is None:
            found = self._code[value] = len(self.table)
            self.table.append(value)
        return found


def save(index: NoteIndex, folder: Path, state: dict[str, Any]) -> None:
    """Write a compacted index and the ``state`` it reflects (best effort: a cache)."""
    if index.fresh_terms or len(index.position) != len(index.ids):
        index.compact()
    folder.mkdir(parents=True, exist_ok=True)
    table = index.records
    codes = _Codes()
    # The distinct access keys, as coded columns (readers back to back).
    readers_start = [0]
    readers_codes: list[int] = []
    for _, readers, _, _, _ in table.keys:
        readers_codes.extend(codes.code(r) for r in readers or ())
        readers_start.append(len(readers_codes))
    arrays = {
        "lengths": index.lengths,
        "order": index.order,
        "doc_start": index.doc_start,
        "doc_term": index.doc_term,
        "doc_tf": index.doc_tf,
        "term_start": index.term_start,
        "post_doc": index.post_doc,
        "post_tf": index.post_tf,
        "ids": _bytes(index.ids),
        "terms": _bytes(index.terms),
        "key_agent_id": np.asarray([codes.code(k[0]) for k in table.keys], dtype=np.int32),
        "key_readers_start": np.asarray(readers_start, dtype=np.int64),
        "key_readers_codes": np.asarray(readers_codes, dtype=np.int32),
        "key_no_readers": np.asarray([k[1] is None for k in table.keys], dtype=bool),
        "key_is_active": np.asarray([_ACTIVE[k[2]] for k in table.keys], dtype=np.int8),
        "key_malformed": np.asarray([k[3] for k in table.keys], dtype=bool),
        "key_user_id": np.asarray([codes.code(k[4]) for k in table.keys], dtype=np.int32),
        "kinds": np.asarray(table.kinds, dtype=np.str_),
        "access": table.access,
        "kind": table.kind,
        "retrieval_count": table.retrievals,
        "last_accessed": table.last_accessed,
        "timestamp": table.timestamp,
        "consolidated": table.consolidated,
        "codes": np.asarray(codes.table, dtype=np.str_),
    }
    tmp_arrays = folder / f"{ARRAYS}.{os.getpid()}.tmp.npz"
    tmp_meta = folder / f"{META}.{os.getpid()}.tmp"
    np.savez(tmp_arrays, **arrays)  # type: ignore[arg-type]
    tmp_meta.write_text(json.dumps({"format": FORMAT, "state": state}), encoding="utf-8")
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
        with np.load(folder / ARRAYS) as saved:
            a = {name: saved[name] for name in saved.files}
        index = NoteIndex()
        index.ids = _texts(a["ids"])
        index.position = {note_id: p for p, note_id in enumerate(index.ids)}
        index.terms = _texts(a["terms"])
        index.term_id = {term: t for t, term in enumerate(index.terms)}
        index.records = _records(a)
        for name in ("lengths", "order", "doc_start", "doc_term", "doc_tf"):
            setattr(index, name, a[name])
        index.term_start, index.post_doc, index.post_tf = (
            a["term_start"],
            a["post_doc"],
            a["post_tf"],
        )
    except (OSError, ValueError, KeyError, IndexError):
        return None
    index.alive = np.ones(len(index.ids), dtype=bool)
    if len(index.records) != len(index.ids) or len(index.lengths) != len(index.ids):
        return None
    return index, dict(meta.get("state") or {})


def _bytes(texts: list[str]) -> np.ndarray:
    """Strings as one byte array (UTF-8; ids, terms and times are ASCII in practice)."""
    return np.asarray([t.encode("utf-8") for t in texts], dtype=np.bytes_)


def _texts(raw: np.ndarray) -> list[str]:
    return [b.decode("utf-8") for b in raw.tolist()]


def _records(a: dict[str, Any]) -> RecordTable:
    """The saved record columns, and the table of access keys they code."""
    table: list[str] = a["codes"].tolist()

    def text(code: int) -> str | None:
        return table[code] if code >= 0 else None

    starts: list[int] = a["key_readers_start"].tolist()
    reader_codes: list[int] = a["key_readers_codes"].tolist()
    keys = zip(
        a["key_agent_id"].tolist(),
        a["key_no_readers"].tolist(),
        a["key_is_active"].tolist(),
        a["key_malformed"].tolist(),
        a["key_user_id"].tolist(),
        strict=True,
    )
    records = RecordTable()
    for i, (agent, no_readers, active, bad, user) in enumerate(keys):
        readers = (
            None if no_readers else tuple(table[c] for c in reader_codes[starts[i] : starts[i + 1]])
        )
        records.add_key((text(agent), readers, _ACTIVE_BACK[active], bool(bad), text(user)))
    for kind in a["kinds"].tolist():
        records.add_kind(str(kind))
    records.access = a["access"]
    records.kind = a["kind"]
    records.retrievals = a["retrieval_count"]
    records.last_accessed = a["last_accessed"]
    records.timestamp = a["timestamp"]
    records.consolidated = a["consolidated"]
    return records
