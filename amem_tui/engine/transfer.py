"""Export a collection to JSON Lines and import it back, validating every line first.

One line per point: ``{"id": ..., "payload": {...}}``, plus ``"vector"`` and the
``"model"`` that made it when vectors are exported, and ``"sparse"`` (named sparse
vectors such as mem0's ``bm25``: ``{"indices": [...], "values": [...]}``) where the
point has any. Payloads are written exactly
as stored, so an export imported into an empty store gives back the same notes.

An import validates the whole file before writing anything. A rejected line is
reported with its number and reason, and then nothing is written unless the
caller asks to skip rejected lines. If a write fails half-way, the result says
exactly which notes were written.
"""

from __future__ import annotations

import json
import math
import re
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from amem_tui.engine.collections import CollectionService
from amem_tui.engine.embed import canonical_model_name
from amem_tui.engine.errors import AmemError, InvalidInput
from amem_tui.engine.formats import payload_format
from amem_tui.engine.models import SHARED, MemoryNote
from amem_tui.engine.notes import NoteWriter
from amem_tui.engine.scope import validate_agent_id
from amem_tui.engine.store.base import NoteStore, SparseVector
from amem_tui.engine.words import json_escaped

EXPORT_PAGE = 512
IMPORT_BATCH = 256
#: Lines read between two progress calls.
READ_STEP = 1000
#: What bytes that are not UTF-8 become when a file is read with ``surrogateescape``.
_UNDECODED = re.compile("[\udc80-\udcff]")

#: ``progress(phase, done, total)`` of a long import (total 0: not known yet).
ImportProgress = Callable[[str, int, int], None]


# -------------------------------------------------------------------- export
def export_lines(service: CollectionService, vectors: bool = False) -> Iterator[dict[str, Any]]:
    """Every point of a collection (aliases resolved), in id order, as export records."""
    info = service.info()
    if info is None:
        raise InvalidInput(f"collection '{service.name}' does not exist")
    model = info.embedding_model
    if model is None and vectors:
        detected = service.model.info()
        model = detected.name if detected else None
    for point in service.store.scan(info.name, None, with_vectors=vectors, page=EXPORT_PAGE):
        record: dict[str, Any] = {"id": point.id, "payload": point.payload}
        if vectors and point.vector is not None:
            record["vector"] = [float(x) for x in point.vector]
            record["model"] = model
        if vectors and point.sparse:
            record["sparse"] = {
                name: {"indices": list(sv.indices), "values": list(sv.values)}
                for name, sv in point.sparse.items()
            }
        yield record


def dump_line(record: dict[str, Any]) -> str:
    """One export record as a JSON line: no line break inside, nothing a terminal obeys.

    JSON allows C1 controls, bidi overrides and U+2028/U+2029 raw; written as
    ``\\u`` escapes they decode to the same value, and neither a line reader nor
    a terminal that shows the export can be fooled by them.
    """
    return json_escaped(json.dumps(record, ensure_ascii=False, separators=(",", ":")))


# -------------------------------------------------------------------- import
class RejectedLine(BaseModel):
    """A line of an import file that will not be written, and why."""

    line: int
    id: str | None
    reason: str


class ImportResult(BaseModel):
    """What an import found and did."""

    file: str
    collection: str
    lines: int = 0
    valid: int = 0
    rejected: list[RejectedLine] = Field(default_factory=list)
    written: int = 0
    written_ids: list[str] = Field(default_factory=list)
    #: Of the notes written (in a dry run: that would be), how many kept the vector
    #: their line gave and how many were embedded again; nothing written, both 0.
    vectors_kept: int = 0
    reembedded: int = 0
    dry_run: bool = False
    complete: bool = False
    error: str | None = None


class _Valid(BaseModel):
    line: int
    note: MemoryNote
    vector: list[float] | None
    sparse: dict[str, tuple[list[int], list[float]]] = Field(default_factory=dict)


def _valid_point_id(value: Any) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value >= 0:
        return str(value)
    if isinstance(value, str):
        if value.isdigit():
            return value
        try:
            return str(uuid.UUID(value)) if str(uuid.UUID(value)) == value.lower() else None
        except ValueError:
            return None
    return None


def _no_constant(name: str) -> Any:
    """NaN and Infinity are not JSON; Python's parser would accept them."""
    raise ValueError(f"{name} is not a JSON value")


def _canonical(payload: dict[str, Any]) -> str:
    return json.dumps(payload, sort_keys=True, ensure_ascii=False)


def _check_line(
    number: int,
    text: str,
    seen: set[str],
    target_model: str,
    target_dim: int,
) -> _Valid | RejectedLine:
    undecoded = _UNDECODED.search(text)
    if undecoded is not None:
        return RejectedLine(
            line=number,
            id=None,
            reason=f"not UTF-8 text (a bad byte at column {undecoded.start() + 1})",
        )
    try:
        record = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        return RejectedLine(line=number, id=None, reason=f"not valid JSON ({exc.msg})")
    except ValueError as exc:
        return RejectedLine(line=number, id=None, reason=f"not valid JSON ({exc})")
    if not isinstance(record, dict):
        return RejectedLine(line=number, id=None, reason="not a JSON object")
    raw_id = record.get("id")
    point_id = _valid_point_id(raw_id)
    shown = str(raw_id) if raw_id is not None else None
    if point_id is None:
        return RejectedLine(
            line=number, id=shown, reason="id must be a UUID or an unsigned integer"
        )
    if point_id in seen:
        return RejectedLine(line=number, id=point_id, reason="id repeats an earlier line")
    payload = record.get("payload")
    if not isinstance(payload, dict):
        return RejectedLine(line=number, id=point_id, reason="payload must be a JSON object")
    if payload_format(payload) == "mem0":
        return RejectedLine(
            line=number,
            id=point_id,
            reason="a mem0 memory (data, no content): only openclaw-amem notes are imported",
        )
    note = MemoryNote.from_payload(point_id, payload)
    if note.problems:
        return RejectedLine(line=number, id=point_id, reason="; ".join(note.problems))
    reason = _access_problem(note)
    if reason:
        return RejectedLine(line=number, id=point_id, reason=reason)
    if _canonical(note.to_payload()) != _canonical(payload):
        return RejectedLine(
            line=number, id=point_id, reason="payload would not be stored unchanged"
        )
    sparse = _sparse(record)
    if isinstance(sparse, str):
        return RejectedLine(line=number, id=point_id, reason=sparse)
    vector = _vector(record, target_model, target_dim)
    if isinstance(vector, str):
        return RejectedLine(line=number, id=point_id, reason=vector)
    seen.add(point_id)
    return _Valid(line=number, note=note, vector=vector, sparse=sparse)


def _access_problem(note: MemoryNote) -> str | None:
    """The scope fields must name real agents: nothing is shared by accident."""
    agent = note.agent_id or ""
    if agent != SHARED:
        try:
            validate_agent_id(agent)
        except InvalidInput as exc:
            return f"agent_id: {exc}"
    if note.owner is not None:
        try:
            validate_agent_id(note.owner)
        except InvalidInput as exc:
            return f"owner: {exc}"
    return None


def _sparse(record: dict[str, Any]) -> dict[str, tuple[list[int], list[float]]] | str:
    """The named sparse vectors of a line, or a reason to reject it."""
    raw = record.get("sparse")
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        return "sparse must map vector names to {indices, values}"
    out: dict[str, tuple[list[int], list[float]]] = {}
    for name, value in raw.items():
        indices = value.get("indices") if isinstance(value, dict) else None
        values = value.get("values") if isinstance(value, dict) else None
        if (
            not isinstance(indices, list)
            or not isinstance(values, list)
            or len(indices) != len(values)
            or not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in indices)
            or not all(
                isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
                for v in values
            )
        ):
            return f"sparse vector {name!r} must hold as many indices as values"
        out[str(name)] = ([int(i) for i in indices], [float(v) for v in values])
    return out


#: The types a vector's numbers parse to from JSON.
_NUMBER_TYPES = frozenset({int, float})


def _vector(record: dict[str, Any], target_model: str, target_dim: int) -> list[float] | str | None:
    """The vector to keep, None to re-embed, or a reason to reject the line."""
    raw = record.get("vector")
    if raw is None:
        return None
    # Whole-list checks at C speed (a JSON number parses to exactly int or float; a
    # bool is neither): a per-element test took 50-60 us of a 384-number vector.
    if (
        not isinstance(raw, list)
        or not _NUMBER_TYPES.issuperset(map(type, raw))
        or not all(map(math.isfinite, raw))
    ):
        return "vector must be a list of finite numbers"
    model = record.get("model")
    same_model = isinstance(model, str) and canonical_model_name(model) == target_model
    if not same_model or len(raw) != target_dim:
        return None  # made by another model or size: embed the content again
    return list(map(float, raw))


def _sparse_vectors(item: _Valid) -> dict[str, SparseVector]:
    return {
        name: SparseVector(tuple(indices), tuple(values))
        for name, (indices, values) in item.sparse.items()
    }


def _counted(lines: Iterable[str], progress: ImportProgress | None) -> Iterator[str]:
    """The lines, with a progress call every ``READ_STEP`` of them."""
    count = 0
    for count, line in enumerate(lines, start=1):
        if progress is not None and count % READ_STEP == 0:
            progress("reading", count, 0)
        yield line
    if progress is not None:
        progress("reading", count, count)


@dataclass
class _Checked:
    """What the first pass keeps of a valid line: never the note or its vector."""

    line: int
    id: str
    has_vector: bool
    sparse: tuple[str, ...]


def import_lines(
    service: CollectionService,
    writer: NoteWriter,
    lines: Iterable[str],
    *,
    source: str = "-",
    skip_invalid: bool = False,
    replace: bool = False,
    dry_run: bool = False,
    progress: ImportProgress | None = None,
) -> ImportResult:
    """Validate, then write the notes into the collection with ``NoteWriter.put``.

    Two passes over ``lines`` (a list, or an object that reads its file again each
    time it is iterated; a one-shot iterator is kept in memory): the first checks
    every line and keeps only ids and line numbers, the second writes in batches, so
    a file of a million notes never sits in memory.
    ``progress(phase, done, total)`` hears of each step: ``reading`` (lines so far),
    ``writing`` (notes written of the valid ones). A line read from bytes that are not
    UTF-8 (decoded with ``surrogateescape``) is rejected as such, with its number.

    Writes nothing when any line is rejected, unless ``skip_invalid``. Ids that
    already exist in the collection are rejected unless ``replace``. The caller
    checks first that the store and collection may be written.
    """
    collection = service.name
    result = ImportResult(file=source, collection=collection, dry_run=dry_run)
    if iter(lines) is lines:  # a one-shot iterator cannot be read twice: keep it
        lines = list(lines)
    ours = service.model.ours
    info = service.info()
    target_model, target_dim = ours.model_name, ours.dim
    if info is not None:
        usable, reason = service.model.status()
        if not usable or service.model.embedder() is not ours:
            # Re-embedding would mix our vectors into another model's collection.
            raise AmemError(f"cannot import into '{collection}': {reason}")
    slots = set(info.sparse_vectors) if info is not None else None
    checked = _first_pass(
        service, result, lines, target_model, target_dim, replace, slots, progress
    )
    result.valid = len(checked)
    if dry_run:  # what a write would do; a write counts what it did (see _write)
        result.vectors_kept = sum(1 for c in checked if c.has_vector)
        result.reembedded = len(checked) - result.vectors_kept
    if dry_run or (result.rejected and not skip_invalid) or not checked:
        result.complete = not dry_run and not checked and not result.rejected
        return result
    new_slots = sorted({name for c in checked for name in c.sparse})
    wanted = {c.line for c in checked}
    batch: list[_Valid] = []
    for number, text in enumerate(lines, start=1):
        if number not in wanted:
            continue
        again = _check_line(number, text, set(), target_model, target_dim)
        if isinstance(again, RejectedLine):  # the file changed between the passes
            result.error = (
                f"line {number} changed while importing ({again.reason}) "
                f"({_written(result.written, len(checked))})"
            )
            return result
        batch.append(again)
        if len(batch) >= IMPORT_BATCH:
            if not _write(service, writer, batch, new_slots, result, replace):
                return result
            batch = []
            if progress is not None:
                progress("writing", result.written, len(checked))
    if batch and not _write(service, writer, batch, new_slots, result, replace):
        return result
    if progress is not None:
        progress("writing", result.written, len(checked))
    result.complete = True
    return result


def _first_pass(
    service: CollectionService,
    result: ImportResult,
    lines: Iterable[str],
    target_model: str,
    target_dim: int,
    replace: bool,
    slots: set[str] | None,
    progress: ImportProgress | None,
) -> list[_Checked]:
    """Check every line; keep what the second pass needs, reject what cannot be written."""
    seen: set[str] = set()
    kept: list[_Checked] = []
    pending: list[_Checked] = []
    exists = service.exists()

    def settle_pending() -> None:
        # Ids already in the collection, asked for a block at a time.
        present = (
            {p.id for p in service.store.retrieve(service.name, [c.id for c in pending])}
            if exists and not replace
            else set()
        )
        for item in pending:
            if item.id in present:
                result.rejected.append(
                    RejectedLine(
                        line=item.line,
                        id=item.id,
                        reason="id already in the collection (use --replace to overwrite)",
                    )
                )
            else:
                kept.append(item)
        pending.clear()

    for number, text in enumerate(_counted(lines, progress), start=1):
        if not text.strip():
            continue
        result.lines += 1
        checked = _check_line(number, text, seen, target_model, target_dim)
        if isinstance(checked, RejectedLine):
            result.rejected.append(checked)
            continue
        missing = sorted(set(checked.sparse) - slots) if slots is not None else []
        if missing:
            result.rejected.append(
                RejectedLine(
                    line=number,
                    id=checked.note.id,
                    reason=(
                        f"sparse vector {missing[0]!r} has no slot in collection '{service.name}'"
                    ),
                )
            )
            continue
        pending.append(
            _Checked(number, checked.note.id, checked.vector is not None, tuple(checked.sparse))
        )
        if len(pending) >= IMPORT_BATCH:
            settle_pending()
    settle_pending()
    result.rejected.sort(key=lambda r: r.line)
    return kept


def _written(done: int, total: int) -> str:
    """How far an import came before it stopped: ``after 3 of 10 notes were written``."""
    return f"after {done} of {total} {'note was' if total == 1 else 'notes were'} written"


def _write(
    service: CollectionService,
    writer: NoteWriter,
    batch: list[_Valid],
    sparse_slots: list[str],
    result: ImportResult,
    replace: bool,
) -> bool:
    """Write one batch, each note kept as an ``import`` version; False (with the error
    said) when it failed."""
    total = result.valid
    try:
        writer.put(
            service,
            [v.note for v in batch],
            [v.vector for v in batch],
            sparse=[_sparse_vectors(v) for v in batch],
            sparse_slots=sparse_slots,
            version="import",
            new_notes=not replace,
        )
    except AmemError as exc:
        result.error = f"{exc} ({_written(result.written, total)})"
        return False
    except Exception as exc:
        result.error = f"{type(exc).__name__}: {exc} ({_written(result.written, total)})"
        return False
    result.written += len(batch)
    result.written_ids.extend(v.note.id for v in batch)
    kept = sum(1 for v in batch if v.vector is not None)
    result.vectors_kept += kept
    result.reembedded += len(batch) - kept
    return True


def settle(store: NoteStore, service: CollectionService, progress: ImportProgress | None) -> None:
    """After a bulk write: let the store finish its background work and save the
    collection's note index, so the next session neither waits nor competes."""
    tell = progress or (lambda phase, done, total: None)
    tell("optimizing", 0, 1)
    store.settle(service.real_name)
    tell("optimizing", 1, 1)
    tell("indexing", 0, 1)
    service.index.prepare()
    tell("indexing", 1, 1)
