"""Which embedding model built a collection, and whether we can embed like it.

A collection names its model in the ``embedding_model`` metadata key (amem-tui
always writes it; openclaw-amem does too). For a collection without it, the model
is what the settings say, in this order: a per-collection setting
(``AMEM_COLLECTION_MODELS`` or our own ``config.toml``), then ``--model``
(``AMEM_MODEL``), then, for a mem0 collection, the embedder in the OpenClaw mem0
plugin's entry. The vector size alone never decides: two models of one size give
vectors that cannot be compared, so a size only gives a hint in messages. A model
other than ours is only used if fastembed already has its files on this machine:
nothing is ever downloaded.
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel

from amem_tui.engine.embed import Embedder, FastEmbedder, canonical_model_name
from amem_tui.engine.errors import ModelUnavailable
from amem_tui.engine.store.base import CollectionInfo

#: openclaw-amem's default model today, and its earlier default.
AMEM_DEFAULT_MODEL = "Xenova/bge-m3"
AMEM_LEGACY_MODEL = "Xenova/paraphrase-multilingual-MiniLM-L12-v2"

#: Known models: their vector size and the fastembed name that computes them (None: none).
KNOWN_MODELS: dict[str, tuple[int, str | None]] = {
    AMEM_DEFAULT_MODEL: (1024, None),
    "BAAI/bge-m3": (1024, None),
    AMEM_LEGACY_MODEL: (384, "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2"),
    "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2": (
        384,
        "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2",
    ),
    "nomic-ai/nomic-embed-text-v1.5": (768, "nomic-ai/nomic-embed-text-v1.5"),
    "mixedbread-ai/mxbai-embed-large-v1": (1024, "mixedbread-ai/mxbai-embed-large-v1"),
    "openai/text-embedding-3-small": (1536, None),
    "openai/text-embedding-3-large": (3072, None),
    "openai/text-embedding-ada-002": (1536, None),
}
#: What each size hints at when a collection names no model (never acted on).
SIZE_HINTS = {
    1024: f"{AMEM_DEFAULT_MODEL} (openclaw-amem's default)",
    384: "a MiniLM-class model (openclaw-amem's earlier default, all-MiniLM-L6-v2 and others)",
    768: "a 768-dimension model such as nomic-embed-text",
    1536: "OpenAI text-embedding-3-small (mem0's default)",
}
#: Model names of the embedder providers the OpenClaw mem0 plugin offers, as
#: regexes over ``<provider>/<model>`` (tags such as ``:latest`` allowed).
_PLUGIN_MODELS = (
    (r"ollama/all-minilm(:.*)?", "sentence-transformers/all-MiniLM-L6-v2"),
    (r"ollama/nomic-embed-text(:.*)?", "nomic-ai/nomic-embed-text-v1.5"),
    (r"ollama/mxbai-embed-large(:.*)?", "mixedbread-ai/mxbai-embed-large-v1"),
    (r"openai/(text-embedding-.+)", r"openai/\1"),
)

ModelSource = Literal["metadata", "setting", "--model", "AMEM_EMBED_MODEL", "mem0 plugin", "none"]


class ModelInfo(BaseModel):
    """What built a collection, as far as it can be told, and where that was learnt."""

    name: str | None
    vector_size: int | None
    source: ModelSource
    fastembed_name: str | None = None
    #: What the vector size suggests when nothing names the model (never acted on).
    hint: str | None = None


def plugin_model(provider: str | None, model: str | None) -> str | None:
    """Our name for the model a mem0 plugin embedder entry names, or None if unknown."""
    if not model:
        return None
    wanted = f"{(provider or 'openai').lower()}/{model.strip()}"
    for pattern, name in _PLUGIN_MODELS:
        match = re.fullmatch(pattern, wanted, re.IGNORECASE)
        if match:
            return match.expand(name)
    if (provider or "").lower() in ("huggingface", "fastembed"):
        return canonical_model_name(model if "/" in model else f"sentence-transformers/{model}")
    return None


@dataclass
class ModelChoices:
    """What the settings say built collections that name no model."""

    #: Per collection (AMEM_COLLECTION_MODELS, our config.toml).
    per_collection: Mapping[str, str] = field(default_factory=dict)
    #: ``--model`` / ``AMEM_MODEL``, when given.
    default: str | None = None
    #: ``AMEM_EMBED_MODEL``: what openclaw-amem embeds with, for its collections.
    amem: str | None = None
    #: The mem0 plugin entry's embedder, for mem0 collections, and the vector size it
    #: asks its provider for (``embeddingDims``; None: the model's own).
    mem0_plugin: str | None = None
    mem0_dimensions: int | None = None

    def for_collection(self, names: tuple[str, ...], mem0: bool) -> tuple[str, ModelSource] | None:
        """The configured model of a collection known by any of ``names`` (alias, real)."""
        for name in names:
            if name in self.per_collection:
                return self.per_collection[name], "setting"
        if self.default:
            return self.default, "--model"
        if not mem0 and self.amem:
            return self.amem, "AMEM_EMBED_MODEL"
        if mem0 and self.mem0_plugin:
            return self.mem0_plugin, "mem0 plugin"
        return None


def detect_model(
    info: CollectionInfo,
    configured: tuple[str, ModelSource] | None = None,
    dimensions: int | None = None,
) -> ModelInfo:
    """The model of a collection: its metadata, else what the settings name, else none.

    The mem0 plugin's embedder does not name a collection whose vector size it cannot
    make (its known size, or the ``dimensions`` it asks for): the plugin could not
    have written those vectors, so the store was built some other way.
    """
    if info.embedding_model:
        return _named(info.embedding_model, info.vector_size, "metadata")
    size = info.vector_size
    if configured is not None and not _contradicted(configured, size, dimensions):
        return _named(configured[0], size, configured[1])
    return ModelInfo(
        name=None,
        vector_size=size,
        source="none",
        hint=SIZE_HINTS.get(size) if size is not None else None,
    )


def _contradicted(
    configured: tuple[str, ModelSource], size: int | None, dimensions: int | None
) -> bool:
    name, source = configured
    if source != "mem0 plugin" or size is None:
        return False
    known = KNOWN_MODELS.get(name) or KNOWN_MODELS.get(canonical_model_name(name) or name)
    makes = dimensions or (known[0] if known else None)
    return makes is not None and makes != size


def _named(name: str, size: int | None, source: ModelSource) -> ModelInfo:
    canonical = canonical_model_name(name) or name
    known = KNOWN_MODELS.get(name) or KNOWN_MODELS.get(canonical)
    fast = known[1] if known else canonical
    return ModelInfo(name=name, vector_size=size, source=source, fastembed_name=fast)


class OfflineFastEmbedder(FastEmbedder):
    """A fastembed model loaded only from files already in fastembed's cache."""

    def load(self) -> None:
        """Load from the local cache; never download."""
        with self._lock:
            if self._model is not None:
                return
            from fastembed import TextEmbedding

            try:
                with _quiet_fastembed():
                    self._model = TextEmbedding(self.model_name, local_files_only=True)
            except Exception as exc:
                raise ModelUnavailable(
                    f"the embedding model {self.model_name} is not available offline: {exc}"
                ) from exc


_probe_lock = threading.Lock()
_probed: dict[str, bool] = {}


@contextlib.contextmanager
def _quiet_fastembed() -> Iterator[None]:
    """fastembed logs its failed cache look-ups as errors; they are expected here."""
    try:
        from loguru import logger
    except ImportError:  # pragma: no cover - fastembed depends on loguru
        yield
        return
    logger.disable("fastembed")
    try:
        yield
    finally:
        logger.enable("fastembed")


def available_offline(fastembed_name: str | None) -> bool:
    """True when fastembed knows the model and its files are already on this machine."""
    if not fastembed_name:
        return False
    with _probe_lock:
        if fastembed_name in _probed:
            return _probed[fastembed_name]
        ok = False
        try:
            from fastembed import TextEmbedding

            with _quiet_fastembed():
                # lazy_load: find the files, do not build the session.
                TextEmbedding(fastembed_name, local_files_only=True, lazy_load=True)
            ok = True
        except Exception:
            ok = False
        _probed[fastembed_name] = ok
        return ok


def offline_embedder(fastembed_name: str) -> Embedder:
    """An embedder for a model fastembed has locally (check ``available_offline``)."""
    return OfflineFastEmbedder(fastembed_name)
