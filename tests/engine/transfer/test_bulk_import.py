"""A big import reports its progress and leaves the store settled: Edge's segments
merged and graph built, the note index saved, so the next session neither waits for
nor competes with background work."""

from __future__ import annotations

import json
from pathlib import Path

from amem_tui.engine.formats.openclaw import openclaw_payload
from amem_tui.engine.store.edge import EdgeStore
from tests.support.engines import make_engine


def lines(count: int) -> list[str]:
    return [
        json.dumps(
            {
                "id": f"{i + 1}",
                "payload": openclaw_payload(
                    f"Imported note number {i} about deploy windows and billing",
                    agent_id=("main", "dev", "shared")[i % 3],
                    owner=("main", "dev", "main")[i % 3],
                ),
            }
        )
        for i in range(count)
    ]


def test_a_bulk_import_reports_progress_and_settles_the_store(tmp_path: Path) -> None:
    store = EdgeStore(tmp_path / "store", optimize_after=500)
    engine = make_engine(store)
    heard: list[tuple[str, int, int]] = []
    result = engine.import_lines(
        lines(1200), "amem_notes", progress=lambda *step: heard.append(step)
    )
    assert result.complete and result.written == 1200
    phases = [phase for phase, _, _ in heard]
    assert phases.index("reading") < phases.index("writing") < phases.index("optimizing")
    assert phases.index("optimizing") < phases.index("indexing")
    assert ("writing", 1200, 1200) in heard
    assert ("reading", 1200, 1200) in heard
    assert heard[-1] == ("indexing", 1, 1)
    # Settled: nothing left for a background optimize, and the graph covers every point.
    assert not store.optimizing()
    meta = json.loads(next((tmp_path / "store").rglob("collection.json")).read_text())
    assert meta["optimized_points"] == 1200
    # The note index is saved: the next process starts from it.
    assert list((tmp_path / "store").rglob("index.json"))
    engine.close()


def test_a_small_import_is_not_optimized(tmp_path: Path) -> None:
    store = EdgeStore(tmp_path / "store", optimize_after=500)
    engine = make_engine(store)
    assert engine.import_lines(lines(20), "amem_notes").written == 20
    meta = json.loads(next((tmp_path / "store").rglob("collection.json")).read_text())
    assert meta["optimized_points"] == 0  # too small to be worth a graph
    engine.close()


def test_an_import_reads_its_source_twice_and_keeps_a_one_shot_iterator(
    tmp_path: Path,
) -> None:
    reads: list[int] = []

    class Source:
        """A file read afresh each time, as the CLI's import file is."""

        def __iter__(self):  # type: ignore[no-untyped-def]
            reads.append(1)
            yield from lines(30)

    engine = make_engine(EdgeStore(tmp_path / "a"))
    assert engine.import_lines(Source(), "amem_notes").written == 30
    assert len(reads) == 2  # checked, then written: never all in memory at once
    other = make_engine(EdgeStore(tmp_path / "b"))
    assert other.import_lines(iter(lines(30)), "amem_notes").written == 30
    engine.close()
    other.close()
