"""What drawing a pane's table of hits costs: amem_tui's NoteTable against Textual's
stock DataTable (and any other table class), side by side in one app, alternated.

Each round fills every table with the same 40 rows of search hits (one cell of one
line each, as a note pane's hits are drawn) and lets a frame draw them; the time is
the table's own ``render_lines`` in that frame (the lines it draws), and the fill
(``clear``, ``add_column``, ``add_row``). Medians over the rounds, in milliseconds.
A Textual upgrade can be weighed with it: if the stock table comes close, NoteTable's
own drawing can go.

    python bench/table_draw.py [--rounds 120] [--also MODULE.PY:CLASS ...]

``--also`` adds a table class from a file (say the NoteTable of another checkout).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import DataTable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from amem_tui.tui.widgets.note_table import NoteTable

WORDS = [
    "deploy",
    "freeze",
    "postgres",
    "connection",
    "pool",
    "billing",
    "api",
    "staging",
    "production",
    "lisbon",
    "flight",
    "offsite",
    "seat",
    "kafka",
    "redis",
    "grafana",
    "alert",
    "rollback",
    "canary",
    "schema",
]


def hit_row(rng: random.Random, index: int) -> Text:
    """A search hit's one cell, as note_rows.search_row draws it."""
    row = Text(no_wrap=True, overflow="ellipsis")
    row.append(f"{rng.random():>6.2f}  ")
    row.append(f"{'2/3':<7}", style="italic")
    row.append(f"  {'main':<5}  ")
    if index % 5 == 0:
        row.append("new", style="bold black on yellow")
        row.append(" · ", style="dim")
    body = Text(" ".join(rng.choice(WORDS) for _ in range(30)))
    body.highlight_regex(r"(?i)\bdeploy", style="bold underline")
    row.append_text(body)
    return row


def loaded(spec: str) -> tuple[str, type[DataTable[Any]]]:
    path, _, name = spec.partition(":")
    module_spec = importlib.util.spec_from_file_location(f"other_{len(sys.modules)}", path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_spec.name] = module
    module_spec.loader.exec_module(module)
    return f"{path}:{name}", getattr(module, name)


class Tables(App[None]):
    CSS = "Horizontal > * { width: 1fr; height: 1fr; }"

    def __init__(self, kinds: dict[str, type[DataTable[Any]]]) -> None:
        super().__init__()
        self.kinds = kinds

    def compose(self) -> ComposeResult:
        with Horizontal():
            for number, kind in enumerate(self.kinds.values()):
                yield kind(cursor_type="row", zebra_stripes=False, id=f"t{number}")


async def measure(kinds: dict[str, type[DataTable[Any]]], rounds: int) -> dict[str, Any]:
    app = Tables(kinds)
    rng = random.Random(7)
    found: dict[str, list[tuple[float, float]]] = {name: [] for name in kinds}
    async with app.run_test(size=(160, 48)) as pilot:
        tables = {name: app.query_one(f"#t{n}", DataTable) for n, name in enumerate(kinds)}
        drawn = dict.fromkeys(kinds, 0.0)
        for name, table in tables.items():
            draw = table.render_lines

            def timed(crop: Any, name: str = name, draw: Any = draw) -> Any:
                begun = time.perf_counter()
                try:
                    return draw(crop)
                finally:
                    drawn[name] += time.perf_counter() - begun

            table.render_lines = timed  # type: ignore[method-assign]
        for number in range(rounds):
            rows = [hit_row(rng, i) for i in range(40)]
            names = list(kinds) if number % 2 == 0 else list(reversed(kinds))
            for name in names:
                table = tables[name]
                begun = time.perf_counter()
                table.clear(columns=True)
                table.add_column(Text("cosine  match    owner  content"), key="content", width=70)
                for i, row in enumerate(rows):
                    table.add_row(row.copy(), key=f"n{i}")
                table.move_cursor(row=rng.randrange(40))
                fill = time.perf_counter() - begun
                drawn[name] = 0.0
                await pilot.pause()
                await pilot.pause()
                if number >= 10:  # the first rounds warm up
                    found[name].append((fill, drawn[name]))
    return {
        name: {
            "fill_ms": statistics.median(f for f, _ in times) * 1000,
            "draw_ms": statistics.median(d for _, d in times) * 1000,
        }
        for name, times in found.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=120)
    parser.add_argument("--also", nargs="*", default=[], metavar="MODULE.PY:CLASS")
    args = parser.parse_args()
    kinds: dict[str, type[DataTable[Any]]] = {"NoteTable": NoteTable, "DataTable": DataTable}
    kinds.update(loaded(spec) for spec in args.also)
    figures = asyncio.run(measure(kinds, args.rounds))
    stock = figures["DataTable"]["draw_ms"]
    print(f"40 hits, 160x48, {args.rounds - 10} rounds, medians")
    for name, row in figures.items():
        print(
            f"  {name:40} fill {row['fill_ms']:6.2f} ms  draw {row['draw_ms']:6.2f} ms"
            f"  ({row['draw_ms'] / stock:.2f}x the stock table's draw)"
        )


if __name__ == "__main__":
    main()
