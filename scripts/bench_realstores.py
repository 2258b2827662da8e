"""Time audit, export and import on a store of N notes (qdrant-client local mode).

Usage: python scripts/bench_realstores.py [N]   (default 2000)

Prints the note count and seconds per operation, with the plain listing of the
whole collection as the yardstick in the same run (ratios, since machines are noisy).
"""

from __future__ import annotations

import sys
import tempfile
import time
import uuid
from pathlib import Path

from amem_tui.config import AgentConfig, Settings
from amem_tui.engine.embed import HashEmbedder
from amem_tui.engine.engine import MemoryEngine
from amem_tui.engine.models import MemoryNote
from amem_tui.engine.store.qdrant import QdrantStore
from amem_tui.engine.transfer import dump_line


def build(engine: MemoryEngine, count: int) -> None:
    notes = []
    for i in range(count):
        agent = ("main", "dev", "ops")[i % 3]
        shared = i % 10 == 0
        payload = {
            "content": f"Note {i} about deploys, vendors and the on-call rotation",
            "agent_id": "shared" if shared else agent,
            "owner": agent,
            "readers": ["*"] if shared else [agent],
            "writers": [agent],
            "links": [str(uuid.UUID(int=i - 1))] if i else [],
            "is_active": True,
        }
        if i % 50 == 0:
            payload.pop("owner")  # a legacy note now and then
        notes.append(MemoryNote.from_payload(str(uuid.UUID(int=i)), payload))
    engine.put_notes("amem_notes", notes)


def timed(label: str, fn: object) -> float:
    start = time.perf_counter()
    fn()  # type: ignore[operator]
    took = time.perf_counter() - start
    print(f"{label:<28} {took:8.2f} s")
    return took


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    with tempfile.TemporaryDirectory() as tmp:
        store = QdrantStore(path=str(Path(tmp) / "store"))
        settings = Settings(agents=[AgentConfig(agent="dev")])
        engine = MemoryEngine(settings, store=store, embedder=HashEmbedder())
        build(engine, count)
        print(f"{count} notes, qdrant-client local mode, test embedder")
        base = timed(
            "list every note (yardstick)",
            lambda: engine.agent("main").list_notes("visible", limit=count),
        )
        audit = timed("audit", engine.audit)
        lines: list[str] = []
        export = timed(
            "export", lambda: lines.extend(dump_line(r) for r in engine.export_lines("amem_notes"))
        )
        imp = timed("import (re-embed)", lambda: engine.import_lines(lines, "copy"))
        print(
            f"ratios to the listing: audit {audit / base:.1f}x, "
            f"export {export / base:.1f}x, import {imp / base:.1f}x"
        )
        store.close()


if __name__ == "__main__":
    main()
