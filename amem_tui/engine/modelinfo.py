"""Which embedding model built a collection, and whether we can embed like it.

A collection names its model in the ``embedding_model`` metadata key; stores
without it are judged by their vector size. openclaw-amem's defaults are known
(``Xenova/bge-m3``, 1024 dims; earlier ``Xenova/paraphrase-multilingual-MiniLM-L12-v2``,
384 dims). A model other than ours is only used if fastembed already has its
files on this machine: nothing is ever downloaded.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
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
}

ModelSource = Literal["metadata", "vector size", "none"]


class ModelInfo(BaseModel):
    """What built a collection, as far as it can be told."""

    name: str | None
    vector_size: int | None
    source: ModelSource
    fastembed_name: str | None = None


def detect_model(info: CollectionInfo, ours: str, our_dim: int) -> ModelInfo:
    """The model of a collection: its metadata, else a guess from the vector size.

    amem_tui always writes the metadata, so a collection without it was built
    by another tool: 1024 dimensions suggest openclaw-amem's default model, 384
    its earlier default; any other size is an unknown model. A guess is never
    taken as ours, so our vectors are never mixed into such a collection.
    """
    if info.embedding_model:
        name = info.embedding_model
        known = KNOWN_MODELS.get(name)
        fast = known[1] if known else canonical_model_name(name)
        return ModelInfo(
            name=name, vector_size=info.vector_size, source="metadata", fastembed_name=fast
        )
    size = info.vector_size
    if size is None:
        return ModelInfo(name=None, vector_size=None, source="none")
    for name, (dim, fast) in KNOWN_MODELS.items():
        if dim == size:
            return ModelInfo(name=name, vector_size=size, source="vector size", fastembed_name=fast)
    return ModelInfo(name=None, vector_size=size, source="vector size")


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
    """An embedder for a model fastembed has locally (check :func:`available_offline`)."""
    return OfflineFastEmbedder(fastembed_name)


class Embedders:
    """The engine's own embedder, and the local models other collections were built by.

    One per engine: every collection service asks here, so each foreign model is
    loaded at most once.
    """

    def __init__(self, ours: Embedder) -> None:
        self.ours = ours
        self._foreign: dict[str, Embedder | None] = {}
        self._lock = threading.Lock()

    def for_model(self, model: ModelInfo) -> Embedder | None:
        """An embedder that computes ``model``'s vectors on this machine, or None."""
        name = model.fastembed_name
        if not name:
            return None
        with self._lock:
            if name in self._foreign:
                return self._foreign[name]
        found: Embedder | None = None
        if available_offline(name):
            embedder = offline_embedder(name)
            if model.vector_size is None or embedder.dim == model.vector_size:
                found = embedder
        with self._lock:
            return self._foreign.setdefault(name, found)
