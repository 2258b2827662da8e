"""A local JSON-over-HTTP server for tests' stand-ins of other services.

It listens on 127.0.0.1 on a free port, in a thread, with kept-alive connections
(as real servers keep them), never logs, and hands every request, whatever its
method, to the stand-in's ``answer``. The stand-ins of the embedding services
(``openai_standin``, ``ollama_standin``) are built on it.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


class JsonStandIn:
    """The server half of a stand-in: subclasses say how to ``answer`` a request."""

    def __init__(self) -> None:
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def root(self) -> str:
        """The server's address without a path, ``http://127.0.0.1:PORT``."""
        assert self._server is not None, "use the stand-in as a context manager"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> Self:
        standin = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                """Quiet: tests read what the stand-in recorded."""

            def handle_one(self) -> None:
                standin.answer(self)

            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = handle_one

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def answer(self, handler: BaseHTTPRequestHandler) -> None:
        """Answer one request (with ``send``)."""
        raise NotImplementedError

    @staticmethod
    def read_json(handler: BaseHTTPRequestHandler) -> tuple[bool, Any]:
        """The request's body: ``(True, value)``, ``(True, {})`` for none, or
        ``(False, None)`` when it is not JSON."""
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        try:
            return True, (json.loads(raw) if raw.strip() else {})
        except ValueError:
            return False, None

    @staticmethod
    def send(handler: BaseHTTPRequestHandler, status: int, payload: Any) -> None:
        """Answer ``payload`` as JSON with ``status``."""
        data = json.dumps(payload).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)
