"""An Ollama-compatible embedding endpoint for tests: the real mem0 SDK embeds through it.

mem0's Ollama embedder lists the server's models (``GET /api/tags``), pulls one it
lacks (``POST /api/pull``) and embeds with ``POST /api/embed`` (``{"model", "input"}``
in, ``{"embeddings": [[...]]}`` out). This answers those with our own offline
all-MiniLM-L6-v2 (the model Ollama serves as ``all-minilm``), so memories the SDK
writes carry exactly the vectors amem-tui makes for a query. Its LLM is listed too,
so the SDK's Ollama LLM finds it; it is never asked anything (memories are written
with ``infer: false``), and a chat request is answered 501 and recorded.

Every request is recorded in ``OllamaStandIn.requests``; a route it does not
know is answered 404 and recorded in ``OllamaStandIn.unknown``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler
from typing import Any

from amem_tui.engine.embed import Embedder
from tests.support.json_http import JsonStandIn

#: The embedding model's name as Ollama serves all-MiniLM-L6-v2.
EMBED_MODEL = "all-minilm"
#: A chat model the SDK's Ollama LLM is configured with (never asked: infer is off).
LLM_MODEL = "parity-llm"


class OllamaStandIn(JsonStandIn):
    """An Ollama-shaped embedding server on 127.0.0.1 backed by ``embedder``."""

    def __init__(self, embedder: Embedder, models: Sequence[str] = (EMBED_MODEL, LLM_MODEL)):
        super().__init__()
        self.embedder = embedder
        self.models = [m if ":" in m else f"{m}:latest" for m in models]
        #: Requests answered, as ``"METHOD /path"``.
        self.requests: list[str] = []
        #: Requests it does not answer (unknown routes, pulls, chats).
        self.unknown: list[str] = []
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        """The base URL the SDK's ``url`` points at."""
        return self.root

    def _known(self, model: object) -> bool:
        name = str(model)
        return (name if ":" in name else f"{name}:latest") in self.models

    def answer(self, handler: BaseHTTPRequestHandler) -> None:
        """One request: the model list, an embedding, or 404/501."""
        path = handler.path.split("?", 1)[0].rstrip("/")
        line = f"{handler.command} {path}"
        self.requests.append(line)
        ok, body = self.read_json(handler)
        if not ok:
            self.send(handler, 400, {"error": "invalid JSON"})
            return
        if line == "GET /api/tags":
            models = [{"name": m, "model": m, "size": 0, "digest": ""} for m in self.models]
            self.send(handler, 200, {"models": models})
        elif line == "GET /api/version":
            self.send(handler, 200, {"version": "0.0.0-standin"})
        elif line in ("POST /api/embed", "POST /api/embeddings"):
            self._embed(handler, line, body)
        else:  # a pull, a chat, anything else: never needed by the parity runs
            self.unknown.append(line)
            status = 501 if line in ("POST /api/pull", "POST /api/chat") else 404
            self.send(handler, status, {"error": f"the stand-in does not answer {line}"})

    def _embed(self, handler: BaseHTTPRequestHandler, line: str, body: Any) -> None:
        if not isinstance(body, dict) or not self._known(body.get("model")):
            self.send(handler, 404, {"error": f"model {body.get('model')!r} not found"})
            return
        if line == "POST /api/embeddings":  # the older route: one prompt, one vector
            texts = [str(body.get("prompt", ""))]
        else:
            given = body.get("input", "")
            texts = [str(t) for t in given] if isinstance(given, list) else [str(given)]
        with self._lock:  # one model, one caller at a time
            rows = self.embedder.embed_documents(texts)
        vectors = [[float(x) for x in row] for row in rows]
        if line == "POST /api/embeddings":
            self.send(handler, 200, {"embedding": vectors[0]})
        else:
            self.send(handler, 200, {"model": body["model"], "embeddings": vectors})
