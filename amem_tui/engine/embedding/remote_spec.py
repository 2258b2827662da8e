"""The OpenClaw mem0 plugin's embedder, as its SDK builds it from the plugin's entry.

The plugin merges its entry's ``oss.embedder`` over its default (``openai``,
``text-embedding-3-small``; a ``host`` is taken as ``url``) and hands it to mem0's
TypeScript SDK, whose embedder classes call the provider's HTTP API. The settings
layer fills this in from openclaw.json and the environment the plugin's process reads
(the key, the OpenAI base URL); the engine only reads it.
"""

from __future__ import annotations

from pydantic import BaseModel, Field, SecretStr

#: The providers whose embedder is a plain HTTP API (mem0's ``langchain`` one is not).
HTTP_PROVIDERS = ("ollama", "openai", "lmstudio", "azure_openai", "google", "gemini")
#: The plugin's default embedder.
DEFAULT_PROVIDER = "openai"
DEFAULT_MODEL = "text-embedding-3-small"


class Mem0Embedder(BaseModel):
    """One mem0 embedder: provider, model, endpoint and key (the key is never shown)."""

    provider: str = DEFAULT_PROVIDER
    model: str = DEFAULT_MODEL
    #: The entry's ``url`` (or ``host``) and ``baseURL``.
    url: str | None = None
    base_url: str | None = None
    api_key: SecretStr | None = Field(default=None, repr=False)
    #: Where the key was read, in words (``openclaw.json apiKey``, ``OPENAI_API_KEY``).
    key_source: str | None = None
    #: ``embeddingDims``: sent as the requested size where the SDK sends it.
    dimensions: int | None = None
    #: ``modelProperties`` (Azure OpenAI: ``endpoint``, ``deployment``, ``apiVersion``).
    model_properties: dict[str, str] = Field(default_factory=dict)
    #: The SDK's base URL from the environment (``OPENAI_BASE_URL`` for OpenAI,
    #: ``GOOGLE_GEMINI_BASE_URL`` for Gemini) and Azure's ``OPENAI_API_VERSION``.
    env_base_url: str | None = None
    env_api_version: str | None = None

    @property
    def label(self) -> str:
        """``provider/model``, as messages name it."""
        return f"{self.provider}/{self.model}"

    @property
    def plain_http(self) -> bool:
        """True when amem-tui can call this embedder itself."""
        return self.provider.lower() in HTTP_PROVIDERS
