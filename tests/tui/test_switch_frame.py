"""An agent switch reaches the terminal in one frame: never one agent's header over
another agent's panes."""

from __future__ import annotations

import asyncio

import pytest
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from amem_tui.tui.widgets.header import HeaderBar
from amem_tui.tui.widgets.note_pane import NotePane
from tests.support.tui import demo_app, main_screen, settle, started


class Painted:
    """What chosen widgets draw, frame by frame: the screen asks a widget for its lines
    when its part of the screen is painted, all of one frame in one go (no other task
    runs meanwhile), so a counter moved on by a task at every turn of the event loop
    tells the frames apart."""

    def __init__(self) -> None:
        self.turn = 0
        self.lines: list[tuple[int, Widget, str]] = []  # (turn, widget, its text)

    async def count_turns(self) -> None:
        while True:
            self.turn += 1
            await asyncio.sleep(0)

    def follow(self, widget: Widget) -> None:
        draw = widget.render_lines

        def recorded(crop: Region) -> list[Strip]:
            lines = draw(crop)
            self.lines.append((self.turn, widget, "".join(line.text for line in lines)))
            return lines

        widget.render_lines = recorded  # type: ignore[method-assign]

    def first(self, words: str) -> int | None:
        """The turn ``words`` were first drawn in."""
        return next((t for t, _, text in self.lines if words in text), None)

    def last_before(self, widget: Widget, turn: int) -> str:
        """What ``widget`` last drew up to the frame of ``turn`` (that frame included)."""
        drawn = [text for t, w, text in self.lines if w is widget and t <= turn]
        return drawn[-1] if drawn else ""


@pytest.mark.parametrize(
    ("agent", "pane", "words"),
    [
        ("sandbox", "#shared", "no shared scope"),  # Mode B: the Shared pane's message
        ("dev", "#private", "Currently debugging auth"),  # Mode A: dev's first note
    ],
)
async def test_a_switch_paints_the_header_with_the_panes_when_the_header_is_busy(
    agent: str, pane: str, words: str
) -> None:
    app = demo_app()  # as main (Mode A)
    async with started(app) as pilot:
        main = main_screen(app)
        header = main.query_one(HeaderBar)
        shown = main.query_one(pane, NotePane)
        painted = Painted()
        painted.follow(header)
        for widget in shown.query("*"):
            painted.follow(widget)
        turns = asyncio.create_task(painted.count_turns())
        # A busy header: its queue is blocked, as a loaded machine may leave it, so it
        # cannot ask the screen to repaint it itself.
        gate = asyncio.Event()

        async def busy() -> None:
            await gate.wait()

        header.call_later(busy)
        try:
            main.switch_agent(agent)
            # pilot.pause() would wait for the blocked header: let the loop run instead.
            for _ in range(500):
                if painted.first(words) is not None:
                    break
                await asyncio.sleep(0.01)
            turn = painted.first(words)
            assert turn is not None, f"{words!r} was never painted"
            # In the frame that painted the pane's new content, the header on screen
            # (painted then, or before) names the new agent already.
            assert agent in painted.last_before(header, turn)
        finally:
            gate.set()  # a failed check must not leave the header blocked
            turns.cancel()
        await settle(pilot)
        assert agent in str(header.render())
