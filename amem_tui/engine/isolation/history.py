"""Each agent's recent queries, kept on disk: what a search box recalls with Up and
lists, and what a change's preview re-runs (which results would enter or leave each
agent's top hits).

One JSON file holds every store's queries, each under its store's label and agent
(newest first), with the filters it was asked with (openclaw-amem's ``subject`` and
``topicsFilter``: a search box's ``subject:`` words, the CLI's ``--subject``), so a
preview re-runs it as it was asked, and the limit it asked for, so a search box
recalls it as it was typed. A query asked again (with any limit) moves to the top
instead of repeating; each agent
keeps ``PER_AGENT`` queries and the file ``TOTAL`` (the oldest go first), so
the file stays small. Writes replace the file whole (write, then rename): a reader
never sees half of one, and two processes writing at once lose at most a query.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

#: Queries kept per agent of a store, and in the whole file.
PER_AGENT = 100
TOTAL = 5000
#: Longest query kept (a pasted page is not a query worth recalling).
LONGEST = 500


#: What makes two recorded queries the same question: agent, text, subject, topics.
Asked = tuple[str, str, str | None, tuple[str, ...]]


class RecordedQuery(BaseModel):
    """One query an agent's search was asked: its text and its filters."""

    store: str
    agent: str
    query: str
    at: str
    subject: str | None = None
    topics: list[str] = Field(default_factory=list)
    #: The matches asked for (None: the agent's default). Recalled with the query, but
    #: not part of its question: a preview compares the top 5 whatever was asked.
    limit: int | None = None

    def asked(self) -> Asked:
        """The question it asked: agent, text and filters."""
        return (self.agent, self.query, self.subject, tuple(self.topics))


class QueryHistory:
    """The recent queries of one store's agents, kept in ``path``."""

    def __init__(self, path: Path, store: str, clock: Callable[[], datetime]) -> None:
        self.path = path
        self.store = store
        self._clock = clock
        self._lock = threading.Lock()

    def _read(self) -> list[RecordedQuery]:
        try:
            raw: Any = json.loads(self.path.read_text(encoding="utf-8"))
            entries = raw.get("queries", []) if isinstance(raw, dict) else []
            return [RecordedQuery.model_validate(e) for e in entries if isinstance(e, dict)]
        except (OSError, ValueError, ValidationError):
            return []  # no file yet, or one written by something else: start afresh

    def _write(self, entries: list[RecordedQuery]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        data = {"version": 1, "queries": [e.model_dump() for e in entries]}
        tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, self.path)

    def record(
        self,
        agent: str,
        query: str,
        subject: str | None = None,
        topics: Sequence[str] = (),
        limit: int | None = None,
    ) -> None:
        """Keep ``query`` (searched with ``subject``, ``topics`` and ``limit``) as
        ``agent``'s newest (empty and over-long queries are not kept)."""
        text = query.strip()
        if not text or len(text) > LONGEST:
            return
        new = RecordedQuery(
            store=self.store,
            agent=agent,
            query=text,
            at=self._clock().isoformat(),
            subject=subject,
            topics=list(topics),
            limit=limit,
        )
        with self._lock:
            entries = [
                e for e in self._read() if not (e.store == self.store and e.asked() == new.asked())
            ]
            entries.insert(0, new)
            kept: list[RecordedQuery] = []
            per: dict[tuple[str, str], int] = {}
            for entry in entries:
                key = (entry.store, entry.agent)
                per[key] = per.get(key, 0) + 1
                if per[key] <= PER_AGENT and len(kept) < TOTAL:
                    kept.append(entry)
            with contextlib.suppress(OSError):  # a history is a convenience, never an error
                self._write(kept)

    def recent(self, agent: str, limit: int = PER_AGENT) -> list[str]:
        """``agent``'s queries' text, newest first."""
        return [e.query for e in self.recent_entries(agent, limit)]

    def recent_entries(self, agent: str, limit: int = PER_AGENT) -> list[RecordedQuery]:
        """``agent``'s queries with their filters, newest first."""
        found = [e for e in self._read() if e.store == self.store and e.agent == agent]
        return found[:limit]

    def everyone(self, per_agent: int = PER_AGENT) -> list[RecordedQuery]:
        """Every agent's recent queries of this store, newest first (``per_agent`` each)."""
        out: list[RecordedQuery] = []
        count: dict[str, int] = {}
        for entry in self._read():
            if entry.store != self.store:
                continue
            count[entry.agent] = count.get(entry.agent, 0) + 1
            if count[entry.agent] <= per_agent:
                out.append(entry)
        return out

    def forget(self, agent: str | None = None) -> None:
        """Drop ``agent``'s queries (None: every agent's of this store)."""
        with self._lock:
            kept = [
                e
                for e in self._read()
                if e.store != self.store or (agent is not None and e.agent != agent)
            ]
            with contextlib.suppress(OSError):
                self._write(kept)
