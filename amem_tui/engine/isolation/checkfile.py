"""A checks file: memory checks that CI can run, as TOML ``[[check]]`` tables.

.. code-block:: toml

    [[check]]
    name = "dev never recalls main's travel"   # optional
    agent = "dev"                              # an agent id, or a mem0 namespace
    user = "alice"                             # mem0 stores: whose memories (optional)
    subject = "Priya"                          # openclaw-amem's memory_search filter
    query = "flight to the offsite"
    top = 5                                    # expect looks at the top this many
    expect = ["on-call", "6f1c2a4e-..."]       # note ids or text, in the top `top`
    forbid = ["Lisbon"]                        # note ids or text, nowhere in the hits
    hidden_because = "private"                 # every forbid is a hidden match for
                                               # that reason; or a table of them:
    # hidden_because = { "Lisbon" = "private", "seat 12A" = "get_only" }

A reason is a hidden match's kind (``private``, ``get_only``, ``deleted``, ``mode_b``,
``outside``, ``malformed``, ``user``, ``plugin``) or words of its sentence. Every
error names the file's line and the key: a syntax error (where TOML says it is), an
unknown key, a value of the wrong type, and (once a store is known) an unknown agent.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from amem_tui.engine.errors import CheckFileError

#: The keys a ``[[check]]`` table may hold.
CHECK_KEYS = ("name", "agent", "user", "subject", "query", "top", "expect", "forbid",
              "hidden_because")  # fmt: skip
#: How many hits ``expect`` looks at when a check does not say.
DEFAULT_TOP = 5

_HEADER = re.compile(r"^\s*\[\[\s*check\s*\]\]")
_TABLE = re.compile(r"^\s*\[")
_AT_LINE = re.compile(r"at line (\d+)")


class MemoryCheck(BaseModel):
    """One check: what an agent must and must not recall for a query."""

    number: int
    line: int
    name: str
    agent: str
    query: str
    user: str | None = None
    subject: str | None = None
    top: int = DEFAULT_TOP
    expect: list[str] = Field(default_factory=list)
    forbid: list[str] = Field(default_factory=list)
    #: Item (note id or text) -> the reason it must be hidden for.
    hidden_because: dict[str, str] = Field(default_factory=dict)
    #: The line of each key of its table (for errors found later, e.g. an unknown agent).
    lines: dict[str, int] = Field(default_factory=dict)

    def error(self, source: str, key: str, problem: str) -> CheckFileError:
        """An error about one of this check's keys, at its line."""
        return CheckFileError(source, self.lines.get(key, self.line), key, problem)


class CheckFile(BaseModel):
    """The checks of one file, in file order."""

    source: str
    checks: list[MemoryCheck]


def load_checks(path: str | Path) -> CheckFile:
    """Read and check a checks file (``CheckFileError`` names the line and key)."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CheckFileError(str(file), None, None, f"cannot read it: {exc}") from None
    return parse_checks(text, str(file))


def parse_checks(text: str, source: str = "<checks>") -> CheckFile:
    """Checks from TOML text (``source`` names it in errors)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = _AT_LINE.search(str(exc))
        line = int(found.group(1)) if found else None
        raise CheckFileError(source, line, None, f"not valid TOML: {exc}") from None
    lines = text.splitlines()
    for key in data:
        if key != "check":
            raise CheckFileError(
                source, _top_line(lines, key), key, "unknown key: the file holds [[check]] tables"
            )
    tables = data.get("check", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise CheckFileError(source, _top_line(lines, "check"), "check", "write [[check]] tables")
    if not tables:
        raise CheckFileError(source, None, None, "no [[check]] table: nothing to check")
    headers = [i + 1 for i, line in enumerate(lines) if _HEADER.match(line)]
    return CheckFile(
        source=source,
        checks=[_check(source, lines, headers, n, table) for n, table in enumerate(tables, 1)],
    )


def _check(
    source: str, lines: list[str], headers: list[int], number: int, table: dict[str, Any]
) -> MemoryCheck:
    start = headers[number - 1] if number <= len(headers) else 1
    end = headers[number] if number < len(headers) else len(lines) + 1
    at = {key: _key_line(lines, start, end, key) for key in table}

    def fail(key: str | None, problem: str) -> CheckFileError:
        return CheckFileError(source, at.get(key, start) if key else start, key, problem)

    for key in table:
        if key not in CHECK_KEYS:
            raise fail(key, f"unknown key (a check takes {', '.join(CHECK_KEYS)})")
    for key in ("agent", "query"):
        if key not in table:
            raise fail(None, f"check {number} has no {key}")
    text = {k: _text(table, k, fail) for k in ("name", "agent", "query", "user", "subject")}
    top = table.get("top", DEFAULT_TOP)
    if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= 100:
        raise fail("top", "must be a whole number from 1 to 100")
    expect, forbid = _items(table, "expect", fail), _items(table, "forbid", fail)
    hidden = _reasons(table, forbid, fail)
    return MemoryCheck(
        number=number,
        line=start,
        name=text["name"] or f"check {number}: {text['agent']} / {text['query']}",
        agent=text["agent"] or "",
        query=text["query"] or "",
        user=text["user"],
        subject=text["subject"],
        top=top,
        expect=expect,
        forbid=forbid,
        hidden_because=hidden,
        lines=at,
    )


def _text(table: dict[str, Any], key: str, fail: Any) -> str | None:
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise fail(key, "must be text, not empty")
    return value


def _items(table: dict[str, Any], key: str, fail: Any) -> list[str]:
    value = table.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise fail(key, "must be a list of note ids or text fragments")
    return list(value)


def _reasons(table: dict[str, Any], forbid: list[str], fail: Any) -> dict[str, str]:
    value = table.get("hidden_because")
    if value is None:
        return {}
    if isinstance(value, str) and value.strip():
        if not forbid:
            raise fail(
                "hidden_because",
                "a reason alone applies to each forbid item, and this check forbids "
                'nothing: name the items ({ "item" = "reason" }) or add forbid',
            )
        return dict.fromkeys(forbid, value)
    if (
        isinstance(value, dict)
        and value
        and all(
            isinstance(k, str) and k.strip() and isinstance(v, str) and v.strip()
            for k, v in value.items()
        )
    ):
        return dict(value)
    raise fail("hidden_because", 'must be a reason, or a table { "item" = "reason" }')


def _key_line(lines: list[str], start: int, end: int, key: str) -> int:
    """The line of ``key = ...`` between a table's header and the next one."""
    wanted = re.compile(rf"^\s*(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')\s*=")
    for number in range(start, min(end, len(lines) + 1)):
        if wanted.match(lines[number - 1]):
            return number
    return start


def _top_line(lines: list[str], key: str) -> int | None:
    """The line of a key outside any table (before the first table header)."""
    wanted = re.compile(rf"^\s*(?:{re.escape(key)}|\"{re.escape(key)}\")\s*[=.]")
    for number, line in enumerate(lines, 1):
        if _TABLE.match(line) and not _HEADER.match(line):
            header = line.strip().strip("[]").strip()
            if header == key or header.startswith(f"{key}."):
                return number
        if wanted.match(line):
            return number
    return None
