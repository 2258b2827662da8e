"""Model folders laid out as openclaw-amem keeps them, built from the packaged
all-MiniLM-L6-v2 (no download), and a reference of how its library embeds a text.

openclaw-amem (Transformers.js) reads ``<root>/<org>/<name>/config.json``,
``tokenizer.json``, ``tokenizer_config.json`` and ``onnx/model<suffix>.onnx``. The
packaged model's files are laid out under any model id (a CLS-pooled bge name, a
mean-pooled MiniLM name) and under any weights file names: the vectors then differ
only by pooling, which is what the tests look at.

``reference_vector`` is written from Transformers.js' ``feature-extraction``
pipeline, independently of the engine: the whole text tokenized (the tokenizer file's
own truncation ignored), the ids cut to ``model_max_length``, all-zero token types,
then CLS or masked-mean pooling and L2 normalisation. The parity tests
(tests/parity/test_transformers_js_parity.py) hold the engine to the library itself.
"""

from __future__ import annotations

import functools
import json
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from amem_tui.engine.embed import prepare_offline_model
from tests.support.paths import MODEL_CACHE

#: A CLS-pooled name (amem's table holds it) and a mean-pooled one.
BGE_SMALL = "Xenova/bge-small-en-v1.5"
MINILM = "Xenova/all-MiniLM-L6-v2"
#: The packaged model's vector size.
DIM = 384

_TOKEN_FILES = ("tokenizer.json", "tokenizer_config.json", "config.json")


def packaged_folder() -> Path:
    """The assembled folder of the packaged model (its ONNX file and tokenizer files)."""
    return prepare_offline_model(MODEL_CACHE)


def lay_out(
    root: Path,
    model: str,
    weights: Iterable[str] = ("model.onnx",),
    config: Mapping[str, Any] | None = None,
    extra: Iterable[str] = (),
) -> Path:
    """The packaged model under ``<root>/<model>``, its weights as each name in
    ``weights`` (inside ``onnx/``), ``config`` merged into its config.json, and
    ``extra`` files (e.g. ``onnx/model.onnx_data``) present but empty."""
    source = packaged_folder()
    folder = root.joinpath(*model.split("/"))
    (folder / "onnx").mkdir(parents=True, exist_ok=True)
    for name in _TOKEN_FILES:
        shutil.copyfile(source / name, folder / name)
    if config:
        merged = {**json.loads((folder / "config.json").read_text()), **config}
        (folder / "config.json").write_text(json.dumps(merged))
    onnx = (source / "model.onnx").resolve()
    for name in weights:
        target = folder / "onnx" / name
        if not target.exists():
            target.symlink_to(onnx)
    for name in extra:
        (folder / name).write_bytes(b"")
    return folder


def reference_vector(folder: Path, text: str, pooling: str) -> np.ndarray:
    """``text`` embedded from ``folder`` as Transformers.js' pipeline embeds it."""
    tokenizer, limit, session = _loaded(folder)
    ids = tokenizer.encode(text).ids[: int(limit) if limit else None]
    feed = {
        "input_ids": np.asarray([ids], dtype=np.int64),
        "attention_mask": np.ones((1, len(ids)), dtype=np.int64),
        "token_type_ids": np.zeros((1, len(ids)), dtype=np.int64),
    }
    hidden = session.run(None, feed)[0][0].astype(np.float64)
    pooled = hidden[0] if pooling == "cls" else hidden.mean(axis=0)
    vector: np.ndarray = (pooled / np.linalg.norm(pooled)).astype(np.float32)
    return vector


@functools.cache
def _loaded(folder: Path) -> tuple[Any, Any, Any]:
    import onnxruntime as ort
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    limit = json.loads((folder / "tokenizer_config.json").read_text()).get("model_max_length")
    weights = folder / "onnx" / "model.onnx"
    if not weights.exists():
        weights = next((folder / "onnx").glob("*.onnx"))
    session = ort.InferenceSession(str(weights), providers=["CPUExecutionProvider"])
    return tokenizer, limit, session


def plugin_cache(openclaw_dir: Path, npm: bool = False) -> Path:
    """Where an installed openclaw-amem plugin's Transformers.js caches models:
    ``extensions/openclaw-amem`` with its own node_modules, or (``npm``) a managed
    npm project's hoisted node_modules."""
    if npm:
        modules = openclaw_dir / "npm" / "projects" / "openclaw-amem-x" / "node_modules"
        (modules / "openclaw-amem").mkdir(parents=True, exist_ok=True)
    else:
        modules = openclaw_dir / "extensions" / "openclaw-amem" / "node_modules"
    library = modules / "@huggingface" / "transformers"
    library.mkdir(parents=True, exist_ok=True)
    return library / ".cache"
