"""The search box's status line counts a query's hits only once the panes take them:
never hits the panes do not show yet."""

from __future__ import annotations

import asyncio
import re

from tests.support.tui import demo_app, main_screen, messages_held, settle, started

QUERY = "priya code"
COUNTED = re.compile(rf"\d+ hits?\b.*for '{QUERY}'")


async def test_the_status_line_waits_for_the_panes_to_take_the_hits() -> None:
    app = demo_app()  # as main
    async with started(app) as pilot:
        main = main_screen(app)
        box, browser = main.search_box, main.browser
        # A busy browser: the hits wait in its queue while the search box has its answer.
        with messages_held(browser):
            box.query_input.value = QUERY
            for _ in range(500):
                if box.result is not None:
                    break
                await asyncio.sleep(0.01)
            assert box.result is not None, "the query was never answered"
            # Long enough for its hidden matches too (looked for once the query rests).
            await asyncio.sleep(0.4)
            held = str(box.status_line.render())
        assert not COUNTED.search(held), f"counted before the panes took the hits: {held!r}"
        await settle(pilot)
        assert COUNTED.search(str(box.status_line.render()))
