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

import threading
from http.server import BaseHTTPRequestHandler
from typing import Any

from amem_tui.engine.embed import Embedder
from tests.support.json_http import JsonStandIn


class OpenAIStandIn(JsonStandIn):
    """An OpenAI-shaped embeddings server backed by ``embedder``."""

    def __init__(self, embedder: Embedder, key: str, model: str = "text-embedding-3-small"):
        super().__init__()
        self.embedder = embedder
        self.key = key
        self.model = model
        #: ``(method and path, headers, body)`` of every request.
        self.requests: list[tuple[str, dict[str, str], Any]] = []
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        """The base URL a client's ``baseURL`` points at (ends in ``/v1``); ``root`` is
        Gemini's and Azure's base."""
        return f"{self.root}/v1"

    @property
    def embeddings_asked(self) -> int:
        """How many embedding requests came in."""
        return sum(1 for line, _, _ in self.requests if line.startswith("POST"))

    def answer(self, handler: BaseHTTPRequestHandler) -> None:
        """One request: an embedding, a 401 for a wrong key, or 404."""
        line = f"{handler.command} {handler.path}"
        path = handler.path.split("?", 1)[0]
        _, body = self.read_json(handler)
        self.requests.append((line, dict(handler.headers.items()), body))
        gemini = path.endswith(":batchEmbedContents")
        if handler.command != "POST" or not (gemini or path.endswith("/embeddings")):
            self.send(handler, 404, {"error": {"message": f"no route {line}"}})
            return
        headers = handler.headers
        sent = (
            headers.get("x-goog-api-key")
            or headers.get("api-key")
            or headers.get("Authorization", "").removeprefix("Bearer ")
        )
        if sent != self.key:
            message = f"Incorrect API key provided: {sent}."
            self.send(handler, 401, {"error": {"message": message, "code": "invalid_api_key"}})
            return
        if not isinstance(body, dict):
            self.send(handler, 400, {"error": {"message": "invalid JSON"}})
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
            self.send(handler, 404, {"error": {"message": f"model {model!r} not found"}})
            return
        with self._lock:
            rows = [[float(x) for x in row] for row in self.embedder.embed_documents(texts)]
        if gemini:
            self.send(handler, 200, {"embeddings": [{"values": row} for row in rows]})
            return
        data = [{"object": "embedding", "index": i, "embedding": r} for i, r in enumerate(rows)]
        self.send(handler, 200, {"object": "list", "data": data, "model": self.model})
