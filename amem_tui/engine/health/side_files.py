"""The files openclaw-amem keeps beside the store, read without ever failing.

``amem_nightly_owed.json`` (openclaw-amem's nightly.ts): ``{"agents": {"<raw agent
id>": {"from": ISO, "wrote": ISO}}}``, the agents that wrote since the nightly merge
last settled them: ``from`` their earliest write not yet merged, ``wrote`` their
latest. openclaw-amem skips an entry without both strings, and reads a file it cannot
parse as owing nobody (then writes over it).

``logs/amem-consolidate.log`` (amem-core's ``consolidateMemories``): one line per
merge, ``[ISO] Consolidated: KeepNote <id> and DropNote <id>. Merged length: <n>
chars.``, appended forever. Any other line is kept as it is; one that speaks of an
error or a failure is read as one, and an untimed line continues the line before it.

Both live in openclaw-amem's folder, ``~/.openclaw`` (see
``EngineSettings.openclaw_folder``). A file that is not there is reported as not found;
one that cannot be read or parsed as unreadable, with what went wrong.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

from amem_tui.engine.health.report import NightlyRun, SideFile
from amem_tui.engine.models import parse_time

OWED_FILE = "amem_nightly_owed.json"
LOG_FILE = Path("logs") / "amem-consolidate.log"
#: The log is read from its end, this much of it at most.
LOG_TAIL_BYTES = 1 << 20
#: Log entries further apart than this are separate runs.
RUN_GAP = timedelta(hours=1)

_MERGE = re.compile(
    r"^\[(?P<at>[^\]]+)\] Consolidated: KeepNote (?P<keep>\S+) and DropNote (?P<drop>\S+)\."
)
_TIMED = re.compile(r"^\[(?P<at>[^\]]+)\]\s?(?P<text>.*)$")
_TROUBLE = re.compile(r"error|fail|exception|denied|timed out|timeout|unusable", re.IGNORECASE)


@dataclass(frozen=True)
class Owed:
    """An agent openclaw-amem owes a nightly merge."""

    agent: str
    since: datetime
    wrote: datetime | None


@dataclass
class OwedFile:
    """What ``amem_nightly_owed.json`` says, and what of it could not be read."""

    file: SideFile
    agents: list[Owed] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def utc_time(value: object) -> datetime | None:
    """An ISO time as an aware UTC datetime (one without a zone read as UTC)."""
    moment = parse_time(value) if isinstance(value, str) else None
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _read_text(path: Path, tail: int | None = None) -> str:
    with path.open("rb") as handle:
        if tail is not None:
            size = handle.seek(0, 2)
            handle.seek(max(0, size - tail))
        data = handle.read()
    if tail is not None and len(data) == tail:
        data = data.split(b"\n", 1)[-1]  # the first line may be cut
    return data.decode("utf-8")


def read_owed(folder: Path) -> OwedFile:
    """``amem_nightly_owed.json`` in ``folder``, as found."""
    path = folder / OWED_FILE
    if not path.exists():
        detail = "openclaw-amem before its nightly merge keeps none"
        return OwedFile(
            SideFile(name="nightly-owed", path=str(path), state="not found", detail=detail)
        )
    try:
        raw = json.loads(_read_text(path))
    except (OSError, UnicodeDecodeError) as exc:
        return _unreadable(path, f"cannot be read ({exc})")
    except json.JSONDecodeError as exc:
        return _unreadable(path, f"not valid JSON (line {exc.lineno}: {exc.msg})")
    agents = raw.get("agents") if isinstance(raw, dict) else None
    if not isinstance(agents, dict):
        return _unreadable(path, 'not an object with an "agents" object')
    out = OwedFile(_side("nightly-owed", path, "found"))
    for agent, entry in agents.items():
        since = utc_time(entry.get("from")) if isinstance(entry, dict) else None
        wrote_raw = entry.get("wrote") if isinstance(entry, dict) else None
        if since is None or not isinstance(wrote_raw, str):
            out.skipped.append(str(agent))
            continue
        out.agents.append(Owed(str(agent), since, utc_time(wrote_raw)))
    if out.skipped:
        out.file.detail = (
            f"entries without a readable from and wrote, which openclaw-amem skips: "
            f"{', '.join(out.skipped)}"
        )
    return out


def _unreadable(path: Path, why: str) -> OwedFile:
    return OwedFile(_side("nightly-owed", path, "unreadable", why))


def _side(
    name: Literal["nightly-owed", "consolidate-log"],
    path: Path,
    state: Literal["found", "not found", "unreadable"],
    detail: str = "",
) -> SideFile:
    return SideFile(name=name, path=str(path), state=state, detail=detail)


@dataclass
class LogFile:
    """What ``amem-consolidate.log`` says: its runs, newest first."""

    file: SideFile
    runs: list[NightlyRun] = field(default_factory=list)


@dataclass
class _Entry:
    at: datetime | None
    merge: bool
    text: str


def _entries(text: str) -> list[_Entry]:
    entries: list[_Entry] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        merged = _MERGE.match(line)
        timed = _TIMED.match(line)
        at = utc_time(timed.group("at")) if timed else None
        if merged is not None and at is not None:
            entries.append(_Entry(at, True, line))
        elif at is not None and timed is not None:
            entries.append(_Entry(at, False, timed.group("text")))
        elif entries and not entries[-1].merge:
            entries[-1].text += "\n" + line.rstrip()
        else:
            entries.append(_Entry(None, False, line.rstrip()))
    return entries


def read_log(folder: Path) -> LogFile:
    """The end of ``logs/amem-consolidate.log`` in ``folder``, read into runs."""
    path = folder / LOG_FILE
    if not path.exists():
        detail = "openclaw-amem writes it at its first merge"
        return LogFile(
            SideFile(name="consolidate-log", path=str(path), state="not found", detail=detail)
        )
    try:
        text = _read_text(path, LOG_TAIL_BYTES)
    except (OSError, UnicodeDecodeError) as exc:
        why = f"cannot be read ({exc})"
        return LogFile(
            SideFile(name="consolidate-log", path=str(path), state="unreadable", detail=why)
        )
    runs: list[NightlyRun] = []
    last: datetime | None = None
    for entry in _entries(text):
        if entry.at is None:  # an untimed first line: no run to put it in
            continue
        if not runs or last is None or entry.at - last > RUN_GAP:
            runs.append(NightlyRun(source="amem-consolidate.log", started_at=_iso(entry.at)))
        run = runs[-1]
        run.finished_at = _iso(entry.at)
        last = entry.at
        if entry.merge:
            run.merges += 1
        elif _TROUBLE.search(entry.text):
            run.errors.append(entry.text)
            run.status = "failed"
    runs.reverse()
    return LogFile(_side("consolidate-log", path, "found"), runs)


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")
