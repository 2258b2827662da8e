"""An OpenAI-compatible embeddings endpoint for tests, on 127.0.0.1.

It answers ``POST .../embeddings`` as OpenAI, LM Studio and other compatible servers
do (``{"model", "input", "encoding_format"}`` in, ``{"data": [{"embedding": [...]}]}``
out), Azure OpenAI's deployment route too (``api-key`` header), and Gemini's
``POST /v1beta/models/<model>:batchEmbedContents`` (``x-goog-api-key``), with the
vectors of a given embedder, and only for the key it was given: anything else gets a
401 that quotes the key it was sent, as OpenAI's does. OpenAI's base path is ``/v1``.
Every request is recorded in ``OpenAIStandIn.requests``, with its headers and body.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from amem_tui.engine.embed import Embedder


class OpenAIStandIn:
    """An OpenAI-shaped embeddings server backed by ``embedder``."""

    def __init__(self, embedder: Embedder, key: str, model: str = "text-embedding-3-small"):
        self.embedder = embedder
        self.key = key
        self.model = model
        #: ``(method and path, headers, body)`` of every request.
        self.requests: list[tuple[str, dict[str, str], Any]] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The base URL a client's ``baseURL`` points at (ends in ``/v1``)."""
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> OpenAIStandIn:
        standin = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                """Quiet: tests read ``OpenAIStandIn.requests``."""

            def do_POST(self) -> None:
                standin.answer(self)

            do_GET = do_POST

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

    @property
    def root(self) -> str:
        """The server's address without a path (Gemini's and Azure's base)."""
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def embeddings_asked(self) -> int:
        """How many embedding requests came in."""
        return sum(1 for line, _, _ in self.requests if line.startswith("POST"))

    def answer(self, handler: BaseHTTPRequestHandler) -> None:
        """One request: an embedding, a 401 for a wrong key, or 404."""
        line = f"{handler.command} {handler.path}"
        path = handler.path.split("?", 1)[0]
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        try:
            body: Any = json.loads(raw) if raw.strip() else {}
        except ValueError:
            body = None
        self.requests.append((line, dict(handler.headers.items()), body))
        gemini = path.endswith(":batchEmbedContents")
        if handler.command != "POST" or not (gemini or path.endswith("/embeddings")):
            self._send(handler, 404, {"error": {"message": f"no route {line}"}})
            return
        headers = handler.headers
        sent = (
            headers.get("x-goog-api-key")
            or headers.get("api-key")
            or headers.get("Authorization", "").removeprefix("Bearer ")
        )
        if sent != self.key:
            message = f"Incorrect API key provided: {sent}."
            self._send(handler, 401, {"error": {"message": message, "code": "invalid_api_key"}})
            return
        if not isinstance(body, dict):
            self._send(handler, 400, {"error": {"message": "invalid JSON"}})
            return
        if gemini:
            requests = body.get("requests") or [{}]
            model = str(requests[0].get("model", "")).removeprefix("models/")
            texts = [str(r["content"]["parts"][0]["text"]) for r in requests]
        else:
            model = str(body.get("model"))
            given = body.get("input", "")
            texts = [str(t) for t in given] if isinstance(given, list) else [str(given)]
        if model != self.model:
            self._send(handler, 404, {"error": {"message": f"model {model!r} not found"}})
            return
        with self._lock:
            rows = [[float(x) for x in row] for row in self.embedder.embed_documents(texts)]
        if gemini:
            self._send(handler, 200, {"embeddings": [{"values": row} for row in rows]})
            return
        data = [{"object": "embedding", "index": i, "embedding": r} for i, r in enumerate(rows)]
        self._send(handler, 200, {"object": "list", "data": data, "model": self.model})

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)
