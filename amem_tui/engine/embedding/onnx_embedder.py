"""A model folder in the repository layout, run as Transformers.js runs it for
openclaw-amem: its tokenizer, its weights file, its pooling.

Transformers.js tokenizes the whole text (its tokenizer ignores the truncation and
padding that ``tokenizer.json`` may declare), cuts the ids to the tokenizer's
``model_max_length`` from ``tokenizer_config.json`` (a plain cut: a final ``[SEP]`` is
lost with the rest), runs the model with the attention mask and, where the model takes
them, all-zero ``token_type_ids``, and pools its ``last_hidden_state`` (else ``logits``,
else ``token_embeddings``). This does the same with the ``tokenizers`` library and
onnxruntime, on the CPU. Loading is explicit (``OnnxEmbedder.load``), for a worker
thread; nothing is downloaded.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from amem_tui.engine.embedding.model_files import FoundModel
from amem_tui.engine.embedding.pooling import pool
from amem_tui.engine.embedding.query_vectors import QueryVectors, Stop
from amem_tui.engine.embedding.recipe import Pooling
from amem_tui.engine.errors import ModelUnavailable

if TYPE_CHECKING:
    import onnxruntime as ort
    from tokenizers import Tokenizer

#: The outputs Transformers.js pools, in the order it looks for them.
HIDDEN_OUTPUTS = ("last_hidden_state", "logits", "token_embeddings")
#: Characters of a text handed to the tokenizer; beyond any model's reach, and keeps a
#: pasted megabyte from tokenizing for seconds.
MAX_TEXT_CHARS = 1_000_000
_SPIN_ENTRIES = ("session.intra_op.allow_spinning", "session.inter_op.allow_spinning")


class OnnxEmbedder:
    """One model folder run with one pooling (thread-safe; queries cached)."""

    def __init__(self, found: FoundModel, pooling: Pooling, dim: int | None = None) -> None:
        self.model_name = found.model
        self.found = found
        self.pooling: Pooling = pooling
        hidden = found.config.get("hidden_size")
        self.dim = dim if dim is not None else (hidden if isinstance(hidden, int) else 0)
        self._lock = threading.Lock()
        self._session: ort.InferenceSession | None = None
        self._tokenizer: Tokenizer | None = None
        self._max_length: int | None = None
        self._inputs: frozenset[str] = frozenset()
        self._output = ""
        self._queries = QueryVectors(self._one)

    @property
    def loaded(self) -> bool:
        """True once the tokenizer and the weights are in memory."""
        return self._session is not None

    def load(self) -> None:
        """Load the tokenizer and the weights now (a worker thread's job)."""
        with self._lock:
            if self._session is not None:
                return
            try:
                self._load()
            except ModelUnavailable:
                raise
            except Exception as exc:
                raise ModelUnavailable(
                    f"cannot load {self.model_name} from {self.found.folder}: {_first_line(exc)}"
                ) from exc

    def _load(self) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        folder = self.found.folder
        tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        tokenizer.no_truncation()
        tokenizer.no_padding()
        self._max_length = model_max_length(folder / "tokenizer_config.json")
        options = ort.SessionOptions()
        for entry in _SPIN_ENTRIES:  # idle threads sleep between queries
            options.add_session_config_entry(entry, "0")
        session = ort.InferenceSession(
            str(self.found.weights_path), options, providers=["CPUExecutionProvider"]
        )
        outputs = [o.name for o in session.get_outputs()]
        named = [name for name in HIDDEN_OUTPUTS if name in outputs]
        if not named:
            raise ModelUnavailable(
                f"{self.found.weights_path} has none of the outputs Transformers.js pools "
                f"({', '.join(HIDDEN_OUTPUTS)}); it has {', '.join(outputs) or 'none'}"
            )
        self._inputs = frozenset(i.name for i in session.get_inputs())
        self._output = named[0]
        self._tokenizer = tokenizer
        self._session = session
        vector = self._run("warm up")  # buffers are allocated here, not on a first query
        if self.dim and vector.shape[-1] != self.dim:
            self._session = None
            raise ModelUnavailable(
                f"{self.model_name} makes {vector.shape[-1]}-dimensional vectors; the "
                f"collection holds {self.dim}-dimensional ones"
            )
        self.dim = int(vector.shape[-1])

    def token_ids(self, text: str) -> list[int]:
        """The ids the model reads for ``text`` (the model is loaded first)."""
        self.load()
        return self._ids(text)

    def _ids(self, text: str) -> list[int]:
        assert self._tokenizer is not None
        ids = self._tokenizer.encode(text[:MAX_TEXT_CHARS]).ids
        return list(ids[: self._max_length]) if self._max_length is not None else list(ids)

    def _run(self, text: str) -> np.ndarray:
        assert self._session is not None
        ids = np.asarray([self._ids(text)], dtype=np.int64)
        mask = np.ones_like(ids)
        feed: dict[str, Any] = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        feed = {name: value for name, value in feed.items() if name in self._inputs}
        (hidden,) = self._session.run([self._output], feed)
        vector: np.ndarray = pool(np.asarray(hidden), mask, self.pooling)[0]
        return vector

    def _one(self, text: str) -> np.ndarray:
        self.load()
        return self._run(text)

    def embed_query(self, text: str, stop: Stop | None = None) -> np.ndarray:
        """The query's unit vector (cached; see ``query_vectors`` for ``stop``)."""
        return self._queries.get(text, stop)

    def has_query(self, text: str) -> bool:
        """True when the query's vector is made already."""
        return self._queries.has(text)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """One unit vector per text, one at a time (as the agent embeds each note)."""
        self.load()
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._run(text) for text in texts])


def model_max_length(path: Path) -> int | None:
    """The tokenizer's ``model_max_length`` (None: unset, so nothing is cut)."""
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ModelUnavailable(f"{path} cannot be read: {exc}") from exc
    value = config.get("model_max_length") if isinstance(config, dict) else None
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        return None
    return int(min(value, 2**31 - 1))


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
