"""Saving a note index beside its store (or in the cache folder), so it outlives the process.

One file holds every array, the strings included (ids and terms as newline-joined
UTF-8, see ``ids``; each note's first words as one UTF-8 block, see
``snippets``; the access records as coded columns): a JSON header names each
array's type, shape and offset, and the arrays follow. Loading maps the file
copy-on-write and reads nothing else, so a search touches only the pages it needs (an
``.npz`` read whole through ``np.load`` was a large share of a one-shot search at a
million notes; docs/performance.md has the figures). A small
``.json`` beside it says which state of the collection the index reflects. Both are
written to temporary names and renamed, the JSON last, so a reader sees a whole index
or none. The state says which write the
index reflects: a caller uses it as is only when the store is still there, else
catches it up from the store's journal, or builds it afresh.
"""

from __future__ import annotations

import contextlib
import json
import mmap
import os
from pathlib import Path
from typing import Any

import numpy as np

from amem_tui.engine.index.ids import IdColumn
from amem_tui.engine.index.records import RecordTable
from amem_tui.engine.index.snippets import SnippetColumn
from amem_tui.engine.index.table import NoteIndex

#: Bumped whenever what is saved (or how notes are tokenized) changes.
FORMAT = 9
ARRAYS = "index.bin"
META = "index.json"
#: What earlier formats wrote beside the index, removed when it is saved again.
EARLIER_ARRAYS = ("index.npz",)
_MAGIC = b"AMEMIDX\x07"
#: Each array starts on a multiple of this many bytes (so every dtype is aligned).
_ALIGN = 64
#: Arrays a search reads a few entries of, here and there (a hit's id, first words,
#: order key and heat fields; a note's terms): the kernel is told to read just the
#: pages touched. Its read-ahead otherwise reads a window of up to megabytes around
#: each cold page (8 MB on the machines measured: 40 hits' first words read 62 MB from
#: the disk, and their ids and order keys 59 MB more). ``retrieval_count`` keeps the
#: read-ahead: the recall figures read it whole. A compaction reads them all whole: it
#: says so first (``MappedIndex.read_whole``).
_READ_AT_RANDOM = frozenset(
    {
        "ids",
        "id_ends",
        "snippets",
        "snippet_ends",
        "order",
        "doc_start",
        "doc_term",
        "doc_tf",
        "last_accessed",
        "timestamp",
        "consolidated",
    }
)
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
    if index.fresh_terms or not index.ordered == len(index) == len(index.ids):
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
    ids, id_ends = index.ids.encoded()
    snippets, snippet_ends = index.snippets.encoded()
    arrays: dict[str, np.ndarray] = {
        "lengths": index.lengths,
        "order": index.order,
        "doc_start": index.doc_start,
        "doc_term": index.doc_term,
        "doc_tf": index.doc_tf,
        "term_start": index.term_start,
        "post_doc": index.post_doc,
        "post_tf": index.post_tf,
        "ids": ids,
        "id_ends": id_ends,
        "snippets": snippets,
        "snippet_ends": snippet_ends,
        "terms": _joined(index.terms),
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
    tmp_arrays = folder / f"{ARRAYS}.{os.getpid()}.tmp"
    tmp_meta = folder / f"{META}.{os.getpid()}.tmp"
    _write_arrays(tmp_arrays, arrays)
    tmp_meta.write_text(json.dumps({"format": FORMAT, "state": state}), encoding="utf-8")
    with contextlib.suppress(OSError):  # the old pair stops matching before the new one lands
        (folder / META).unlink()
    os.replace(tmp_arrays, folder / ARRAYS)
    os.replace(tmp_meta, folder / META)
    for name in EARLIER_ARRAYS:
        with contextlib.suppress(OSError):
            (folder / name).unlink()


def _write_arrays(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """The arrays in one file: magic, header length, JSON header, then each array."""
    contiguous = {name: np.ascontiguousarray(a) for name, a in arrays.items()}
    layout: dict[str, tuple[str, list[int], int]] = {}
    offset = 0
    for name, a in contiguous.items():
        layout[name] = (a.dtype.str, list(a.shape), offset)
        offset += -(-a.nbytes // _ALIGN) * _ALIGN
    header = json.dumps(layout).encode("utf-8")
    start = -(-(len(_MAGIC) + 8 + len(header)) // _ALIGN) * _ALIGN
    with path.open("wb") as out:
        out.write(_MAGIC + len(header).to_bytes(8, "little") + header)
        for name, a in contiguous.items():
            out.seek(start + layout[name][2])
            a.tofile(out)
        out.truncate(start + offset)


class MappedIndex:
    """The mapping a loaded index reads its arrays from, and how it is read."""

    def __init__(self, mapped: mmap.mmap) -> None:
        self._mapped = mapped

    def read_at_random(self, offset: int, size: int) -> None:
        """Tell the kernel that these bytes are read here and there (no read-ahead)."""
        self._advise("MADV_RANDOM", offset, size)

    def read_whole(self) -> None:
        """Tell the kernel that the whole mapping is about to be read (read-ahead back)."""
        self._advise("MADV_NORMAL", 0, len(self._mapped))

    def _advise(self, name: str, offset: int, size: int) -> None:
        advice = getattr(mmap, name, None)
        if advice is None or self._mapped.closed:
            return
        first = offset - offset % mmap.PAGESIZE
        with contextlib.suppress(OSError, ValueError):  # advice only: a speed matter
            self._mapped.madvise(advice, first, offset + size - first)


def _read_arrays(path: Path) -> tuple[dict[str, np.ndarray], MappedIndex]:
    """The arrays ``_write_arrays`` wrote, mapped copy-on-write (writable, and
    changes stay in this process), and their mapping."""
    with path.open("rb") as file:
        mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_COPY)
    source = MappedIndex(mapped)
    if mapped[: len(_MAGIC)] != _MAGIC:
        raise ValueError("not a saved note index")
    size = int.from_bytes(mapped[len(_MAGIC) : len(_MAGIC) + 8], "little")
    end = len(_MAGIC) + 8 + size
    layout = json.loads(mapped[len(_MAGIC) + 8 : end])
    start = -(-end // _ALIGN) * _ALIGN
    arrays: dict[str, np.ndarray] = {}
    for name, (dtype, shape, offset) in layout.items():
        kind = np.dtype(dtype)
        if 0 in shape:
            arrays[name] = np.zeros(shape, dtype=kind)
            continue
        arrays[name] = np.ndarray(shape, dtype=kind, buffer=mapped, offset=start + offset)
        if name in _READ_AT_RANDOM:
            source.read_at_random(start + offset, arrays[name].nbytes)
    return arrays, source


def saved(folder: Path) -> bool:
    """True when ``folder`` holds an index of this format (whatever state it reflects)."""
    try:
        meta = json.loads((folder / META).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(meta, dict) and meta.get("format") == FORMAT and (folder / ARRAYS).is_file()


def load(folder: Path) -> tuple[NoteIndex, dict[str, Any]] | None:
    """The saved index and the state it was built at, or None (missing, old, unreadable)."""
    try:
        meta = json.loads((folder / META).read_text(encoding="utf-8"))
        if meta.get("format") != FORMAT:
            return None
        a, source = _read_arrays(folder / ARRAYS)
        index = NoteIndex()
        index.before_whole_read = source.read_whole
        index.set_ids(IdColumn.saved(a["ids"], a["id_ends"]))
        index.snippets = SnippetColumn.saved(a["snippets"], a["snippet_ends"])
        index.terms = _texts(a["terms"])
        index.term_id = dict(zip(index.terms, range(len(index.terms)), strict=True))
        index.records = _records(a)
        for name in ("lengths", "order", "doc_start", "doc_term", "doc_tf"):
            setattr(index, name, a[name])
        index.term_start, index.post_doc, index.post_tf = (
            a["term_start"],
            a["post_doc"],
            a["post_tf"],
        )
    except (OSError, ValueError, TypeError, KeyError, IndexError):
        return None
    index.alive = np.ones(len(index.ids), dtype=bool)
    ends = a["id_ends"]
    if len(ends) and int(ends[-1]) != len(a["ids"]):
        return None
    sizes = (len(index.records), len(index.lengths), len(index.snippets))
    if any(size != len(index.ids) for size in sizes):
        return None
    return index, dict(meta.get("state") or {})


def _joined(texts: list[str]) -> np.ndarray:
    """Strings as one UTF-8 byte array, newline between them (no id or term has one:
    point ids are UUIDs or numbers, and terms are word characters)."""
    return np.frombuffer("\n".join(texts).encode("utf-8"), dtype=np.uint8)


def _texts(raw: np.ndarray) -> list[str]:
    """The strings ``_joined`` joined (one split, not one decode per string)."""
    return raw.tobytes().decode("utf-8").split("\n") if raw.size else []


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
