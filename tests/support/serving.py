"""``amem-tui serve`` in a subprocess, and a client that talks to it as the page does:
load the page over HTTP, open its websocket, read the terminal output of the session.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from amem_tui.engine.embed import TEST_MODEL
from tests.support.paths import REPO_ROOT

#: Escape sequences in a terminal stream (CSI, OSC, charset and keypad modes).
ANSI = re.compile(
    r"\x1b\[[0-9;?<>=!]*[ -/]*[@-~]"  # CSI: colours, cursor moves, modes
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC: titles, clipboard
    r"|\x1b[()#][0-9A-Za-z]|\x1b[=>78]"  # charsets, keypad, cursor save
)


def plain(stream: str) -> str:
    """A terminal stream with its escape sequences taken out."""
    return ANSI.sub("", stream)


def serve_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment of a served inspector: private folders and the test embedder."""
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("AMEM_", "QDRANT_"))},
        "PYTHONPATH": str(REPO_ROOT),
        "HOME": str(home),
        "AMEM_DATA_DIR": str(home / "data"),
        "AMEM_CONFIG_DIR": str(home / "config"),
        "AMEM_CACHE_DIR": str(home / "cache"),
        "AMEM_MODEL": TEST_MODEL,
        **extra,
    }


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
    """Wait until something listens on 127.0.0.1:``port`` (or the process died)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            out = process.stdout.read().decode() if process.stdout else ""
            raise AssertionError(f"serve exited with {process.returncode}: {out}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"nothing listens on port {port}")


@contextmanager
def served(
    args: list[str], home: Path, port: int, serve_args: tuple[str, ...] = ()
) -> Iterator[subprocess.Popen[bytes]]:
    """``amem-tui ARGS serve --port PORT SERVE_ARGS``, stopped (Ctrl+C) on leaving."""
    process = subprocess.Popen(
        [sys.executable, "-m", "amem_tui", *args, "serve", "--port", str(port), *serve_args],
        cwd=REPO_ROOT,
        env=serve_env(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for_port(port, process)
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


async def session_text(
    url: str,
    wanted: list[str],
    width: int = 120,
    height: int = 40,
    timeout: float = 90,
    headers: dict[str, str] | None = None,
) -> str:
    """Open the session websocket as the page does and read the terminal output until
    every string of ``wanted`` has arrived; returns the output, escape sequences out.
    ``headers`` go with the websocket's request (a cookie, say)."""
    import aiohttp

    ws_url = url.replace("http://", "ws://").rstrip("/") + f"/ws?width={width}&height={height}"
    received = ""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(ws_url, headers=headers) as ws,
    ):
        await ws.send_json(["resize", {"width": width, "height": height}])
        while True:
            left = deadline - loop.time()
            assert left > 0, f"{wanted} never arrived; got: {plain(received)[-1500:]}"
            message = await ws.receive(timeout=left)
            if message.type == aiohttp.WSMsgType.BINARY:
                received += message.data.decode("utf-8", "replace")
            elif message.type == aiohttp.WSMsgType.TEXT:
                received += message.data
            else:
                raise AssertionError(f"the session ended: {message.type}; {plain(received)}")
            text = plain(received)
            if all(w in text for w in wanted):
                return text
