"""The floor of the terminal pipeline: a minimal Textual app to time amem-tui against.

A header, an input and a table of note texts filtered on every keystroke (a plain
substring match over the texts it was given, best rows first; a change already out
of date when it is handled, with more keys of a burst in the box, is skipped, as
amem-tui skips it), and nothing else: no
store, no model, no pydantic, no numpy. What it takes to show its first frame and to
put a typed query's first row on screen is what any Textual app pays on this machine.

Without a texts file it is the bare app: the same header, input and table, empty,
with nothing read before its first frame (what the first frame is compared with).

Usage: python bench/floor_app.py [TEXTS.json]
"""

from __future__ import annotations

import json
import sys

from textual import events
from textual.app import App, ComposeResult
from textual.widgets import DataTable, Header, Input

ROWS = 40


class OrderedInput(Input):
    """An input that runs its bound keys (Ctrl+U) as they arrive, as amem-tui's search
    box does: Textual runs them after the keys queued behind them, so "Ctrl+U, then a
    query" typed at once would lose the query (the harness then waits forever)."""

    async def _on_key(self, event: events.Key) -> None:
        if not event.is_printable:
            for binding in self._bindings.key_to_bindings.get(event.key, ()):
                event.stop()
                event.prevent_default()
                await self.run_action(binding.action)
                return
        await super()._on_key(event)


class FloorApp(App[None]):
    """Header, input, table: filtered on every keystroke."""

    TITLE = "floor app"

    def __init__(self, texts: list[str]) -> None:
        super().__init__()
        self.texts = texts
        self.lowered = [text.lower() for text in texts]

    def compose(self) -> ComposeResult:
        yield Header()
        yield OrderedInput(placeholder="filter")
        yield DataTable()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("note")
        self.show("")
        self.query_one(Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.value != event.input.value:
            return  # more keys of a burst are in the box: filter for the newest text only
        self.show(event.value)

    def show(self, query: str) -> None:
        wanted = query.lower().strip()
        rows = [t for t, low in zip(self.texts, self.lowered, strict=True) if wanted in low]
        table = self.query_one(DataTable)
        table.clear()
        for text in rows[:ROWS]:
            table.add_row(text[:150])
        # What a harness waits for, as it waits for amem-tui's search status line.
        self.sub_title = f"{len(rows)} rows for '{query}'"


if __name__ == "__main__":
    if len(sys.argv) < 2:
        FloorApp([]).run()
    else:
        with open(sys.argv[1], encoding="utf-8") as handle:
            FloorApp(json.load(handle)).run()
