"""A query embedded by the OpenClaw mem0 plugin's own embedder, over its HTTP API.

Each provider is called as mem0's TypeScript SDK calls it: Ollama's ``POST /api/embed``
(``{"model", "input"}``); OpenAI, LM Studio and other OpenAI-compatible servers'
``POST <base>/embeddings`` (``encoding_format: float``, and ``dimensions`` where the
entry sets ``embeddingDims``); Azure OpenAI's deployment route with its ``api-key``;
Gemini's ``batchEmbedContents``. The query leaves the machine, so the engine makes
one of these only when the user allows remote embeddings. Nothing is pulled or
downloaded; a request times out; an error is reported without the key, and the key
is never part of a message, a log line or a ``repr``.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from amem_tui.engine.embedding.pooling import normalise
from amem_tui.engine.embedding.query_vectors import QueryVectors, Stop
from amem_tui.engine.embedding.remote_spec import Mem0Embedder
from amem_tui.engine.errors import ModelUnavailable
from amem_tui.engine.redact import MASK, redact_text, redact_url

#: Seconds to connect, and to wait for an answer.
CONNECT_TIMEOUT = 3.0
ANSWER_TIMEOUT = 15.0
#: Where each provider's SDK goes when the entry names no endpoint.
OLLAMA_URL = "http://localhost:11434"
OPENAI_URL = "https://api.openai.com/v1"
LMSTUDIO_URL = "http://localhost:1234/v1"
LMSTUDIO_KEY = "lm-studio"
GEMINI_URL = "https://generativelanguage.googleapis.com"
#: Characters of an error body quoted in a message.
ERROR_BODY_CHARS = 200


@dataclass(frozen=True)
class Request:
    """One HTTP request for one text's vector."""

    url: str
    #: Holds the key: never shown.
    headers: dict[str, str] = field(repr=False)
    body: dict[str, Any] = field(repr=False)


class RemoteEmbedder:
    """The plugin's embedder, called for query vectors (thread-safe; cached)."""

    def __init__(self, spec: Mem0Embedder, dim: int | None = None) -> None:
        self.spec = spec
        self.model_name = spec.label
        self.dim = dim or spec.dimensions or 0
        self._queries = QueryVectors(self._one)

    def __repr__(self) -> str:
        return f"RemoteEmbedder({self.model_name!r}, {self.endpoint!r})"

    @property
    def endpoint(self) -> str:
        """Where queries are sent, with any credentials in the URL masked."""
        try:
            return redact_url(request_for(self.spec, "").url)
        except ModelUnavailable:
            return "(no endpoint)"

    @property
    def loaded(self) -> bool:
        """Always True: nothing is loaded before the first request."""
        return True

    def load(self) -> None:
        """Nothing to load: the endpoint is asked on each query."""

    def embed_query(self, text: str, stop: Stop | None = None) -> np.ndarray:
        """The query's unit vector from the endpoint (cached: a query is sent once)."""
        return self._queries.get(text, stop)

    def has_query(self, text: str) -> bool:
        """True when the query's vector came back already."""
        return self._queries.has(text)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """One unit vector per text, one request each."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._one(text) for text in texts])

    def _one(self, text: str) -> np.ndarray:
        import httpx

        request = request_for(self.spec, text)
        where = f"{self.model_name} at {redact_url(request.url)}"
        timeout = httpx.Timeout(ANSWER_TIMEOUT, connect=CONNECT_TIMEOUT)
        try:
            # Proxy variables are not read: the plugin's SDKs do not read them either.
            with httpx.Client(timeout=timeout, trust_env=False) as client:
                answer = client.post(request.url, headers=request.headers, json=request.body)
        except httpx.HTTPError as exc:
            raise ModelUnavailable(
                f"the mem0 plugin's embedder ({where}) did not answer: "
                f"{self._hide(type(exc).__name__ + ': ' + str(exc))}"
            ) from None
        if answer.status_code >= 400:
            body = self._hide(answer.text.strip().replace("\n", " ")[:ERROR_BODY_CHARS])
            raise ModelUnavailable(
                f"the mem0 plugin's embedder ({where}) answered HTTP {answer.status_code}"
                + (f": {body}" if body else "")
            )
        try:
            values = vector_of(self.spec.provider, answer.json())
        except ValueError as exc:
            raise ModelUnavailable(f"the mem0 plugin's embedder ({where}): {exc}") from None
        if self.dim and len(values) != self.dim:
            raise ModelUnavailable(
                f"the mem0 plugin's embedder ({where}) makes {len(values)}-dimensional "
                f"vectors; the collection holds {self.dim}-dimensional ones"
            )
        vector = normalise(np.asarray(values, dtype=np.float64)).astype(np.float32)
        return vector

    def _hide(self, text: str) -> str:
        """``text`` without the key or any credential a URL in it carries."""
        key = self.spec.api_key.get_secret_value() if self.spec.api_key else ""
        if key:
            text = text.replace(key, MASK)
        return redact_text(text)


def request_for(spec: Mem0Embedder, text: str) -> Request:
    """The request mem0's SDK sends for ``text`` with this embedder."""
    provider = spec.provider.lower()
    key = spec.api_key.get_secret_value() if spec.api_key else None
    if provider == "ollama":
        base = ollama_host(spec.url or spec.base_url)
        return Request(f"{base}/api/embed", {}, {"model": spec.model, "input": text})
    if provider in ("openai", "lmstudio"):
        lmstudio = provider == "lmstudio"
        default = LMSTUDIO_URL if lmstudio else (spec.env_base_url or OPENAI_URL)
        base = (spec.base_url or spec.url or default).rstrip("/")
        key = key or (LMSTUDIO_KEY if lmstudio else None)
        if not key:
            raise ModelUnavailable(_no_key(spec, "OPENAI_API_KEY"))
        body: dict[str, Any] = {
            "model": spec.model,
            "input": text.replace("\n", " ") if lmstudio else text,
            "encoding_format": "float",
        }
        if spec.dimensions is not None and not lmstudio:
            body["dimensions"] = spec.dimensions
        return Request(f"{base}/embeddings", {"Authorization": f"Bearer {key}"}, body)
    if provider == "azure_openai":
        return _azure(spec, key, text)
    if provider in ("google", "gemini"):
        return _gemini(spec, key, text)
    raise ModelUnavailable(
        f"the mem0 plugin's embedder provider {spec.provider!r} is not a plain HTTP API "
        "amem-tui can call"
    )


def _azure(spec: Mem0Embedder, key: str | None, text: str) -> Request:
    props = spec.model_properties
    endpoint = (props.get("endpoint") or "").rstrip("/")
    if not key or not endpoint:
        raise ModelUnavailable(
            "the mem0 plugin's Azure OpenAI embedder needs apiKey and "
            "modelProperties.endpoint in its entry (mem0's SDK refuses it without them)"
        )
    version = props.get("apiVersion") or spec.env_api_version
    if not version:
        raise ModelUnavailable(
            "the mem0 plugin's Azure OpenAI embedder names no API version "
            "(modelProperties.apiVersion, or OPENAI_API_VERSION)"
        )
    deployment = urllib.parse.quote(props.get("deployment") or spec.model, safe="")
    query = urllib.parse.urlencode({"api-version": version})
    body: dict[str, Any] = {"model": spec.model, "input": text, "encoding_format": "float"}
    if spec.dimensions is not None:
        body["dimensions"] = spec.dimensions
    url = f"{endpoint}/openai/deployments/{deployment}/embeddings?{query}"
    return Request(url, {"api-key": key}, body)


def _gemini(spec: Mem0Embedder, key: str | None, text: str) -> Request:
    if not key:
        raise ModelUnavailable(_no_key(spec, "GOOGLE_API_KEY or GEMINI_API_KEY"))
    model = (
        spec.model
        if spec.model.startswith(("models/", "tunedModels/"))
        else (f"models/{spec.model}")
    )
    base = (spec.env_base_url or GEMINI_URL).rstrip("/")
    one: dict[str, Any] = {"content": {"parts": [{"text": text}], "role": "user"}, "model": model}
    if spec.dimensions is not None:
        one["outputDimensionality"] = spec.dimensions
    return Request(
        f"{base}/v1beta/{model}:batchEmbedContents",
        {"x-goog-api-key": key},
        {"requests": [one]},
    )


def vector_of(provider: str, answer: Any) -> list[float]:
    """The vector in a provider's answer (ValueError when there is none)."""
    try:
        if provider.lower() == "ollama":
            values = answer["embeddings"][0]
        elif provider.lower() in ("google", "gemini"):
            values = answer["embeddings"][0]["values"]
        else:
            values = answer["data"][0]["embedding"]
    except (KeyError, IndexError, TypeError):
        raise ValueError("its answer holds no embedding") from None
    if not isinstance(values, list) or not values:
        raise ValueError("its answer holds no embedding")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        raise ValueError("its embedding is not a list of numbers")
    return [float(v) for v in values]


def ollama_host(configured: str | None) -> str:
    """The Ollama server's base URL, completed as the ``ollama`` client completes it
    (scheme ``http``, port 11434 when neither is given)."""
    if not configured:
        return OLLAMA_URL
    host = configured.strip()
    explicit = "://" in host
    if host.startswith(":"):
        host, explicit = f"http://127.0.0.1{host}", True
    if not explicit:
        host = f"http://{host}"
    parts = urllib.parse.urlsplit(host)
    port = parts.port
    if port is None:
        port = 11434 if not explicit else (443 if parts.scheme == "https" else 80)
    auth = parts.netloc.rpartition("@")[0]
    name = parts.hostname or ""
    name = f"[{name}]" if ":" in name else name
    netloc = f"{auth + '@' if auth else ''}{name}:{port}"
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, "", "")).rstrip("/")


def _no_key(spec: Mem0Embedder, variables: str) -> str:
    return (
        f"the mem0 plugin's {spec.provider} embedder has no API key (its entry's apiKey, "
        f"else {variables}, as the plugin reads it)"
    )
