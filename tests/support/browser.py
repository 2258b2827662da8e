"""Headless Chromium for the served inspector: load a page, watch the websocket frames it
receives, and take a screenshot, through the DevTools protocol (no extra packages:
aiohttp, which textual-serve brings, speaks the websocket).

Tests skip when no Chromium is installed (Debian: ``apt-get install chromium``),
except where a browser is required (``AMEM_REQUIRE_BROWSER`` or ``AMEM_REQUIRE_PARITY``
set, as ``.ci/run`` sets them, or ``CI``): there a missing Chromium fails them.
"""

from __future__ import annotations

import asyncio
import base64
import json
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from tests.support.faults import free_port
from tests.support.serving import plain

#: Names a Chromium binary goes by.
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "headless_shell")


def find_chromium() -> str | None:
    """The path of an installed Chromium, or None."""
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


#: Variables that make a missing Chromium a failure rather than a skip.
REQUIRED_BY = ("AMEM_REQUIRE_BROWSER", "AMEM_REQUIRE_PARITY", "CI")
INSTALL = "Debian: apt-get install chromium (.ci/run installs it)"


def required_chromium() -> str:
    """The installed Chromium; without one the test is skipped, or fails where a
    browser is required (``REQUIRED_BY``)."""
    import os

    import pytest

    found = find_chromium()
    if found is not None:
        return found
    if any(os.environ.get(name) for name in REQUIRED_BY):
        pytest.fail(f"no Chromium installed, and the browser tests are required here ({INSTALL})")
    pytest.skip(f"no Chromium installed ({INSTALL})")


class Page:
    """One browser tab, driven over the DevTools protocol."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self._next = 0
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        #: Everything the page's websockets received, as text.
        self.frames = ""
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            data = json.loads(message.data)
            if "id" in data:
                future = self._waiting.pop(data["id"], None)
                if future is not None and not future.done():
                    future.set_result(data)
            elif data.get("method") == "Network.webSocketFrameReceived":
                response = data["params"]["response"]
                payload = response.get("payloadData", "")
                if response.get("opcode") == 2:  # binary: base64 of the bytes
                    payload = base64.b64decode(payload).decode("utf-8", "replace")
                self.frames += payload

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Run one DevTools command and return its result."""
        self._next += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[self._next] = future
        await self.ws.send_json({"id": self._next, "method": method, "params": params})
        answer = await asyncio.wait_for(future, timeout=60)
        if "error" in answer:
            raise AssertionError(f"{method}: {answer['error']}")
        result: dict[str, Any] = answer.get("result", {})
        return result

    async def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    async def wait_for_text(self, wanted: list[str], timeout: float = 90) -> str:
        """Wait until the page's websocket has received every string of ``wanted``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not all(w in plain(self.frames) for w in wanted):
            assert loop.time() < deadline, f"{wanted} never reached the browser"
            await asyncio.sleep(0.2)
        return plain(self.frames)

    async def screenshot(self) -> bytes:
        """A PNG of the page as it is drawn now."""
        result = await self.call("Page.captureScreenshot", format="png")
        return base64.b64decode(result["data"])


@asynccontextmanager
async def chromium_page(
    url: str, width: int = 1280, height: int = 800, binary: str | None = None
) -> AsyncIterator[Page]:
    """Headless Chromium on ``url``, its websocket frames recorded from the first one."""
    import aiohttp

    chromium = binary or find_chromium()
    assert chromium is not None, "no Chromium installed"
    port = free_port()
    profile = tempfile.mkdtemp(prefix="amem-chromium-")
    process = subprocess.Popen(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--no-default-browser-check",
            "--hide-scrollbars",
            f"--window-size={width},{height}",
            f"--remote-debugging-port={port}",
            f"--user-data-dir={profile}",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        async with aiohttp.ClientSession() as session:
            targets: list[dict[str, Any]] = []
            for _ in range(300):
                try:
                    async with session.get(f"http://127.0.0.1:{port}/json/list") as answer:
                        targets = [t for t in await answer.json() if t.get("type") == "page"]
                    if targets:
                        break
                except aiohttp.ClientError:
                    pass
                await asyncio.sleep(0.1)
            assert targets, "Chromium did not start"
            async with session.ws_connect(targets[0]["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                page = Page(ws)
                await page.call("Network.enable")
                await page.call("Page.enable")
                await page.call("Page.navigate", url=url)
                yield page
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(Path(profile), ignore_errors=True)
