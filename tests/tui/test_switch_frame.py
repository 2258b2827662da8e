"""An agent switch reaches the terminal in one frame: never one agent's header over
another agent's panes."""

from __future__ import annotations

import asyncio

from textual.widgets import Static

from amem_tui.tui.widgets.header import HeaderBar
from amem_tui.tui.widgets.note_pane import NotePane
from tests.support.tui import demo_app, main_screen, settle, started


async def test_switch_waits_for_every_widget_before_painting() -> None:
    app = demo_app()  # main (Mode A) → sandbox (Mode B)
    async with started(app) as pilot:
        main = main_screen(app)
        main.switch_hold_limit = 600.0  # only the widgets may end the hold in this test
        header = main.query_one(HeaderBar)
        # Textual has no public per-frame hook: count the screen's compositor refreshes
        # (each one writes a frame to the terminal).
        frames: list[str] = []
        paint = main._compositor_refresh

        def counted() -> None:
            frames.append("frame")
            paint()

        main._compositor_refresh = counted  # type: ignore[method-assign]
        # A busy header: its queue is blocked, as a loaded machine may leave it, so it
        # cannot ask the screen to repaint it yet.
        gate = asyncio.Event()

        async def busy() -> None:
            await gate.wait()

        header.call_later(busy)
        try:
            main.switch_agent("sandbox")
            # pilot.pause() would wait for the blocked header: let the loop run instead.
            for _ in range(500):
                if main.scope is not None and main.scope.agent == "sandbox":
                    break
                await asyncio.sleep(0.01)
            assert main.scope is not None and main.scope.agent == "sandbox"
            shown = len(frames)
            for _ in range(10):  # room for several screen updates
                await asyncio.sleep(0.03)
            # The Shared pane already holds sandbox's message, but nothing was painted
            # while the header still showed main.
            message = main.query_one("#shared", NotePane).query_one(".pane-message", Static)
            assert "no shared scope" in str(message.render())
            assert len(frames) == shown
        finally:
            gate.set()  # a failed check must not leave the header blocked
        await settle(pilot)
        await pilot.pause(0.05)
        assert len(frames) > shown
        assert "sandbox" in str(header.render()) and "Mode B" in str(header.render())
