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

from amem_tui.engine.index.records import AccessRecord
from amem_tui.engine.index.table import NoteIndex

#: Bumped whenever what is saved (or how notes are tokenized) changes.
FORMAT = 3
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
    codes = _Codes()
    records = [r for r in index.records if r is not None]
    readers_start = [0]
    readers_codes: list[int] = []
    no_readers: list[bool] = []
    for record in records:
        no_readers.append(record.readers is None)
        readers_codes.extend(codes.code(r) for r in record.readers or ())
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
        "agent_id": np.asarray([codes.code(r.agent_id) for r in records], dtype=np.int32),
        "user_id": np.asarray([codes.code(r.user_id) for r in records], dtype=np.int32),
        "note_type": np.asarray([codes.code(r.note_type) for r in records], dtype=np.int32),
        "readers_start": np.asarray(readers_start, dtype=np.int64),
        "readers_codes": np.asarray(readers_codes, dtype=np.int32),
        "no_readers": np.asarray(no_readers, dtype=bool),
        "is_active": np.asarray([_ACTIVE[r.is_active] for r in records], dtype=np.int8),
        "malformed": np.asarray([r.malformed for r in records], dtype=bool),
        "retrieval_count": np.asarray([r.retrieval_count for r in records], dtype=np.int64),
        "last_accessed": _bytes([r.last_accessed for r in records]),
        "timestamp": _bytes([r.timestamp for r in records]),
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
        index.records = list(_records(a))
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


def _records(a: dict[str, Any]) -> list[AccessRecord | None]:
    table: list[str] = a["codes"].tolist()

    def text(code: int) -> str | None:
        return table[code] if code >= 0 else None

    starts: list[int] = a["readers_start"].tolist()
    reader_codes: list[int] = a["readers_codes"].tolist()
    out: list[AccessRecord | None] = []
    rows = zip(
        a["agent_id"].tolist(),
        a["user_id"].tolist(),
        a["note_type"].tolist(),
        a["no_readers"].tolist(),
        a["is_active"].tolist(),
        a["malformed"].tolist(),
        a["retrieval_count"].tolist(),
        _texts(a["last_accessed"]),
        _texts(a["timestamp"]),
        strict=True,
    )
    # Notes share reader lists: one tuple per distinct list, so records share it too.
    shared_readers: dict[tuple[int, ...], tuple[str, ...]] = {}
    for i, (agent, user, kind, no_readers, active, bad, count, seen, made) in enumerate(rows):
        readers = None
        if not no_readers:
            codes = tuple(reader_codes[starts[i] : starts[i + 1]])
            readers = shared_readers.get(codes)
            if readers is None:
                readers = shared_readers[codes] = tuple(table[c] for c in codes)
        out.append(
            AccessRecord(
                agent_id=text(agent),
                readers=readers,
                is_active=_ACTIVE_BACK[active],
                malformed=bad,
                note_type=text(kind) or "memory",
                retrieval_count=count,
                last_accessed=seen,
                timestamp=made,
                user_id=text(user),
            )
        )
    return out
