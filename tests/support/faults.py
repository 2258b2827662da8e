"""Fault injection for tests: a store that fails on demand, and a fake server that
misbehaves the ways a real Qdrant server (or a proxy in front of one) does.

No Qdrant server binary is available offline, so the fake answers only the few
requests a client makes at start; everything after that is a fault.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

from amem_tui.engine.errors import StoreUnavailable
from amem_tui.engine.store.base import NoteStore

#: The NoteStore methods that write.
WRITES = frozenset({"ensure_collection", "upsert", "set_payload", "delete_points"})


class FlakyStore:
    """Wraps a real store; while ``down`` every call raises ``StoreUnavailable``.

    ``fail_after`` lets that many more calls through first, so a fault can land in
    the middle of an operation. ``calls`` counts the calls made, by method name.
    """

    def __init__(self, inner: NoteStore) -> None:
        self.inner = inner
        self.down = False
        #: What the failure says (after the failing call's name).
        self.reason = "the server went away (injected)"
        self.fail_after: int | None = None
        self.calls: dict[str, int] = {}
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        target = getattr(self.inner, name)
        if not callable(target) or name == "close":
            return target

        def call(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                self.calls[name] = self.calls.get(name, 0) + 1
                if self.fail_after is not None:
                    if self.fail_after <= 0:
                        self.down = True
                    self.fail_after -= 1
                failing = self.down
            if failing:
                raise StoreUnavailable(f"{name} failed: {self.reason}")
            return target(*args, **kwargs)

        return call


Fault = Literal["ok", "refuse", "reset", "hang", "503", "500", "401", "404", "garbage", "empty"]


class FakeServer:
    """A local HTTP server that can stand in for a Qdrant server at start, then fail.

    In mode ``ok`` it answers the requests a client makes when it connects (an
    empty list of collections, no aliases); any other mode is a fault. Use as a
    context manager; it only listens on 127.0.0.1.
    """

    def __init__(self, mode: Fault = "ok", hang_seconds: float = 30.0) -> None:
        self.mode: Fault = mode
        self.hang_seconds = hang_seconds
        self.requests: list[str] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                """Quiet."""

            def handle_one(self) -> None:
                fake.requests.append(f"{self.command} {self.path}")
                fake._answer(self)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = handle_one

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> FakeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        """Stop listening: from now on connections are refused."""
        self._server.shutdown()
        self._server.server_close()

    def _answer(self, handler: BaseHTTPRequestHandler) -> None:
        mode = self.mode
        if mode in ("reset", "refuse"):
            # An abortive close: the client sees "connection reset by peer".
            handler.connection.setsockopt(
                socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
            )
            handler.connection.close()
            handler.close_connection = True
            return
        if mode == "hang":
            time.sleep(self.hang_seconds)
            handler.close_connection = True
            return
        if mode == "empty":
            handler.close_connection = True
            return
        status, body = 200, b""
        if mode in ("503", "500", "401", "404"):
            status = int(mode)
            body = json.dumps({"status": {"error": f"injected {mode}"}, "time": 0}).encode()
        elif mode == "garbage":
            body = b"<html><body>502 Bad Gateway from a proxy</body></html>"
        else:
            body = json.dumps(
                {"result": _healthy(handler.path), "status": "ok", "time": 0}
            ).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)


def _healthy(path: str) -> Any:
    if path.rstrip("/").endswith("/exists"):
        return {"exists": False}
    if path.startswith("/aliases") or "/aliases" in path:
        return {"aliases": []}
    if path.startswith("/collections"):
        return {"collections": []}
    return {"title": "fake", "version": "1.15.0"}


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def silent_listener() -> Iterator[int]:
    """A port that accepts connections and never answers (a black hole)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    try:
        yield int(sock.getsockname()[1])
    finally:
        sock.close()
